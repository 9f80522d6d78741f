"""Game records: replays, GIFs, import and export in every format."""

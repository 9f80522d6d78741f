"""Start the bot: ``python bot.py`` (``--sync`` also registers the slash commands with Discord).

The bot itself is ``zbot``. This file only starts it because worker processes (the board painter's, the AI's)
are spawned: each imports the started file first, as ``__mp_main__``. Importing the whole bot there cost each
worker a second of CPU and 40 MB, and a worker still importing when its bot was killed outlived it by seconds.
"""

import sys

if __name__ == "__main__":
    from zbot import main

    sys.exit(main())

"""The pure pairing core of events: Dutch Swiss, Berger tables, knockouts, tie-breaks."""

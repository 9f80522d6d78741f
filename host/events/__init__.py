"""Tournament and ladder core: pairing, scoring and tie-breaks as pure functions.

No Discord, no database, no rendering: the host layer stores events and feeds these functions the
entrants and the results so far; they answer with the next round, the standings or the new ladder.
"""

"""A game from challenge to result: the session, lobby, turns, the read model and the move builder."""

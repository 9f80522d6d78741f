"""Persistence: the SQLite database, its migrations and the game store."""

"""Slow games: clocks, deadlines, vacations, reminders and digests."""

"""Ratings, leaderboards, profiles and seasons."""

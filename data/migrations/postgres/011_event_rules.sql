-- Issue 26: the organiser's further rules of an event as a JSON object (NULL: none), e.g.
-- {"match_games": 3, "third_place": true} for a knockout (host/tournaments.py reads and checks them).
ALTER TABLE events ADD COLUMN rules TEXT;

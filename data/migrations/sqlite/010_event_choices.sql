-- Issue 26: what the organiser chooses at creation besides the format. name: the event's own name
-- (shown in its games' thread names; NULL: "Event #id"); tiebreaks: the ordered tie-break codes as a
-- JSON list (host/events/scoring.CHOICES; NULL: the system's default order).
ALTER TABLE events ADD COLUMN name TEXT;
ALTER TABLE events ADD COLUMN tiebreaks TEXT;

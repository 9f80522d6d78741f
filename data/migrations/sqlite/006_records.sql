-- Imported game records (issue 15): a validated record in our JSON format, shown by the replay view.
-- Kept apart from games: an imported record has no seats, clock, dice or rating, and is never played.
CREATE TABLE records (
    id          INTEGER PRIMARY KEY,
    game        TEXT    NOT NULL,
    data        TEXT    NOT NULL,
    imported_by INTEGER NOT NULL,
    guild_id    INTEGER,
    created_at  REAL    NOT NULL
);

-- The newest board message of each game, so the bot can take the move buttons off the previous board
-- and edit a Ziggurat turn's message in place. Discord bookkeeping, not game state: no version bump.
CREATE TABLE board_posts (
    game_id    INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    ply        INTEGER NOT NULL,
    posted_at  REAL    NOT NULL
);

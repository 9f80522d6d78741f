-- Issue 27: a finished game's review by the hard AI, computed once (a job in the AI pool) and kept.
-- data: JSON {"moves": [judged move ...], "level": ...}; ai/review.py defines the judged move.
CREATE TABLE reviews (
    game_id    BIGINT  PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    level      TEXT    NOT NULL,
    data       TEXT    NOT NULL,
    created_at DOUBLE PRECISION NOT NULL
);

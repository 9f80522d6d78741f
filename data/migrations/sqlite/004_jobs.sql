-- Work the bot owes, stored before it is done: AI turns, posts owed after a commit, scheduled steps.
-- A job is written in the same transaction as the change that causes it; a worker claims it with a
-- lease (lease_until), does it, and marks it done. A crashed worker's lease runs out and another
-- process (or the restarted one) claims the job again, so nothing owed is lost.
-- dedupe: an optional key; enqueueing a second job with the same key does nothing (exactly one AI
-- move per position, one result post per game end).
CREATE TABLE jobs (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    kind        TEXT    NOT NULL,
    game_id     INTEGER REFERENCES games (id) ON DELETE CASCADE,
    dedupe      TEXT    UNIQUE,
    payload     TEXT    NOT NULL DEFAULT '{}',
    due_at      REAL    NOT NULL,
    attempts    INTEGER NOT NULL DEFAULT 0,
    lease_owner TEXT,
    lease_until REAL,
    done_at     REAL,
    last_error  TEXT,
    created_at  REAL    NOT NULL
);
CREATE INDEX jobs_pending ON jobs (due_at) WHERE done_at IS NULL;
CREATE INDEX jobs_game ON jobs (game_id, kind);

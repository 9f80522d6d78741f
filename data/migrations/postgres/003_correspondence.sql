-- Correspondence play: clock state, reminders sent, notification preferences, vacations
-- (as sqlite/003_correspondence.sql).
ALTER TABLE games ADD COLUMN clock TEXT;
ALTER TABLE games ADD COLUMN remind_at DOUBLE PRECISION;
CREATE INDEX games_status_remind ON games (status, remind_at);

CREATE TABLE reminders (
    game_id    BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL,
    turn_start DOUBLE PRECISION NOT NULL,
    sent_at    DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, seat, turn_start)
);

CREATE TABLE notify_prefs (
    user_id     BIGINT PRIMARY KEY,
    mode        TEXT   NOT NULL DEFAULT 'dm' CHECK (mode IN ('thread', 'dm', 'digest')),
    next_digest DOUBLE PRECISION
);
CREATE INDEX notify_prefs_digest ON notify_prefs (next_digest);

CREATE TABLE vacations (
    user_id BIGINT  NOT NULL,
    year    INTEGER NOT NULL,
    starts  DOUBLE PRECISION NOT NULL,
    ends    DOUBLE PRECISION NOT NULL,
    days    INTEGER NOT NULL
);
CREATE INDEX vacations_user ON vacations (user_id, ends);

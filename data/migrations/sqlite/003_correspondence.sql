-- Correspondence play: clock state per game, reminders sent, notification preferences, vacations.
-- games.clock: JSON {"started": {seat: t}, "remaining": {seat: s}} (host/clocks.py ClockState).
-- games.remind_at: the next reminder due in the game; the scheduler finds due rows by index.
ALTER TABLE games ADD COLUMN clock TEXT;
ALTER TABLE games ADD COLUMN remind_at REAL;
CREATE INDEX games_status_remind ON games (status, remind_at);

-- One row per reminder sent: (game, seat, turn start) names a turn, so a turn is reminded once, restarts included.
CREATE TABLE reminders (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL,
    turn_start REAL    NOT NULL,
    sent_at    REAL    NOT NULL,
    PRIMARY KEY (game_id, seat, turn_start)
);

CREATE TABLE notify_prefs (
    user_id     INTEGER PRIMARY KEY,
    mode        TEXT    NOT NULL DEFAULT 'dm' CHECK (mode IN ('thread', 'dm', 'digest')),
    next_digest REAL
);
CREATE INDEX notify_prefs_digest ON notify_prefs (next_digest);

-- Each vacation taken; the days used in a year are the sum of its rows.
CREATE TABLE vacations (
    user_id INTEGER NOT NULL,
    year    INTEGER NOT NULL,
    starts  REAL    NOT NULL,
    ends    REAL    NOT NULL,
    days    INTEGER NOT NULL
);
CREATE INDEX vacations_user ON vacations (user_id, ends);

-- Games, seats, the append-only move log, ratings and per-guild settings.
CREATE TABLE games (
    id           INTEGER PRIMARY KEY,
    guild_id     INTEGER,
    channel_id   INTEGER,
    thread_id    INTEGER,
    message_id   INTEGER,
    game         TEXT    NOT NULL,
    players      INTEGER NOT NULL,
    options      TEXT    NOT NULL DEFAULT '{}',
    settings     TEXT    NOT NULL DEFAULT '{}',
    status       TEXT    NOT NULL CHECK (status IN ('challenge', 'active', 'finished', 'aborted', 'declined')),
    version      INTEGER NOT NULL DEFAULT 0,
    seed         TEXT    NOT NULL,
    creator_id   INTEGER NOT NULL,
    created_at   REAL    NOT NULL,
    updated_at   REAL    NOT NULL,
    deadline     REAL,
    result       TEXT,
    draw_offers  TEXT    NOT NULL DEFAULT '[]'
);
CREATE INDEX games_thread ON games (thread_id);
CREATE INDEX games_status_deadline ON games (status, deadline);

CREATE TABLE seats (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,
    user_id  INTEGER,
    team     INTEGER NOT NULL DEFAULT 0,
    accepted INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX seats_user ON seats (user_id);

CREATE TABLE moves (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply     INTEGER NOT NULL,
    seat    INTEGER NOT NULL,
    text    TEXT    NOT NULL,
    at      REAL    NOT NULL,
    PRIMARY KEY (game_id, ply)
);

CREATE TABLE ratings (
    user_id INTEGER NOT NULL,
    game    TEXT    NOT NULL,
    scope   TEXT    NOT NULL,
    season  INTEGER NOT NULL DEFAULT 0,
    mu      REAL    NOT NULL,
    sigma   REAL    NOT NULL,
    games   INTEGER NOT NULL DEFAULT 0,
    wins    INTEGER NOT NULL DEFAULT 0,
    losses  INTEGER NOT NULL DEFAULT 0,
    draws   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, game, scope, season)
);

CREATE TABLE guild_settings (
    guild_id INTEGER PRIMARY KEY,
    settings TEXT NOT NULL DEFAULT '{}'
);

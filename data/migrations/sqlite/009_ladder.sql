-- The correspondence ladder: one standing order of players per server and game (host/ladder.py).
-- ladders.version is bumped by every change to the ladder or its order, so a change computed from a
-- stale read is refused (data/ladder.py). reach: how many places above a player may challenge;
-- inactive_days: idle days before a player is dropped; clock and rated: the settings of its games.
CREATE TABLE ladders (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id      INTEGER NOT NULL,
    game          TEXT    NOT NULL,
    reach         INTEGER NOT NULL DEFAULT 3,
    inactive_days INTEGER NOT NULL DEFAULT 30,
    clock         TEXT    NOT NULL DEFAULT '3d',
    rated         INTEGER NOT NULL DEFAULT 1,
    version       INTEGER NOT NULL DEFAULT 0,
    created_at    REAL    NOT NULL,
    UNIQUE (guild_id, game)
);

-- place: 1 is the top. last_active: joining, a challenge made, or a ladder game's end (the idle clock).
CREATE TABLE ladder_players (
    ladder_id   INTEGER NOT NULL REFERENCES ladders (id) ON DELETE CASCADE,
    user_id     INTEGER NOT NULL,
    place       INTEGER NOT NULL,
    joined_at   REAL    NOT NULL,
    last_active REAL    NOT NULL,
    games       INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (ladder_id, user_id)
);

-- A ladder challenge is a normal game; this row ties it to its ladder. result ('challenger', 'defender',
-- 'draw' or 'void') and applied_at are set once, when the result has moved the ladder: a job that runs
-- again after a crash finds applied_at set and does nothing.
CREATE TABLE ladder_games (
    game_id    INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    ladder_id  INTEGER NOT NULL REFERENCES ladders (id) ON DELETE CASCADE,
    challenger INTEGER NOT NULL,
    defender   INTEGER NOT NULL,
    created_at REAL    NOT NULL,
    result     TEXT,
    applied_at REAL
);
CREATE INDEX ladder_games_open ON ladder_games (ladder_id, applied_at);

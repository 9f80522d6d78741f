-- Seasons per guild and one history row per rated player per game per board, for charts and results.
-- A guild is in season 1 until an admin starts season 2; only started seasons get a row here.
CREATE TABLE seasons (
    guild_id   INTEGER NOT NULL,
    season     INTEGER NOT NULL,
    started_at REAL    NOT NULL,
    started_by INTEGER,
    PRIMARY KEY (guild_id, season)
);

-- scope is a guild id as text or 'global'; season 0 is the all-time board.
CREATE TABLE rating_history (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id      INTEGER NOT NULL,
    game         TEXT    NOT NULL,
    scope        TEXT    NOT NULL,
    season       INTEGER NOT NULL,
    place        INTEGER NOT NULL,
    result       TEXT    NOT NULL CHECK (result IN ('win', 'loss', 'draw')),
    mu_before    REAL    NOT NULL,
    sigma_before REAL    NOT NULL,
    mu           REAL    NOT NULL,
    sigma        REAL    NOT NULL,
    at           REAL    NOT NULL,
    PRIMARY KEY (game_id, user_id, scope, season)
);
CREATE INDEX rating_history_user ON rating_history (user_id, scope, season, game, at);
CREATE INDEX ratings_board ON ratings (game, scope, season);

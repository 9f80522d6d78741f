-- Seasons per guild and one history row per rated player per game per board (as sqlite/002_ratings.sql).
CREATE TABLE seasons (
    guild_id   BIGINT  NOT NULL,
    season     INTEGER NOT NULL,
    started_at DOUBLE PRECISION NOT NULL,
    started_by BIGINT,
    PRIMARY KEY (guild_id, season)
);

-- scope is a guild id as text or 'global'; season 0 is the all-time board.
CREATE TABLE rating_history (
    game_id      BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id      BIGINT  NOT NULL,
    game         TEXT    NOT NULL,
    scope        TEXT    NOT NULL,
    season       INTEGER NOT NULL,
    place        INTEGER NOT NULL,
    result       TEXT    NOT NULL CHECK (result IN ('win', 'loss', 'draw')),
    mu_before    DOUBLE PRECISION NOT NULL,
    sigma_before DOUBLE PRECISION NOT NULL,
    mu           DOUBLE PRECISION NOT NULL,
    sigma        DOUBLE PRECISION NOT NULL,
    at           DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, user_id, scope, season)
);
CREATE INDEX rating_history_user ON rating_history (user_id, scope, season, game, at);
CREATE INDEX ratings_board ON ratings (game, scope, season);

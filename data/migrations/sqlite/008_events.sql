-- Tournaments (issue 17): events, their entrants, rounds and pairings. Every change to an event or
-- anything under it bumps events.version in the same transaction (a version-checked write), so two
-- workers or two clicks never pair a round twice. Pairing, scoring and tie-breaks are pure functions
-- in host/events/; these tables hold only what they need as input and what they decided.
CREATE TABLE events (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id            INTEGER NOT NULL,
    channel_id          INTEGER,
    message_id          INTEGER,
    standings_message_id INTEGER,
    organiser_id        INTEGER NOT NULL,
    game                TEXT    NOT NULL,
    options             TEXT    NOT NULL DEFAULT '{}',
    format              TEXT    NOT NULL CHECK (format IN ('swiss', 'round_robin', 'knockout')),
    rounds              INTEGER NOT NULL,
    table_size          INTEGER NOT NULL DEFAULT 2,
    clock               TEXT    NOT NULL DEFAULT 'none',
    rated               INTEGER NOT NULL DEFAULT 1,
    max_players         INTEGER NOT NULL,
    starts_at           REAL,
    status              TEXT    NOT NULL CHECK (status IN ('open', 'running', 'finished', 'cancelled')),
    current_round       INTEGER NOT NULL DEFAULT 0,
    version             INTEGER NOT NULL DEFAULT 0,
    created_at          REAL    NOT NULL,
    updated_at          REAL    NOT NULL
);
CREATE INDEX events_guild ON events (guild_id, status);

-- seed: the initial rank, fixed when the event starts. status: in, withdrawn or removed;
-- left_round: the round in which a withdrawn or removed player stopped playing.
CREATE TABLE event_entrants (
    event_id   INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL,
    seed       INTEGER,
    joined_at  REAL    NOT NULL,
    status     TEXT    NOT NULL DEFAULT 'in' CHECK (status IN ('in', 'withdrawn', 'removed')),
    left_round INTEGER,
    PRIMARY KEY (event_id, user_id)
);

-- One row per table (or bye) per round; a knockout match replayed after a draw gets match_game 2.
-- seats: JSON list of user ids in seat order; points: JSON list per seat, NULL until decided.
CREATE TABLE event_pairings (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id   INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    round      INTEGER NOT NULL,
    board      INTEGER NOT NULL,
    match_game INTEGER NOT NULL DEFAULT 1,
    bye        INTEGER NOT NULL DEFAULT 0,
    seats      TEXT    NOT NULL,
    game_id    INTEGER REFERENCES games (id),
    points     TEXT,
    forfeit    INTEGER NOT NULL DEFAULT 0,
    UNIQUE (event_id, round, board, match_game)
);
CREATE UNIQUE INDEX event_pairings_game ON event_pairings (game_id);

-- Per server: the role (besides Manage Server) whose members may create events.
CREATE TABLE event_settings (
    guild_id        INTEGER PRIMARY KEY,
    organiser_role  INTEGER
);

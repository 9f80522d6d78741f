-- Messages whose buttons or menu belong to one moment of a game (as sqlite/016_live_messages.sql).
CREATE TABLE live_messages (
    game_id    BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    purpose    TEXT    NOT NULL,
    channel_id BIGINT  NOT NULL,
    message_id BIGINT  NOT NULL,
    posted_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, purpose)
);

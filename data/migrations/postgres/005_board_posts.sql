-- The newest board message of each game (as sqlite/005_board_posts.sql).
CREATE TABLE board_posts (
    game_id    BIGINT  PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    channel_id BIGINT  NOT NULL,
    message_id BIGINT  NOT NULL,
    ply        INTEGER NOT NULL,
    posted_at  DOUBLE PRECISION NOT NULL
);

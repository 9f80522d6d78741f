-- Messages whose buttons or menu belong to one moment of a game rather than to its board: a draw offer (Accept and
-- Decline) and a secret-choice menu (Zodiac's DM, or the thread's "Choose privately" button when DMs are closed).
-- Recorded when sent, so whichever process ends that moment (a move, the game's end, after a restart) finds them
-- and takes their components off. Discord bookkeeping, not game state: no version bump.
-- purpose: 'draw' for the offer, 'choice:<user id>' for a player's menu; one live message of each per game.
CREATE TABLE live_messages (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    purpose    TEXT    NOT NULL,
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    posted_at  REAL    NOT NULL,
    PRIMARY KEY (game_id, purpose)
);

-- Real, indexed columns for what used to be dug out of games.settings with json_extract on every
-- look-up, and the board order as a column, so start-up, rematches and boards read an index.
--   rematch_of, match_of, match_len: copies of settings' rematch_of, match_of and match (settings stays
--     the record; the store writes both together).
--   match_pending: 1 while a finished game of a match still owes the match its next step (the next game,
--     or the finding that the match is decided); start-up reads only these rows.
--   ratings.rank_score: mu - 3 sigma, the board's order.
ALTER TABLE games ADD COLUMN rematch_of INTEGER;
ALTER TABLE games ADD COLUMN match_of INTEGER;
ALTER TABLE games ADD COLUMN match_len INTEGER NOT NULL DEFAULT 1;
ALTER TABLE games ADD COLUMN match_pending INTEGER NOT NULL DEFAULT 0;
UPDATE games SET rematch_of = json_extract(settings, '$.rematch_of'),
                 match_of = json_extract(settings, '$.match_of'),
                 match_len = COALESCE(json_extract(settings, '$.match'), 1);
UPDATE games SET match_pending = 1
 WHERE status = 'finished' AND match_len > 1
   AND NOT EXISTS (SELECT 1 FROM games later
                    WHERE later.match_of = COALESCE(games.match_of, games.id) AND later.id > games.id);
CREATE INDEX games_rematch_of ON games (rematch_of) WHERE rematch_of IS NOT NULL;
CREATE INDEX games_match_of ON games (match_of) WHERE match_of IS NOT NULL;
CREATE INDEX games_match_pending ON games (id) WHERE match_pending = 1;
-- Active channel games left without a thread (a crash before the outbox existed): start-up reads only these.
-- games_thread then covers only games that have a thread, where a thread look-up finds them.
CREATE INDEX games_threadless ON games (status) WHERE thread_id IS NULL AND channel_id IS NOT NULL;
DROP INDEX IF EXISTS games_thread;
CREATE INDEX games_thread ON games (thread_id) WHERE thread_id IS NOT NULL;

-- The board order: rank_score = mu - 3 sigma, and rank_bucket = floor(rank_score * 10), which only groups
-- equal-ish scores (it never reorders them). rating_buckets counts the players counted on a board (5 games or
-- more: data/ratings.py COUNTED_FROM) per bucket, so a board's size and a player's place are a sum over a few
-- hundred bucket rows plus a count inside one bucket, not a count over the whole board.
ALTER TABLE ratings ADD COLUMN rank_score REAL NOT NULL DEFAULT 0;
ALTER TABLE ratings ADD COLUMN rank_bucket INTEGER NOT NULL DEFAULT 0;
UPDATE ratings SET rank_score = mu - 3 * sigma;
UPDATE ratings SET rank_bucket = CAST((rank_score * 10) AS INTEGER) - ((rank_score * 10) < CAST((rank_score * 10) AS INTEGER));
DROP INDEX IF EXISTS ratings_board;
CREATE INDEX ratings_rank ON ratings (game, scope, season, rank_bucket DESC, rank_score DESC, games DESC, user_id);
CREATE TABLE rating_buckets (
    game    TEXT    NOT NULL,
    scope   TEXT    NOT NULL,
    season  INTEGER NOT NULL,
    bucket  INTEGER NOT NULL,
    players INTEGER NOT NULL,
    PRIMARY KEY (game, scope, season, bucket)
);
INSERT INTO rating_buckets (game, scope, season, bucket, players)
SELECT game, scope, season, rank_bucket, COUNT(*) FROM ratings WHERE games >= 5 GROUP BY game, scope, season, rank_bucket;

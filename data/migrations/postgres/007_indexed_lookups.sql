-- Real, indexed columns for what used to be dug out of games.settings (JSON) on every look-up, and the
-- board order as a column, so start-up, rematches and boards read an index. See the SQLite twin.
ALTER TABLE games ADD COLUMN rematch_of BIGINT;
ALTER TABLE games ADD COLUMN match_of BIGINT;
ALTER TABLE games ADD COLUMN match_len INTEGER NOT NULL DEFAULT 1;
ALTER TABLE games ADD COLUMN match_pending INTEGER NOT NULL DEFAULT 0;
UPDATE games SET rematch_of = (settings::jsonb ->> 'rematch_of')::bigint,
                 match_of = (settings::jsonb ->> 'match_of')::bigint,
                 match_len = COALESCE((settings::jsonb ->> 'match')::integer, 1);
UPDATE games SET match_pending = 1
 WHERE status = 'finished' AND match_len > 1
   AND NOT EXISTS (SELECT 1 FROM games later
                    WHERE later.match_of = COALESCE(games.match_of, games.id) AND later.id > games.id);
CREATE INDEX games_rematch_of ON games (rematch_of) WHERE rematch_of IS NOT NULL;
CREATE INDEX games_match_of ON games (match_of) WHERE match_of IS NOT NULL;
CREATE INDEX games_match_pending ON games (id) WHERE match_pending = 1;
-- games_thread only for games that have a thread: the look-up of threadless active games then reads the
-- active games (status index), never every game ever played without a thread.
DROP INDEX IF EXISTS games_thread;
CREATE INDEX games_thread ON games (thread_id) WHERE thread_id IS NOT NULL;

ALTER TABLE ratings ADD COLUMN rank_score DOUBLE PRECISION NOT NULL DEFAULT 0;
UPDATE ratings SET rank_score = mu - 3 * sigma;
DROP INDEX IF EXISTS ratings_board;
CREATE INDEX ratings_rank ON ratings (game, scope, season, rank_score DESC, games DESC, user_id);

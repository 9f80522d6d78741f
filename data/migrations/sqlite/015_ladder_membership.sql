-- A ladder game belongs to the memberships of its two players: one who left and joined again while it was
-- in play is a new member, and the game no longer moves the ladder (docs/tournaments.md, "void").
-- ladder_players.joined_version: the ladder version its join produced (ladders.version after the join).
-- ladder_games.ladder_version: the ladder version its challenge produced. A player whose joined_version is
-- higher joined after the challenge. Rows from before this migration have 0 in both: compared as before.
ALTER TABLE ladder_players ADD COLUMN joined_version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE ladder_games ADD COLUMN ladder_version INTEGER NOT NULL DEFAULT 0;

-- Issue 22: every committed change of a game is announced to every bot process (LISTEN game_changes).
-- pg_notify inside the writing transaction is delivered at its COMMIT and dropped by a ROLLBACK, so a
-- page never hears of a write that did not land. Payload: "<game id>:<version>" (data/changes.py reads it).
CREATE FUNCTION notify_game_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('game_changes', NEW.id::text || ':' || NEW.version::text);
    RETURN NULL;
END;
$$;

CREATE TRIGGER games_changed AFTER UPDATE OF version ON games
    FOR EACH ROW WHEN (NEW.version IS DISTINCT FROM OLD.version) EXECUTE FUNCTION notify_game_change();

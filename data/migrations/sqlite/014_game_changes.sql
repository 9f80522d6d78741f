-- Issue 22: PostgreSQL's twin announces committed game changes to other processes (NOTIFY). SQLite serves
-- one process, whose board pages hear its changes in memory (web/live.py): nothing to store here.
SELECT 1;

-- One retry policy for every job kind (host/worker.py): ``attempts`` counts claims, ``failures`` only the
-- runs that failed (a "not yet" is not a failure), and a job that gives up is kept, marked ``given_up_at``,
-- for inspection instead of being retried for ever or deleted.
ALTER TABLE jobs ADD COLUMN failures INTEGER NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN given_up_at REAL;

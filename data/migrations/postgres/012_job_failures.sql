-- As sqlite/012_job_failures.sql: failures counted apart from claims, and given-up jobs kept for inspection.
ALTER TABLE jobs ADD COLUMN failures INTEGER NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN given_up_at DOUBLE PRECISION;

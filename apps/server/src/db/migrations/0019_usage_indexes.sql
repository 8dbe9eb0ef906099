-- Usage dashboards (issue 16, docs/benchmarks.md "Usage dashboards"): the indexes their per-day
-- figures read. Indexes only; no data changes.
--
-- The date indexes of 0016 become covering ones: the dashboards count a period's rows per day and
-- per user from the index alone (index-only scans), without reading the wide rows. Same key, so
-- every query that used the old index uses the new one.
CREATE INDEX login_attempts_date_cover_idx ON login_attempts (login_date) INCLUDE (user_id, failed);
DROP INDEX IF EXISTS login_attempts_date_idx;
CREATE INDEX search_log_created_cover_idx ON search_log (created_at) INCLUDE (user_id);
DROP INDEX IF EXISTS search_log_created_idx;
CREATE INDEX export_jobs_created_cover_idx ON export_jobs (created_at) INCLUDE (user_id);
DROP INDEX IF EXISTS export_jobs_created_idx;
CREATE INDEX credit_ledger_created_cover_idx ON credit_ledger (created_at) INCLUDE (kind, delta);
DROP INDEX IF EXISTS credit_ledger_created_idx;

-- Failed logins by address: a tenth of the attempts, read without the successful ones.
CREATE INDEX login_attempts_failed_idx ON login_attempts (login_date) INCLUDE (ip_address, username) WHERE failed;

-- Whether a user logged in on a given day (and their last login): an index-only probe among the
-- successful logins.
CREATE INDEX login_attempts_user_ok_idx ON login_attempts (user_id, login_date) WHERE NOT failed;

-- Sessions that run past midnight (UTC) make a user active on a day without a login that day:
-- few of them, found without reading every session.
CREATE INDEX user_sessions_overnight_idx ON user_sessions (last_activity_at) INCLUDE (created_at, user_id)
  WHERE (last_activity_at AT TIME ZONE 'UTC')::date > (created_at AT TIME ZONE 'UTC')::date;

-- migrate:down
DROP INDEX IF EXISTS user_sessions_overnight_idx;
DROP INDEX IF EXISTS login_attempts_user_ok_idx;
DROP INDEX IF EXISTS login_attempts_failed_idx;
CREATE INDEX IF NOT EXISTS credit_ledger_created_idx ON credit_ledger (created_at);
DROP INDEX IF EXISTS credit_ledger_created_cover_idx;
CREATE INDEX IF NOT EXISTS export_jobs_created_idx ON export_jobs (created_at);
DROP INDEX IF EXISTS export_jobs_created_cover_idx;
CREATE INDEX IF NOT EXISTS search_log_created_idx ON search_log (created_at DESC);
DROP INDEX IF EXISTS search_log_created_cover_idx;
CREATE INDEX IF NOT EXISTS login_attempts_date_idx ON login_attempts (login_date);
DROP INDEX IF EXISTS login_attempts_date_cover_idx;

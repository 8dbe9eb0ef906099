-- SAR work seen from every server (issue 18, docs/scaling.md): the process computing a table, the
-- core suggestions or the pairs writes its progress here with a heartbeat, so the progress poll
-- and the Cancel button work whichever server they reach; a cancel sent to another server is
-- recorded here and the running process aborts at its next heartbeat. Rows live as long as the work
-- (deleted when it ends); UNLOGGED: a database crash ends the work it describes anyway.
CREATE UNLOGGED TABLE sar_jobs (
  job_id              uuid PRIMARY KEY,
  user_id             bigint NOT NULL,
  session_id          text NOT NULL,
  kind                text NOT NULL,   -- cores, decompose or pairs: a newer job of a kind replaces the older
  phase               text NOT NULL,   -- the step it is in now (a table reads its values, then decomposes)
  started_at          timestamptz NOT NULL DEFAULT clock_timestamp(),
  done                integer NOT NULL DEFAULT 0,
  total               integer NOT NULL DEFAULT 0,
  heartbeat_at        timestamptz NOT NULL DEFAULT clock_timestamp(),
  cancel_requested_at timestamptz
);
CREATE INDEX sar_jobs_session_idx ON sar_jobs (user_id, session_id);

-- migrate:down
DROP TABLE sar_jobs;

-- A running search seen from every server (issue 18, docs/scaling.md): the process running it
-- writes its progress with each heartbeat, so another server answers the progress call; a cancel
-- sent to another server is recorded here and the running process aborts at its next heartbeat.
ALTER TABLE search_sessions
  ADD COLUMN run_progress        jsonb,
  ADD COLUMN cancel_requested_at timestamptz;

-- migrate:down
ALTER TABLE search_sessions DROP COLUMN cancel_requested_at, DROP COLUMN run_progress;

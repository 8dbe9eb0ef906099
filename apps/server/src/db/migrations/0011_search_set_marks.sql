-- Crash consistency of search sessions (docs/results.md "Sessions after a crash").
--
-- The id sets (0003) and the rows derived from them (0008) are UNLOGGED: a PostgreSQL crash
-- recovery empties them, and so does PGlite when it reopens a data directory after an unclean stop,
-- while search_sessions (logged) still says `ready`. A mark per set is written in the same
-- transaction as the sets and is UNLOGGED too, so it survives exactly when they do: a ready session
-- without its mark has lost its sets and is re-run from its stored criteria before anything reads them.
CREATE UNLOGGED TABLE search_set_marks (
  set_id        bigint PRIMARY KEY,
  criteria_hash text NOT NULL,
  written_at    timestamptz NOT NULL DEFAULT now()
);

-- Who is running a session's search: `host:pid:instance` of the API process, and when it last said
-- so. A `running` session whose process is gone (its pid is not alive on this host, or no heartbeat
-- for a while, or on PGlite any other instance: one process per data directory) is re-run on demand.
-- `run_recovery` marks a run that rebuilds lost sets: results calls wait for it instead of 409.
ALTER TABLE search_sessions
  ADD COLUMN run_owner        text,
  ADD COLUMN run_heartbeat_at timestamptz,
  ADD COLUMN run_recovery     boolean NOT NULL DEFAULT false;

-- Sessions that were ready before this migration have no mark yet. Mark those whose sets are
-- still there (a search with any rows has structures; an empty one has nothing to lose); a server
-- starting after a crash runs this on emptied sets, and those sessions are left to be re-run.
INSERT INTO search_set_marks (set_id, criteria_hash)
  SELECT s.set_id, s.criteria_hash FROM search_sessions s
  WHERE s.status = 'ready' AND s.criteria_hash IS NOT NULL
    AND (EXISTS (SELECT 1 FROM search_structures ss WHERE ss.set_id = s.set_id) OR (s.counts->>'stridscount')::int = 0);

-- migrate:down
ALTER TABLE search_sessions DROP COLUMN run_owner, DROP COLUMN run_heartbeat_at, DROP COLUMN run_recovery;
DROP TABLE search_set_marks;

-- The SAR view's data of a search session (issue 15, docs/sar.md): the rows a user put into it
-- with `api/results/setSarData`, one SAR set per search set (the next setSarData replaces it).
-- Derived data like the sets it was taken from: UNLOGGED, keyed by the session's set_id, and
-- dropped with those sets (clearSets at logout, expiry, re-run) — a crash that empties the sets
-- empties these too, and the SAR view then asks to be opened again from the results.
CREATE UNLOGGED TABLE sar_sets (
  set_id      bigint PRIMARY KEY,
  session_id  uuid NOT NULL,
  tab         text NOT NULL CHECK (tab IN ('structuretab', 'activitiestab')),
  compounds   integer NOT NULL,
  activities  integer NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- The structures of a SAR set (from the Structures tab a structure may have no activity).
CREATE UNLOGGED TABLE sar_set_structures (
  set_id  bigint NOT NULL,
  str_id  bigint NOT NULL,
  PRIMARY KEY (set_id, str_id)
);

-- Its activities, with the two columns every SAR query groups or filters by.
CREATE UNLOGGED TABLE sar_set_activities (
  set_id     bigint NOT NULL,
  act_id     bigint NOT NULL,
  str_id     bigint NOT NULL,
  target_id  bigint,
  PRIMARY KEY (set_id, act_id)
);
CREATE INDEX sar_set_activities_target_idx ON sar_set_activities (set_id, target_id);

-- A SAR table exported through the export jobs (docs/exports.md "SAR tables"): its rows are
-- computed when the export starts and kept with the job (`payload`: columns and rows, at most
-- SAR_MAX_COMPOUNDS), so any API process can write the file, as for the results' exports.
ALTER TABLE export_jobs
  ADD COLUMN source  text NOT NULL DEFAULT 'results' CHECK (source IN ('results', 'sar')),
  ADD COLUMN payload jsonb;

-- migrate:down
ALTER TABLE export_jobs DROP COLUMN source, DROP COLUMN payload;
DROP TABLE sar_set_activities;
DROP TABLE sar_set_structures;
DROP TABLE sar_sets;

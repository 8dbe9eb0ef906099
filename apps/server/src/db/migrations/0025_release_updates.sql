-- Release updates (issue 17, docs/data-model.md "Loads and release updates").
-- kb_retired_rows: rows of an earlier ChEMBL load that a newer release no longer has. They are
-- MOVED here (the whole row as JSON) and deleted from the live table, so every search, count, tab,
-- chart and export leaves them out with no change to the search code. A later release that brings
-- the key back restores the row with its old id (saved searches keep pointing at it).
CREATE TABLE kb_retired_rows (
  table_name       text NOT NULL,
  source_key       text NOT NULL,
  row              jsonb NOT NULL,
  retired_in_load  bigint REFERENCES kb_loads(load_id) ON DELETE SET NULL,
  retired_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (table_name, source_key)
);
CREATE INDEX kb_retired_rows_load_idx ON kb_retired_rows (retired_in_load);

-- The source keys an import run has met, per job and entity (keys only, one INSERT per batch):
-- what the retire step compares against, set-based. Emptied when the job completes. UNLOGGED: it
-- is rebuilt by re-running the import, so it needs no WAL.
CREATE UNLOGGED TABLE kb_import_seen (
  job     text NOT NULL,
  entity  text NOT NULL,
  key     bigint NOT NULL,
  PRIMARY KEY (job, entity, key)
);

-- migrate:down
DROP TABLE kb_import_seen;
DROP TABLE kb_retired_rows;

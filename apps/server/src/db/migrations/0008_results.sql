-- Results workspace (issue 6; docs/results.md). A session keeps the chart filters applied to each
-- of its tabs (so tabs, charts, selections and exports of one search read the same rows) and the
-- highest structure id at the time it ran (strIdNewlyAddedStatus: data added since).
ALTER TABLE search_sessions
  ADD COLUMN filters        jsonb NOT NULL DEFAULT '{}',
  ADD COLUMN kb_max_str_id  bigint;

-- Similarity of a tab's rows to a "sort by similarity" SMILES: computed once per session, tab and
-- query, then read by every page of that sort. Derived data like the sets: UNLOGGED, dropped with them.
CREATE UNLOGGED TABLE result_similarity (
  set_id     bigint NOT NULL,
  query_key  text NOT NULL,
  id         bigint NOT NULL,
  similarity real NOT NULL,
  PRIMARY KEY (set_id, query_key, id)
);

-- The rows of a tab that pass its filters, materialised when the filters are applied: pages, row
-- counts, charts and selections of a filtered tab then read one indexed set instead of re-evaluating
-- every filter (a plan the optimiser misjudges on sets it has no statistics for).
CREATE UNLOGGED TABLE result_filtered (
  set_id  bigint NOT NULL,
  tab     text NOT NULL,
  id      bigint NOT NULL,
  PRIMARY KEY (set_id, tab, id)
);

-- Activities of each assay / reference within the search, counted while the sets are built (the
-- Assay and Documents tabs show and sort by them; counting per page row reached into 26 M activities).
ALTER TABLE search_assays ADD COLUMN activities integer;
ALTER TABLE search_references ADD COLUMN activities integer;

-- A reference's compound records (reference leaflet, bibliography rows, documents of selected structures).
CREATE INDEX compounds_ref_idx ON compounds (ref_id);

-- migrate:down
ALTER TABLE search_assays DROP COLUMN activities;
ALTER TABLE search_references DROP COLUMN activities;
DROP INDEX compounds_ref_idx;
DROP TABLE result_filtered;
DROP TABLE result_similarity;
ALTER TABLE search_sessions DROP COLUMN filters, DROP COLUMN kb_max_str_id;

-- The rows passing a tab's filters, packed: one row per session set and tab holding every id
-- (issue 18, docs/results.md "Filters packed"). Written as one row per id, 240,000 filtered
-- activities took ≈ 0.5 s at L, nearly all of it inserting into the primary-key index, and left as
-- many dead rows behind each apply or reset; one array is written in ≈ 45 ms. STORAGE EXTERNAL: the
-- ids are read whole by every filtered page and chart (tab-filters.ts `filteredRestriction`), so
-- they are kept uncompressed.
DROP TABLE result_filtered;
CREATE UNLOGGED TABLE result_filtered (
  set_id  bigint NOT NULL,
  tab     text NOT NULL,
  ids     bigint[] NOT NULL,
  -- true: `ids` are the tab's rows that did NOT pass (written so when most rows pass: every
  -- filtered query hashes the array, so it is kept to at most half the tab)
  complement boolean NOT NULL DEFAULT false,
  PRIMARY KEY (set_id, tab)
);
ALTER TABLE result_filtered ALTER COLUMN ids SET STORAGE EXTERNAL;

-- migrate:down
DROP TABLE result_filtered;
CREATE UNLOGGED TABLE result_filtered (
  set_id  bigint NOT NULL,
  tab     text NOT NULL,
  id      bigint NOT NULL,
  PRIMARY KEY (set_id, tab, id)
);

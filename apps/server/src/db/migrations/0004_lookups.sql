-- Autocomplete look-ups of the search builder (spec §7 "Autocomplete"), modules/lookups.
--
-- One denormalised look-up index over every kind of item the builder autocompletes (targets,
-- structures, documents, journals, companies, indications, sources, strains, vocabularies).
-- It is derived data: `refreshLookupTerms` (modules/lookups/lookup-refresh.ts) rebuilds it from
-- the knowledge base in set-based SQL, into fresh tables that replace these in one short
-- transaction. The DDL below must stay identical to LOOKUP_DDL there (a test compares them).
--
-- * lookup_fields: which (kind, field) a field_id means; rewritten by every refresh.
-- * lookup_entries: one row per searchable value of an item (a target's name, one synonym, one
--   PDB id ...), with what the answer shows (label, detail, count) and the item's rank in its
--   kind: most data first (weight), then alphabetical.
-- * lookup_terms: the searchable tokens of each entry: the whole value (word = false) and every
--   suffix that starts a word inside it (word = true), lower case, cut to 64 characters.
--   token is COLLATE "C", so a plain btree answers "starts with" as a range scan
--   (token >= t AND token < t || U+10FFFF), the same as text_pattern_ops would, without LIKE.
--   lookup_terms_token_idx finds the candidates of a term; lookup_terms_rank_idx walks a kind's
--   items best first when a short term matches too many to rank them all (both cover the
--   columns the queries read, so they run as index-only scans).
-- * parallel_workers = 0: a look-up reads a few pages; starting parallel workers (which the
--   planner is tempted to when a short term's filter looks selective) costs 10-50 ms.
-- * lookup_units: units used with each activity type, with their activity counts.

CREATE TABLE lookup_fields (
  field_id  smallint PRIMARY KEY,
  kind_id   smallint NOT NULL,
  kind      text NOT NULL,
  field     text NOT NULL,
  words     boolean NOT NULL
);

CREATE TABLE lookup_entries (
  entry_id   bigint PRIMARY KEY,
  field_id   smallint NOT NULL,
  item_id    bigint,
  item_text  text,
  value      text NOT NULL,
  label      text NOT NULL,
  detail     text,
  weight     bigint NOT NULL,
  item_rank  integer NOT NULL
) WITH (parallel_workers = 0);

CREATE TABLE lookup_terms (
  kind_id    smallint NOT NULL,
  field_id   smallint NOT NULL,
  word       boolean NOT NULL,
  token      text COLLATE "C" NOT NULL,
  pos        integer NOT NULL,
  item_rank  integer NOT NULL,
  entry_id   bigint NOT NULL
) WITH (parallel_workers = 0);
CREATE INDEX lookup_terms_token_idx ON lookup_terms (field_id, word, token) INCLUDE (item_rank, entry_id);
CREATE INDEX lookup_terms_rank_idx ON lookup_terms (kind_id, word, item_rank, entry_id) INCLUDE (field_id, token);

CREATE TABLE lookup_units (
  activity_type  text NOT NULL,
  unit           text NOT NULL,
  activities     bigint NOT NULL,
  PRIMARY KEY (activity_type, unit)
);
CREATE INDEX lookup_units_type_idx ON lookup_units (lower(activity_type));

-- InChIKey first-block look-up ("BSYNRYMUTXBXSQ" finds every stereo/protonation variant).
CREATE INDEX structures_inchikey_block_idx ON structures (left(inchikey, 14));

-- migrate:down
DROP INDEX IF EXISTS structures_inchikey_block_idx;
DROP TABLE IF EXISTS lookup_units, lookup_terms, lookup_entries, lookup_fields;

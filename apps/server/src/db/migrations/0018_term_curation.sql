-- Curation of reported terms (issue 16, /admin/trackers): each reported term gets an id and a
-- state (open -> resolved | rejected) with the curator's note; a resolved term becomes a curated
-- synonym that the upload resolver (modules/uploads/upload-resolver.ts) reads beside the knowledge
-- base, so the next upload of the same list type identifies it. Existing reports stay open.

ALTER TABLE reported_terms ADD COLUMN term_id bigserial;
ALTER TABLE reported_terms ADD CONSTRAINT reported_terms_term_id_uq UNIQUE (term_id);
ALTER TABLE reported_terms ADD COLUMN status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved', 'rejected'));
ALTER TABLE reported_terms ADD COLUMN note text;
ALTER TABLE reported_terms ADD COLUMN curated_by integer REFERENCES users(id) ON DELETE SET NULL;
ALTER TABLE reported_terms ADD COLUMN curated_at timestamptz;
ALTER TABLE reported_terms ADD COLUMN resolved_id text;
ALTER TABLE reported_terms ADD COLUMN resolved_label text;
CREATE INDEX reported_terms_status_idx ON reported_terms (status);

-- One meaning per looked-up key: `lookup_kind` is the kind the resolver looks the term up as
-- (a list type; CAS for a CAS number in a structure-id list), `lookup_key` the normalised key
-- (upload-terms.ts checkTerm), `match_id` what a search row of that kind takes (structure,
-- target, document id … or the canonical text of a text list).
CREATE TABLE curated_synonyms (
  id          bigserial PRIMARY KEY,
  lookup_kind text NOT NULL,
  lookup_key  text NOT NULL,
  match_id    text NOT NULL,
  label       text,
  term        text NOT NULL,
  created_by  integer REFERENCES users(id) ON DELETE SET NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (lookup_kind, lookup_key)
);

-- migrate:down
DROP TABLE IF EXISTS curated_synonyms;
DROP INDEX IF EXISTS reported_terms_status_idx;
ALTER TABLE reported_terms DROP COLUMN IF EXISTS resolved_label;
ALTER TABLE reported_terms DROP COLUMN IF EXISTS resolved_id;
ALTER TABLE reported_terms DROP COLUMN IF EXISTS curated_at;
ALTER TABLE reported_terms DROP COLUMN IF EXISTS curated_by;
ALTER TABLE reported_terms DROP COLUMN IF EXISTS note;
ALTER TABLE reported_terms DROP COLUMN IF EXISTS status;
ALTER TABLE reported_terms DROP CONSTRAINT IF EXISTS reported_terms_term_id_uq;
ALTER TABLE reported_terms DROP COLUMN IF EXISTS term_id;

-- Unidentified terms of uploaded lists that users send to the curation team (spec §7
-- user/tracker/reportterms/save; shown in the admin trackers). One report per sending, its terms
-- one per row so curators can count how often a term is asked for across users.

CREATE TABLE term_reports (
  report_id   bigserial PRIMARY KEY,
  user_id     integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  list_type   text NOT NULL,              -- uploads contract UPLOAD_LIST_TYPES: strid, cas, pubmed ...
  file_name   text,
  comment     text,
  term_count  integer NOT NULL CHECK (term_count > 0),
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX term_reports_user_idx ON term_reports (user_id, created_at DESC);
CREATE INDEX term_reports_created_idx ON term_reports (created_at DESC);

CREATE TABLE reported_terms (
  report_id  bigint NOT NULL REFERENCES term_reports(report_id) ON DELETE CASCADE,
  position   integer NOT NULL,
  term       text NOT NULL,
  PRIMARY KEY (report_id, position)
);
CREATE INDEX reported_terms_term_idx ON reported_terms (lower(term) text_pattern_ops);

-- migrate:down
DROP TABLE IF EXISTS reported_terms, term_reports;

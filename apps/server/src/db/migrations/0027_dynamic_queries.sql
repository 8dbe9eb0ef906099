-- The dynamic query (issue 17; docs/dynamic-query.md). A saved query is the composed query as
-- JSON (entity, columns, filters, sort — names from the contract's whitelist, never SQL), owned
-- by one user; its name is unique per user (saving under a used name replaces it).
CREATE TABLE dynamic_queries (
  id          bigserial PRIMARY KEY,
  user_id     integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  query       jsonb NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (user_id, name)
);

-- A dynamic query's export is a third source of export job. Its rows are kept with the job
-- (`payload`) as for a SAR table; it comes from no search session, so the session and set of
-- such a job are NULL (a results or SAR job still always names them).
ALTER TABLE export_jobs DROP CONSTRAINT export_jobs_source_check;
ALTER TABLE export_jobs ADD CONSTRAINT export_jobs_source_check CHECK (source IN ('results', 'sar', 'dynamicquery'));
ALTER TABLE export_jobs ALTER COLUMN search_session_id DROP NOT NULL, ALTER COLUMN set_id DROP NOT NULL;
ALTER TABLE export_jobs ADD CONSTRAINT export_jobs_session_check CHECK (source = 'dynamicquery' OR (search_session_id IS NOT NULL AND set_id IS NOT NULL));

-- migrate:down
DELETE FROM export_jobs WHERE source = 'dynamicquery';
ALTER TABLE export_jobs DROP CONSTRAINT export_jobs_session_check;
ALTER TABLE export_jobs ALTER COLUMN search_session_id SET NOT NULL, ALTER COLUMN set_id SET NOT NULL;
ALTER TABLE export_jobs DROP CONSTRAINT export_jobs_source_check;
ALTER TABLE export_jobs ADD CONSTRAINT export_jobs_source_check CHECK (source IN ('results', 'sar'));
DROP TABLE dynamic_queries;

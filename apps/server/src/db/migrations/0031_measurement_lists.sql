-- Measurement lists (issue 36; docs/leaflets.md "Measurement list"): every activity of one
-- structure on one target, paged and sorted by value. The index reads them without touching the
-- structure's other targets (a structure can be measured 200,000 times on one target and on
-- hundreds of others) and hands them over in value order. It starts with str_id, so it also
-- serves every read by structure alone: the single-column index is dropped (one index less to
-- write on each activity loaded).
CREATE INDEX activities_str_target_idx ON activities (str_id, target_id, micro_molarvalue);
DROP INDEX activities_str_idx;

-- A measurement list's export is a fourth source of export job: its rows are kept with the job
-- (`payload`) as a dynamic query's, and it comes from no search session either.
ALTER TABLE export_jobs DROP CONSTRAINT export_jobs_source_check;
ALTER TABLE export_jobs ADD CONSTRAINT export_jobs_source_check CHECK (source IN ('results', 'sar', 'dynamicquery', 'measurements'));
ALTER TABLE export_jobs DROP CONSTRAINT export_jobs_session_check;
ALTER TABLE export_jobs ADD CONSTRAINT export_jobs_session_check CHECK (source IN ('dynamicquery', 'measurements') OR (search_session_id IS NOT NULL AND set_id IS NOT NULL));

-- migrate:down
DELETE FROM export_jobs WHERE source = 'measurements';
ALTER TABLE export_jobs DROP CONSTRAINT export_jobs_session_check;
ALTER TABLE export_jobs ADD CONSTRAINT export_jobs_session_check CHECK (source = 'dynamicquery' OR (search_session_id IS NOT NULL AND set_id IS NOT NULL));
ALTER TABLE export_jobs DROP CONSTRAINT export_jobs_source_check;
ALTER TABLE export_jobs ADD CONSTRAINT export_jobs_source_check CHECK (source IN ('results', 'sar', 'dynamicquery'));
CREATE INDEX activities_str_idx ON activities (str_id);
DROP INDEX activities_str_target_idx;

-- ChEMBL activities loaded without losses (issue 17, docs/data-model.md "Mapping from ChEMBL").
-- 1. Activities of compounds without a structure (peptides, antibodies, mixtures) are kept: their
--    str_id is NULL. They are found by every non-structure search row and counted in Activities,
--    Assays, References and compound records, never in Structures (docs/search-semantics.md).
ALTER TABLE activities ALTER COLUMN str_id DROP NOT NULL;
ALTER TABLE search_activities ALTER COLUMN str_id DROP NOT NULL;

-- 2. FALSE when ChEMBL could not standardise the activity (standard_* empty) and the published
--    type, relation, value and units fill std_activity_type / std_act_prefix / activity_value /
--    standard_uom instead. Existing rows (demo data, earlier imports) were standardised.
ALTER TABLE activities ADD COLUMN standardised boolean NOT NULL DEFAULT true;

-- 3. Ligand efficiency (ChEMBL ligand_eff): binding efficiency index, surface efficiency index,
--    ligand efficiency (kcal/mol per heavy atom) and lipophilic ligand efficiency.
ALTER TABLE activities ADD COLUMN bei double precision;
ALTER TABLE activities ADD COLUMN sei double precision;
ALTER TABLE activities ADD COLUMN le double precision;
ALTER TABLE activities ADD COLUMN lle double precision;

-- migrate:down
-- Going back drops the activities that have no structure (the older schema cannot hold them).
ALTER TABLE activities DROP COLUMN lle;
ALTER TABLE activities DROP COLUMN le;
ALTER TABLE activities DROP COLUMN sei;
ALTER TABLE activities DROP COLUMN bei;
ALTER TABLE activities DROP COLUMN standardised;
DELETE FROM search_activities WHERE str_id IS NULL;
ALTER TABLE search_activities ALTER COLUMN str_id SET NOT NULL;
DELETE FROM activities WHERE str_id IS NULL;
ALTER TABLE activities ALTER COLUMN str_id SET NOT NULL;

-- The similarity score of each activity, assay and reference of a similarity search, kept with the
-- set (issue 14): every tab of such a search shows it and sorts by it by default. Computed per row
-- in the page query, the sort needed a lookup per activity (up to 750,000 per page request), and an
-- assay's maximum over the search's activities had no (set_id, assay_id) index: quadratic.
ALTER TABLE search_activities ADD COLUMN similarity real;
ALTER TABLE search_assays ADD COLUMN similarity real;
ALTER TABLE search_references ADD COLUMN similarity real;

-- Sets built before this migration: fill in the scores from their structures.
UPDATE search_activities sa SET similarity = ss.similarity
  FROM search_structures ss
 WHERE ss.set_id = sa.set_id AND ss.str_id = sa.str_id AND ss.similarity IS NOT NULL;
UPDATE search_assays sy SET similarity = m.similarity
  FROM (SELECT sa.set_id, sa.assay_id, max(ss.similarity) AS similarity
          FROM search_activities sa JOIN search_structures ss ON ss.set_id = sa.set_id AND ss.str_id = sa.str_id
         WHERE ss.similarity IS NOT NULL AND sa.assay_id IS NOT NULL
         GROUP BY sa.set_id, sa.assay_id) m
 WHERE sy.set_id = m.set_id AND sy.assay_id = m.assay_id;
UPDATE search_references sr SET similarity = m.similarity
  FROM (SELECT sa.set_id, sa.ref_id, max(ss.similarity) AS similarity
          FROM search_activities sa JOIN search_structures ss ON ss.set_id = sa.set_id AND ss.str_id = sa.str_id
         WHERE ss.similarity IS NOT NULL AND sa.ref_id IS NOT NULL
         GROUP BY sa.set_id, sa.ref_id) m
 WHERE sr.set_id = m.set_id AND sr.ref_id = m.ref_id;

-- migrate:down
ALTER TABLE search_activities DROP COLUMN similarity;
ALTER TABLE search_assays DROP COLUMN similarity;
ALTER TABLE search_references DROP COLUMN similarity;

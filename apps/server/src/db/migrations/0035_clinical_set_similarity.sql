-- A similarity search scores every tab's rows from its own set (search-run.ts copySimilarities);
-- the Development compounds tab looked its score up in search_structures instead, which a
-- session whose sets are held in memory (issue 62) does not write. Its set table keeps the score
-- of its compound's structure as the other four do.
ALTER TABLE search_clinical_compounds ADD COLUMN similarity real;

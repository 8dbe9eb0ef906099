-- Matched-pair cuts of structures (docs/sar.md "Matched molecular pairs"): RDKit MMPA single cuts,
-- a pure function of the structure, computed on demand by the pairs call and kept here so that a
-- set's cuts are made once per structure for every user, session and server, across restarts.
-- `cuts` is JSON, [[constant, variable], …] in the engine's order; `smiles_md5` is md5 of the
-- canonical SMILES they were cut from: a row whose structure has changed no longer matches and is
-- cut again (and replaced). No foreign key (as structure_scaffolds): reads join `structures`.
CREATE TABLE structure_cuts (
  str_id     bigint PRIMARY KEY,
  smiles_md5 text NOT NULL,
  cuts       text NOT NULL
);

-- migrate:down
DROP TABLE structure_cuts;

-- Murcko scaffolds of structures (docs/sar.md "Scaffold cache"): a pure function of the structure,
-- computed by RDKit on demand (SAR view suggested cores, analyzers' scaffold chart) and kept here.
-- `smiles_md5` is md5 of the canonical SMILES the scaffold was computed from: a row whose structure
-- has changed since no longer matches and is computed again (and replaced), so a scaffold is never
-- stale. No foreign key: seeds and imports reload `structures` without knowing this table; a row
-- of a deleted structure is never read (reads join `structures`). `scaffold` null: no ring.
CREATE TABLE structure_scaffolds (
  str_id     bigint PRIMARY KEY,
  smiles_md5 text NOT NULL,
  scaffold   text
);

-- migrate:down
DROP TABLE structure_scaffolds;

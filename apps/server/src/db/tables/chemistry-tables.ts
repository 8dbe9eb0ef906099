import type { ColumnType } from 'kysely';

/** Tables of the chemistry module (migrations 0007_chemistry.sql, 0015_structure_scaffolds.sql, 0032_structure_cuts.sql). */
export interface ChemistryTables {
  structure_hits: { hit_id: number; str_id: number; similarity: number | null; created_at: ColumnType<Date, never, never> };
  /** Murcko scaffold per structure, as computed from the canonical SMILES whose md5 is kept (scaffold-cache.ts). */
  structure_scaffolds: { str_id: number; smiles_md5: string; scaffold: string | null };
  /** MMPA single cuts per structure as JSON [[constant, variable], …], cut from the canonical SMILES whose md5 is kept (cut-cache.ts). */
  structure_cuts: { str_id: number; smiles_md5: string; cuts: string };
}

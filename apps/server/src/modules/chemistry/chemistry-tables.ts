import type { ColumnType } from 'kysely';

/** Tables of the chemistry module (migration 0007_chemistry.sql). */
export interface ChemistryTables {
  structure_hits: { hit_id: number; str_id: number; similarity: number | null; created_at: ColumnType<Date, never, never> };
}

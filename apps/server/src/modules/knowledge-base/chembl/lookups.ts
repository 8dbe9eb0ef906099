import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from './step.ts';

/**
 * Batch look-ups of our ids by ChEMBL source keys. Per batch rather than whole-release maps in
 * memory: ChEMBL has millions of molecules and assays, and a resumed run needs no warm-up.
 */

export async function compoundsByMolregno(db: Db, molregnos: number[]): Promise<Map<number, { gvk_id: number; str_id: number | null }>> {
  if (molregnos.length === 0) return new Map();
  const rows = await db
    .selectFrom('compounds')
    .select(['chembl_molregno', 'gvk_id', 'str_id'])
    .where('chembl_molregno', 'in', molregnos)
    .execute();
  return new Map(rows.map((r) => [Number(r.chembl_molregno), { gvk_id: r.gvk_id, str_id: r.str_id }]));
}

export async function assaysByChemblId(
  db: Db,
  assayIds: number[],
): Promise<Map<number, { assay_id: number; ref_id: number | null; target_id: number | null }>> {
  if (assayIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('assays')
    .select(['chembl_assay_id', 'assay_id', 'ref_id', 'target_id'])
    .where('chembl_assay_id', 'in', assayIds)
    .execute();
  return new Map(rows.map((r) => [Number(r.chembl_assay_id), { assay_id: r.assay_id, ref_id: r.ref_id, target_id: r.target_id }]));
}

export async function documentsByChemblId(db: Db, docIds: number[]): Promise<Map<number, number>> {
  if (docIds.length === 0) return new Map();
  const rows = await db.selectFrom('documents').select(['chembl_doc_id', 'ref_id']).where('chembl_doc_id', 'in', docIds).execute();
  return new Map(rows.map((r) => [Number(r.chembl_doc_id), r.ref_id]));
}

export async function targetsByTid(db: Db, tids: number[]): Promise<Map<number, number>> {
  if (tids.length === 0) return new Map();
  const rows = await db.selectFrom('targets').select(['chembl_tid', 'target_id']).where('chembl_tid', 'in', tids).execute();
  return new Map(rows.map((r) => [Number(r.chembl_tid), r.target_id]));
}

export async function clinicalByMolregno(db: Db, molregnos: number[]): Promise<Map<number, number>> {
  if (molregnos.length === 0) return new Map();
  const rows = await db
    .selectFrom('clinical_compounds')
    .select(['chembl_molregno', 'clinical_compound_id'])
    .where('chembl_molregno', 'in', molregnos)
    .execute();
  return new Map(rows.map((r) => [Number(r.chembl_molregno), r.clinical_compound_id]));
}

/** md5 of the UTF-8 text: equal to PostgreSQL's md5(text), so the unique md5 index serves the look-up. */
export function md5(text: string): string {
  return crypto.createHash('md5').update(text, 'utf8').digest('hex');
}

export async function structuresByCanonical(db: Db, canonical: string[]): Promise<Map<string, number>> {
  if (canonical.length === 0) return new Map();
  const rows = await db
    .selectFrom('structures')
    .select(['str_id', 'canonical_smiles'])
    .where(sql<string>`md5(canonical_smiles)`, 'in', canonical.map(md5))
    .execute();
  return new Map(rows.map((r) => [r.canonical_smiles, r.str_id]));
}

export async function dataSourceIds(db: Db): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('data_sources')
    .select(['chembl_src_id', 'data_source_id'])
    .where('chembl_src_id', 'is not', null)
    .execute();
  return new Map(rows.map((r) => [Number(r.chembl_src_id), r.data_source_id]));
}

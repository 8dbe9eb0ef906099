import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { EvidenceCompound } from '@kb/contracts/prediction';
import type { Database } from '../../db/schema.ts';
import { byCanonicalSmiles } from '../chemistry/chem-query.ts';
import { potencyPredicate } from './active-index.ts';
import type { RankedTarget } from './rank-targets.ts';
import type { ActiveSet } from './similarity-ensemble.ts';

/**
 * What a prediction shows beside its scores, read from the knowledge base's records: the query's
 * stored structure, its own measurements, the evidence compounds' measurements and SMILES. The
 * scores themselves never come from here (they come from the in-memory actives).
 */

/** A structure's best potency measurement on one ensemble target. */
export interface MeasuredRow {
  nm: number;
  count: number;
  type: string | null;
}

export function pActivity(nm: number): number {
  return Math.round((9 - Math.log10(nm)) * 100) / 100;
}

const idArray = (ids: readonly number[]) => `{${ids.join(',')}}`;

/** The stored structure with this canonical SMILES, or null. */
export async function storedStructureId(db: Kysely<Database>, canonical: string): Promise<number | null> {
  const { rows } = await sql<{ str_id: string | number }>`${byCanonicalSmiles(canonical)} LIMIT 1`.execute(db);
  return rows[0] ? Number(rows[0].str_id) : null;
}

/** Canonical SMILES by structure id. */
export async function smilesOf(db: Kysely<Database>, strIds: readonly number[]): Promise<Map<number, string>> {
  if (strIds.length === 0) return new Map();
  const { rows } = await sql<{ str_id: string | number; smiles: string }>`SELECT str_id, canonical_smiles AS smiles FROM structures
    WHERE str_id = ANY(${idArray(strIds)}::bigint[])`.execute(db);
  return new Map(rows.map((row) => [Number(row.str_id), row.smiles]));
}

/** The potency measurements of these structures per ensemble target (best value, type, count). */
export async function readMeasured(
  db: Kysely<Database>,
  byTargetId: ReadonlyMap<number, number>,
  strIds: readonly number[],
): Promise<Map<number, Map<number, MeasuredRow>>> {
  const result = new Map<number, Map<number, MeasuredRow>>();
  if (strIds.length === 0) return result;
  const { rows } = await sql<{ str_id: string | number; target_id: string | number; um: number; n: number; type: string | null }>`
    SELECT a.str_id, a.target_id, min(a.micro_molarvalue) AS um, count(*)::int AS n,
      (array_agg(a.std_activity_type ORDER BY a.micro_molarvalue))[1] AS type
    FROM activities a WHERE a.str_id = ANY(${idArray(strIds)}::bigint[]) AND a.target_id IS NOT NULL AND ${potencyPredicate()}
    GROUP BY a.str_id, a.target_id`.execute(db);
  for (const row of rows) {
    const target = byTargetId.get(Number(row.target_id));
    if (target === undefined) continue;
    const perStructure = result.get(Number(row.str_id)) ?? new Map<number, MeasuredRow>();
    perStructure.set(target, { nm: row.um * 1000, count: row.n, type: row.type });
    result.set(Number(row.str_id), perStructure);
  }
  return result;
}

/** The evidence compounds of the listed targets: SMILES and the best measurement behind each (with its document). */
export async function readEvidence(
  db: Kysely<Database>,
  set: ActiveSet,
  top: readonly RankedTarget[],
): Promise<Map<string, EvidenceCompound[]>> {
  const wanted = top.flatMap((entry) =>
    entry.ensemble
      ? entry.ensemble.evidence.map((ref) => ({ key: entry.key, targetId: set.targets[entry.ensemble!.target]!.targetId, ref }))
      : [],
  );
  const result = new Map<string, EvidenceCompound[]>();
  if (wanted.length === 0) return result;
  const strIds = [...new Set(wanted.map((w) => w.ref.strId))];
  const targetIds = [...new Set(wanted.map((w) => w.targetId))];
  const { rows } = await sql<{
    str_id: string | number;
    target_id: string | number;
    smiles: string;
    type: string | null;
    relation: string | null;
    um: number;
    ref_id: string | number | null;
    reference: string | null;
  }>`
    SELECT DISTINCT ON (a.str_id, a.target_id) a.str_id, a.target_id, s.canonical_smiles AS smiles, a.std_activity_type AS type,
      a.std_act_prefix AS relation, a.micro_molarvalue AS um, a.ref_id,
      coalesce(d.reference, d.title, nullif(concat_ws(' ', d.journal_patent_name, d.year::text), ''), d.chembl_id) AS reference
    FROM activities a JOIN structures s ON s.str_id = a.str_id LEFT JOIN documents d ON d.ref_id = a.ref_id
    WHERE a.str_id = ANY(${idArray(strIds)}::bigint[]) AND a.target_id = ANY(${idArray(targetIds)}::bigint[]) AND ${potencyPredicate()}
    ORDER BY a.str_id, a.target_id, a.micro_molarvalue, a.act_id`.execute(db);
  const byPair = new Map(rows.map((row) => [`${Number(row.str_id)}:${Number(row.target_id)}`, row]));
  for (const { key, targetId, ref } of wanted) {
    const row = byPair.get(`${ref.strId}:${targetId}`);
    if (!row) continue;
    const list = result.get(key) ?? [];
    list.push({
      strId: ref.strId,
      smiles: row.smiles,
      similarity: ref.similarity,
      activityType: row.type,
      relation: row.relation,
      valueNm: row.um * 1000,
      pActivity: pActivity(row.um * 1000),
      refId: row.ref_id === null ? null : Number(row.ref_id),
      reference: row.reference,
    });
    result.set(key, list);
  }
  return result;
}

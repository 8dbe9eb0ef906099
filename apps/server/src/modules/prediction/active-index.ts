import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { ACTIVE_THRESHOLD_NM } from '@kb/contracts/prediction';
import { CHEMBL_ID_SYNONYM } from '@kb/contracts/targets';
import type { Database } from '../../db/schema.ts';
import { activeSetOfColumns } from './similarity-ensemble.ts';
import type { ActiveSet, EnsembleTarget } from './similarity-ensemble.ts';
import { targetFamily } from './target-family.ts';

/**
 * The actives the similarity ensemble compares with (docs/prediction.md "Actives"): per structure
 * and protein target, the best potency measured as IC50, Ki, Kd, EC50, XC50, AC50 or Potency with
 * a relation of =, < or ≤, when it is at or below the threshold of the target's family. Read from
 * the database once per knowledge-base version (the caller keys it), so it stays current after
 * every load. The benchmark (bench/prediction.ts) applies the same rule to the ChEMBL subset.
 */

export const POTENCY_TYPES = ['IC50', 'KI', 'KD', 'EC50', 'XC50', 'AC50', 'POTENCY'] as const;
export const ACTIVE_RELATIONS = ['=', '<', '<='] as const;
export const PROTEIN_TARGET_TYPES = [
  'SINGLE PROTEIN',
  'PROTEIN COMPLEX',
  'PROTEIN FAMILY',
  'CHIMERIC PROTEIN',
  'PROTEIN-PROTEIN INTERACTION',
] as const;

interface TargetRow {
  target_id: string | number;
  name: string;
  gene_symbol: string | null;
  organism: string | null;
  chembl_id: string | null;
  class_id: number | null;
}

/** Every class's names from the root down (Enzyme › Kinase › Protein Kinase). */
async function classPaths(db: Kysely<Database>): Promise<Map<number, string[]>> {
  const rows = await db.selectFrom('target_classes').select(['class_id', 'parent_id', 'name']).execute();
  const byId = new Map(rows.map((row) => [row.class_id, row]));
  const paths = new Map<number, string[]>();
  const pathOf = (id: number, depth = 0): string[] => {
    const known = paths.get(id);
    if (known) return known;
    const row = byId.get(id);
    if (!row || depth > 32) return [];
    const path = [...(row.parent_id !== null ? pathOf(row.parent_id, depth + 1) : []), row.name];
    paths.set(id, path);
    return path;
  };
  for (const row of rows) pathOf(row.class_id);
  return paths;
}

/** Protein targets with their family and threshold. */
async function readEnsembleTargets(db: Kysely<Database>): Promise<{ targets: EnsembleTarget[]; ids: number[] }> {
  const paths = await classPaths(db);
  // A ChEMBL import's targets carry their id in chembl_id; others (the demo catalog) as a synonym.
  const { rows } = await sql<TargetRow>`SELECT t.target_id, t.name, t.gene_symbol, t.organism, t.class_id,
      coalesce(t.chembl_id, (SELECT min(s.synonym) FROM target_synonyms s WHERE s.target_id = t.target_id AND s.syn_type = ${CHEMBL_ID_SYNONYM})) AS chembl_id
    FROM targets t WHERE upper(t.target_type) IN (${sql.join(PROTEIN_TARGET_TYPES.map((type) => sql`${type}`))}) ORDER BY t.target_id`.execute(
    db,
  );
  const targets = rows.map((row): EnsembleTarget => {
    const family = targetFamily(row.class_id !== null ? (paths.get(row.class_id) ?? []) : [], row.name);
    return {
      targetId: Number(row.target_id),
      chemblId: row.chembl_id,
      name: row.name,
      geneSymbol: row.gene_symbol,
      organism: row.organism,
      family,
      thresholdNm: ACTIVE_THRESHOLD_NM[family],
    };
  });
  return { targets, ids: targets.map((target) => target.targetId) };
}

/** SQL of the potency rule (types, relation, a positive value), on activities aliased `a`. */
export function potencyPredicate() {
  return sql`a.micro_molarvalue > 0
    AND upper(a.std_activity_type) IN (${sql.join(POTENCY_TYPES.map((type) => sql`${type}`))})
    AND coalesce(a.std_act_prefix, '=') IN (${sql.join(ACTIVE_RELATIONS.map((relation) => sql`${relation}`))})`;
}

/**
 * Reads the actives of every protein target (ascending str_id). Structures without a stored
 * fingerprint are still in it: the scan finds them as it reads the fingerprints, and the caller
 * drops them (`withoutStructures`). Checking here cost a look-up per active row, more than half of
 * this read (12 s against 4.8 s on 1.8 M active pairs).
 */
export async function readActiveSet(db: Kysely<Database>): Promise<ActiveSet> {
  const { targets, ids } = await readEnsembleTargets(db);
  const indexOf = new Map(ids.map((id, index) => [id, index]));
  // Thresholds travel as text arrays: PGlite and node-postgres both take them.
  const idList = `{${ids.join(',')}}`;
  const thresholds = `{${targets.map((target) => target.thresholdNm / 1000).join(',')}}`;
  // A document the pair was measured active in (the first by id), for the targets' document counts.
  const { rows } = await sql<{ str_id: string | number; target_id: string | number; um: number; ref_id: string | number | null }>`
    WITH thr AS (SELECT * FROM unnest(${idList}::bigint[], ${thresholds}::float8[]) AS t(target_id, um))
    SELECT a.str_id, a.target_id, min(a.micro_molarvalue) AS um,
      min(a.ref_id) AS ref_id
    FROM activities a JOIN thr ON thr.target_id = a.target_id
    WHERE ${potencyPredicate()} AND a.micro_molarvalue <= thr.um AND a.str_id IS NOT NULL
    GROUP BY a.str_id, a.target_id
    ORDER BY a.str_id, a.target_id`.execute(db);
  const pairStr = new Float64Array(rows.length);
  const targetOf = new Uint32Array(rows.length);
  const nmOf = new Float64Array(rows.length);
  const docOf = new Float64Array(rows.length);
  rows.forEach((row, k) => {
    pairStr[k] = Number(row.str_id);
    targetOf[k] = indexOf.get(Number(row.target_id))!;
    nmOf[k] = row.um * 1000;
    docOf[k] = row.ref_id === null ? Number.NaN : Number(row.ref_id);
  });
  return activeSetOfColumns(targets, pairStr, targetOf, nmOf, docOf);
}

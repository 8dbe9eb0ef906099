import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { storedFingerprint } from './active-scan.ts';
import { keep, readKept } from './kept-fits.ts';
import type { ActiveScan } from './active-scan.ts';
import { ENSEMBLE_THRESHOLD, RAW_TOP_K, activeIndexOf, fitBackground, rawScoresOfTops } from './similarity-ensemble.ts';
import type { ActiveSet, Background } from './similarity-ensemble.ts';

/** Random structures whose scores against every target make the background. */
export const BACKGROUND_QUERIES = 200;
const SETTING_KEY = 'prediction_background';
/** Changes when the raw score changes (v2: one evidence slot per parent), so that a stored fit is estimated again. */
const LAYOUT = 'v2';
/** Documents with more structures than this are not a query's series (documentSiblings). */
const SIBLING_DOCUMENT_MAX = 5_000;

/**
 * The similarity ensemble's background (docs/prediction.md "E-values"): how structures of the
 * knowledge base taken at random (every k-th str_id) score against every target, fitted as SEA's
 * power laws. Each is scored without the structures of its own documents: SEA's background
 * molecules come from outside the reference sets, and a structure's own series (its paper's
 * analogues) would otherwise make every background query look like a hit on its own target. Estimated once per knowledge-base version and kept in
 * app_settings, so a restart does not estimate it again.
 */
export async function estimateBackground(db: Kysely<Database>, scan: ActiveScan, set: ActiveSet, version: string): Promise<Background> {
  const stored = await readKept(db, SETTING_KEY);
  if (stored) {
    const parsed = parseStored(stored);
    if (parsed && parsed.version === `${LAYOUT}|${version}`) return parsed.background;
  }
  const sample = (await sampleStructures(db, BACKGROUND_QUERIES)).filter((row) => row.morgan !== null);
  const siblings = await documentSiblings(
    db,
    sample.map((row) => row.strId),
  );
  // Their stored fingerprints, scored in the scan workers in one message (a structure stored without one is not part of the sample).
  const found = await scan.score(
    sample.map(({ strId, morgan }) => {
      const at = activeIndexOf(set, strId);
      return { fingerprint: morgan!, exclude: [strId, ...(siblings.get(strId) ?? [])], excludeParent: at < 0 ? null : set.parentOf[at]! };
    }),
    { min: ENSEMBLE_THRESHOLD, threshold: ENSEMBLE_THRESHOLD, keep: RAW_TOP_K, nearest: 0 },
  );
  const rawScores = found.map((tops) => rawScoresOfTops(tops.targets, set));
  const background = fitBackground(rawScores, set.activesPerTarget);
  await keep(db, SETTING_KEY, JSON.stringify({ version: `${LAYOUT}|${version}`, background }));
  return background;
}

/** Every k-th structure by str_id, `count` in all, with its stored Morgan fingerprint (null: none stored). */
export async function sampleStructures(
  db: Kysely<Database>,
  count: number,
): Promise<{ strId: number; smiles: string; morgan: Uint8Array | null }[]> {
  const { rows } = await sql<{ str_id: string | number; canonical_smiles: string; fp: string | null }>`
    WITH numbered AS (SELECT str_id, canonical_smiles, morgan_fp, row_number() OVER (ORDER BY str_id) AS n, count(*) OVER () AS total FROM structures)
    SELECT str_id, canonical_smiles, encode(morgan_fp, 'base64') AS fp FROM numbered WHERE (n - 1) % greatest(1, total / ${count}) = 0 ORDER BY str_id LIMIT ${count}`.execute(
    db,
  );
  return rows.map((row) => ({ strId: Number(row.str_id), smiles: row.canonical_smiles, morgan: storedFingerprint(row.fp) }));
}

/**
 * Per structure, the structures measured in the same documents — documents of at most
 * SIBLING_DOCUMENT_MAX structures: a screening deposition of 100,000 compounds is no series, and
 * would make this read unbounded.
 */
export async function documentSiblings(db: Kysely<Database>, strIds: readonly number[]): Promise<Map<number, Set<number>>> {
  const result = new Map<number, Set<number>>();
  if (strIds.length === 0) return result;
  const { rows } = await sql<{ q: string | number; s: string | number }>`
    WITH docs AS (SELECT DISTINCT str_id, ref_id FROM activities WHERE str_id = ANY(${`{${strIds.join(',')}}`}::bigint[]) AND ref_id IS NOT NULL),
    small AS (SELECT a.ref_id FROM activities a WHERE a.ref_id IN (SELECT ref_id FROM docs) GROUP BY a.ref_id HAVING count(DISTINCT a.str_id) <= ${SIBLING_DOCUMENT_MAX})
    SELECT DISTINCT docs.str_id AS q, a.str_id AS s FROM docs JOIN small ON small.ref_id = docs.ref_id JOIN activities a ON a.ref_id = docs.ref_id`.execute(
    db,
  );
  for (const row of rows) {
    const set = result.get(Number(row.q)) ?? new Set<number>();
    set.add(Number(row.s));
    result.set(Number(row.q), set);
  }
  return result;
}

function parseStored(value: string): { version: string; background: Background } | null {
  try {
    const parsed = JSON.parse(value) as { version?: unknown; background?: Partial<Background> };
    const b = parsed.background;
    const fields = ['meanScale', 'meanExponent', 'sdScale', 'sdExponent', 'queries'] as const;
    if (typeof parsed.version !== 'string' || !b || fields.some((field) => typeof b[field] !== 'number' || !Number.isFinite(b[field])))
      return null;
    return {
      version: parsed.version,
      background: {
        meanScale: b.meanScale!,
        meanExponent: b.meanExponent!,
        sdScale: b.sdScale!,
        sdExponent: b.sdExponent!,
        queries: b.queries!,
      },
    };
  } catch {
    return null;
  }
}

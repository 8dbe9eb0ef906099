import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { LookupResult } from '@kb/contracts/lookups';
import type { Database } from '../../db/schema.ts';
import { resolveTargetTerms } from '../targets/target-resolver.ts';
import type { Tier } from './lookup-queries.ts';

/**
 * Target families (the classification tree `target_classes`) offered by the target look-ups beside
 * targets: "Kinase — family, 13 targets". Picked, a family is a term by class id: the targets of the
 * family and of everything under it, counted by the resolver the search uses.
 */

/** Families offered per look-up, at most. */
const FAMILY_SUGGESTIONS = 5;
/** Look-up items of families carry this id prefix (`family:12`); target items have numeric ids. */
const FAMILY_ID_PREFIX = 'family:';

interface FamilyRow {
  class_id: number;
  name: string;
  path: string | null;
}

/** Where words start: a letter or digit after anything else (the look-up index's rule). */
function wordStarts(text: string): number[] {
  return [...text.matchAll(/(?<![\p{L}\p{N}])[\p{L}\p{N}]/gu)].map((m) => m.index);
}

function tierOf(name: string, term: string): Tier | null {
  const v = name.toLowerCase();
  if (v === term) return 0;
  if (v.startsWith(term)) return 1;
  return wordStarts(v).some((p) => p > 0 && v.startsWith(term, p)) ? 2 : null;
}

/** Families whose name is, starts with, or has a word starting with `term`; each with its tier. */
export async function familySuggestions(
  db: Kysely<Database>,
  term: string,
  limit = FAMILY_SUGGESTIONS,
): Promise<{ tier: Tier; item: LookupResult }[]> {
  const t = term.trim().toLowerCase();
  if (!t) return [];
  const { rows } = await sql<FamilyRow>`WITH RECURSIVE found AS (
      SELECT class_id, name, parent_id FROM target_classes WHERE strpos(lower(name), ${t}) > 0
      -- The best tiers first (equal, then prefix), so the cut never drops "Kinase" for "kinase".
      ORDER BY lower(name) = ${t} DESC, starts_with(lower(name), ${t}) DESC, length(name), class_id LIMIT 200),
    up(class_id, ancestor, depth) AS (
      SELECT class_id, parent_id, 1 FROM found WHERE parent_id IS NOT NULL
      UNION ALL SELECT up.class_id, c.parent_id, up.depth + 1 FROM up JOIN target_classes c ON c.class_id = up.ancestor WHERE c.parent_id IS NOT NULL AND up.depth < 20)
    SELECT f.class_id, f.name,
      (SELECT string_agg(c.name, ' › ' ORDER BY up.depth DESC) FROM up JOIN target_classes c ON c.class_id = up.ancestor WHERE up.class_id = f.class_id) AS path
    FROM found f`.execute(db);
  const matched = rows.flatMap((row) => {
    const tier = tierOf(row.name, t);
    return tier === null ? [] : [{ ...row, class_id: Number(row.class_id), tier }];
  });
  if (matched.length === 0) return [];
  const resolved = await resolveTargetTerms(
    db,
    matched.map((m) => ({ label: m.name, targetCategories: ['name'], classIds: [m.class_id] })),
  );
  return matched
    .map((m, i) => ({ ...m, targets: resolved[i]!.ids.length }))
    .filter((m) => m.targets > 0)
    .sort((a, b) => a.tier - b.tier || b.targets - a.targets || a.name.localeCompare(b.name))
    .slice(0, limit)
    .map((m) => ({
      tier: m.tier,
      item: {
        id: `${FAMILY_ID_PREFIX}${m.class_id}`,
        label: m.name,
        detail: `Family · ${m.targets.toLocaleString('en-US')} target${m.targets === 1 ? '' : 's'}${m.path ? ` · ${m.path}` : ''}`,
        matchedOn: 'family',
        count: null,
      },
    }));
}

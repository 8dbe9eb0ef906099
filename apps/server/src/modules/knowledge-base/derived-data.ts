import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { refreshLookupTerms } from '../lookups/lookup-refresh.ts';
import { refreshTreeCounts } from '../trees/tree-refresh.ts';

/**
 * Rebuilds what is derived from the knowledge base for fast searching — the autocomplete term
 * table and the tree-node counts — after a seed or an import. Both are set-based and idempotent;
 * the old versions keep answering while they run.
 */
export async function refreshDerivedData(db: Kysely<Database>, log: (message: string) => void = () => {}): Promise<void> {
  // Fresh planner statistics first: after a bulk load they are missing, and the set-based
  // rebuilds below chose plans that ran 100x slower without them (half-L database, 12+ min).
  let started = performance.now();
  await sql`ANALYZE`.execute(db);
  log(`Statistics refreshed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  started = performance.now();
  await refreshLookupTerms(db);
  log(`Autocomplete terms rebuilt in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  started = performance.now();
  await refreshTreeCounts(db);
  log(`Tree counts rebuilt in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

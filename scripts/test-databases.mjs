// Which databases the unit and API tests run on: one rule for vitest.config.ts (its projects),
// scripts/test.mjs (its phases) and the test harness (`DATABASES`). docs/testing.md.

/**
 * `TEST_DATABASES=pglite,postgres` names them (as Kysely's own tests filter their dialects); by
 * default embedded PGlite, and the PostgreSQL server too when TEST_DATABASE_URL is set.
 * @param {Record<string, string | undefined>} env
 * @returns {('pglite' | 'postgres')[]}
 */
export function chosenDatabases(env) {
  const named = (env.TEST_DATABASES ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const serverUrl = env.TEST_DATABASE_URL?.trim() ?? '';
  if (named.length === 0) return serverUrl ? ['pglite', 'postgres'] : ['pglite'];
  const unknown = named.filter((name) => name !== 'pglite' && name !== 'postgres');
  if (unknown.length > 0) throw new Error(`TEST_DATABASES names ${unknown.join(', ')}: the choices are pglite and postgres.`);
  if (named.includes('postgres') && !serverUrl) throw new Error('TEST_DATABASES names postgres but TEST_DATABASE_URL is not set.');
  return /** @type {('pglite' | 'postgres')[]} */ ([...new Set(named)]);
}

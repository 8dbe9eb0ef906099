/** See test-databases.mjs. */
export function chosenDatabases(env: Record<string, string | undefined>): ('pglite' | 'postgres')[];

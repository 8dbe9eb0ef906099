import pg from 'pg';

/** Share of samples (0–1) in which a lane had 0, 1, 2, … connections busy. */
export type LaneOccupancy = Record<string, number[]>;

/**
 * Samples the server's connections every `everyMs` by lane (`pg_stat_activity.application_name`,
 * db/lane-pool.ts) and counts how many are busy (active or idle in transaction): a lane that is
 * full in many samples is where calls wait for a connection. Only client backends count: a
 * statement's parallel workers carry its connection's name too. On its own connection, outside
 * the server's lanes.
 */
export async function sampleLanes(databaseUrl: string, everyMs = 500): Promise<{ stop: () => Promise<LaneOccupancy> }> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'kb-bench-sampler' });
  await client.connect();
  const counts = new Map<string, number[]>();
  let samples = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const { rows } = await client.query<{ lane: string; busy: number }>(
        `SELECT application_name AS lane, count(*) FILTER (WHERE state IN ('active', 'idle in transaction'))::int AS busy
           FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend'
            AND application_name LIKE 'kb-%' AND application_name <> 'kb-bench-sampler'
          GROUP BY 1`,
      );
      samples += 1;
      for (const { lane, busy } of rows) {
        const histogram = counts.get(lane) ?? [];
        histogram[busy] = (histogram[busy] ?? 0) + 1;
        counts.set(lane, histogram);
      }
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      await client.end();
      // A lane absent from a sample had no connection open: it counts as 0 busy.
      return Object.fromEntries(
        [...counts].sort().map(([lane, histogram]) => {
          const seen = histogram.reduce((a, b) => a + (b ?? 0), 0);
          const shares = Array.from(histogram, (n) => Number(((n ?? 0) / samples).toFixed(3)));
          shares[0] = Number(((samples - seen + (histogram[0] ?? 0)) / samples).toFixed(3));
          return [lane, shares];
        }),
      );
    },
  };
}

// `npm run bench -- seed [--size S|M] [--database-url ...]`: seeds into a fresh database and
// reports structures/activities per second. Embedded PGlite in memory unless a URL is given.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../apps/server/src/db/database.ts';
import { migrateToLatest } from '../apps/server/src/db/migrate.ts';
import { seedDemoKnowledgeBase } from '../apps/server/src/modules/knowledge-base/demo/demo-seed.ts';
import type { DemoSize } from '../apps/server/src/modules/knowledge-base/demo/demo-seed.ts';

// `npm run bench -- seed -- --size S` hands this script a literal `--` first: drop it.
const args = process.argv.slice(2).filter((a) => a !== '--');
const { values } = parseArgs({ args, options: { size: { type: 'string', default: 'S' }, 'database-url': { type: 'string' } } });
const size = (values.size ?? 'S').toUpperCase() as DemoSize;
const handle = await openDatabase({ url: values['database-url'] });
await migrateToLatest(handle);
const summary = await seedDemoKnowledgeBase(handle, { size });
await handle.close();
const result = {
  bench: 'seed',
  size,
  database: handle.kind,
  seconds: Number(summary.seconds.toFixed(1)),
  ...summary.counts,
  structuresPerSecond: Math.round(summary.counts.structures / summary.seconds),
  activitiesPerSecond: Math.round(summary.counts.activities / summary.seconds),
};
console.log(
  `seed ${size} on ${handle.kind}: ${result.seconds} s, ${result.structuresPerSecond} structures/s, ${result.activitiesPerSecond} activities/s`,
);
const dir = path.join(import.meta.dirname, 'results');
fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(path.join(dir, `seed-${Date.now()}.json`), JSON.stringify(result, null, 2));

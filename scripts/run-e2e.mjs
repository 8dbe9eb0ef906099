// `npm run test:e2e`: builds the web app when needed, then runs the browser tests (e2e/*.spec.ts)
// with vitest against a real server and the system Chromium.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildWebIfNeeded } from './web-build.mjs';

const root = path.resolve(import.meta.dirname, '..');
const CHROMIUM = '/usr/bin/chromium';

if (!fs.existsSync(CHROMIUM)) {
  console.error(
    `The browser tests need Chromium at ${CHROMIUM}, which is missing.\n` +
      'Install it with `apt-get install -y chromium` (the CI script .ci/run does this).',
  );
  process.exit(1);
}

try {
  buildWebIfNeeded();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

const result = spawnSync('npx', ['vitest', 'run', '--config', 'e2e/vitest.config.ts', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
if (result.error) {
  console.error(`Could not start vitest: ${result.error.message}`);
  process.exit(1);
}
process.exit(result.status ?? 1);

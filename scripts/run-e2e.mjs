// `npm run test:e2e`: builds the web app when needed, then runs the browser tests (e2e/*.spec.ts)
// with vitest against a real server and the system Chromium.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ensureBrowser } from './ensure-browser.mjs';
import { buildWebIfNeeded } from './web-build.mjs';

const root = path.resolve(import.meta.dirname, '..');
let browser;
try {
  browser = ensureBrowser();
  buildWebIfNeeded();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

const result = spawnSync('npx', ['vitest', 'run', '--config', 'e2e/vitest.config.ts', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  // The browser the tests launch is the one found (or installed) above.
  env: { ...process.env, CHROMIUM_PATH: browser },
});
if (result.error) {
  console.error(`Could not start vitest: ${result.error.message}`);
  process.exit(1);
}
process.exit(result.status ?? 1);

// Builds the web app when its output is missing or older than its sources (npm start, e2e tests).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const distIndex = path.join(root, 'apps/web/dist/index.html');
const sources = ['apps/web/src', 'apps/web/index.html', 'apps/web/vite.config.ts', 'apps/web/package.json', 'packages/contracts/src'];

function newestMtime(target) {
  const full = path.join(root, target);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(full, { withFileTypes: true })) {
    newest = Math.max(newest, newestMtime(path.join(target, entry.name)));
  }
  return newest;
}

export function webBuildIsCurrent() {
  if (!fs.existsSync(distIndex)) return false;
  const built = fs.statSync(distIndex).mtimeMs;
  return sources.every((s) => newestMtime(s) <= built);
}

export function buildWebIfNeeded() {
  if (webBuildIsCurrent()) return;
  console.log('Building the web app (first start or sources changed)...');
  const result = spawnSync('npm', ['run', 'build', '-w', '@kb/web'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('The web build failed; see the output above.');
}

if (import.meta.url === `file://${process.argv[1]}`) buildWebIfNeeded();

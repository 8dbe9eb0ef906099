// `npm run bench -- <name> [args]`: runs bench/<name>.ts, which prints one line of figures and
// writes its JSON to bench/results/<name>-<timestamp>.json.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const [name, ...args] = process.argv.slice(2);
const available = fs.existsSync(path.join(root, 'bench'))
  ? fs
      .readdirSync(path.join(root, 'bench'))
      .filter((f) => f.endsWith('.ts'))
      .map((f) => f.replace(/\.ts$/, ''))
  : [];
if (!name || !available.includes(name)) {
  console.error(`Usage: npm run bench -- <name>. Available: ${available.join(', ') || '(none yet)'}`);
  process.exit(2);
}
const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'bench', `${name}.ts`), ...args], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(result.status ?? 1);

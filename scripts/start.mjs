// `npm start`: build the web app if needed, then run the server (migrations and first-start seeding
// happen inside it). The server runs TypeScript directly through tsx: no separate compile step.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { buildWebIfNeeded } from './web-build.mjs';

const root = path.resolve(import.meta.dirname, '..');
// `npm start` runs on the project's Node (node_modules/.bin first on PATH); started otherwise, say so.
if (Number(process.versions.node.split('.')[0]) < 24) {
  console.warn(
    `Warning: running on Node ${process.version}, which is out of support. Start with \`npm start\` after \`npm install\` to use the project's Node 24.`,
  );
}
buildWebIfNeeded();
const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

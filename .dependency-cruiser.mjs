// Module boundaries (docs/architecture.md "Module boundaries"), checked by `npm run lint`:
//   npx depcruise --config .dependency-cruiser.mjs apps packages
// The rules are written against paths relative to the directory depcruise runs in, so the same
// file checks the repository and the small fixtures of scripts/module-boundaries.test.mjs.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.dirname(fileURLToPath(import.meta.url));

const MODULES = 'apps/server/src/modules';

/**
 * Which server module may import which (production code; tests may set up data through any
 * module). The arrows point one way: the map must stay acyclic, which is checked below, so a
 * cycle between modules cannot be added by widening it.
 */
export const MODULE_DEPENDENCIES = {
  admin: ['audit', 'auth', 'credits', 'sessions', 'uploads'],
  alerts: ['auth', 'knowledge-base', 'search'],
  analyzers: ['chemistry', 'results', 'sar'],
  audit: [],
  auth: ['audit', 'sessions', 'settings'],
  charts: ['knowledge-base', 'results'],
  chemistry: [],
  credits: ['audit'],
  dashboard: [],
  datasets: [],
  'dynamic-query': ['export'],
  export: ['credits', 'datasets', 'results', 'settings'],
  health: [],
  'knowledge-base': ['audit', 'chemistry', 'lookups', 'trees'],
  // A measurement list's export goes through the export jobs and credits (docs/exports.md).
  leaflets: ['export'],
  lookups: ['targets'],
  // Target prediction: neighbours from the structure index, the knowledge base's version.
  prediction: ['chemistry', 'knowledge-base'],
  results: ['chemistry', 'knowledge-base', 'search'],
  sar: ['chemistry', 'export', 'results'],
  search: ['chemistry', 'knowledge-base', 'targets', 'trees'],
  sessions: ['search'],
  settings: [],
  superadmin: ['audit', 'auth', 'chemistry', 'lookups', 'sessions', 'settings', 'trees'],
  targets: [],
  trackers: ['audit', 'uploads'],
  trees: [],
  uploads: ['targets'],
  usage: [],
  // Issue 59: collections, saved result sets, history and sharing; a collection's compounds come from results tabs.
  workspace: ['audit', 'chemistry', 'knowledge-base', 'results'],
  // The compound × endpoint sheet: its compounds from a source (workspace), values as the SAR view's pActivity, exports charged,
  // measurements read from the search's columns in memory when they are current.
  sheet: ['export', 'results', 'sar', 'search', 'workspace'],
};

/**
 * The files of a module other modules may import: its public surface. Everything else is the
 * module's own business. A module another module depends on must name at least one.
 */
export const PUBLIC_FILES = {
  audit: ['audit-log.ts'],
  auth: ['auth-service.ts', 'mailer.ts'],
  credits: ['credit-ledger.ts'],
  chemistry: ['chem-engine.ts', 'chem-query.ts', 'property-predicate.ts', 'fingerprint.mjs', 'scaffold-cache.ts', 'cut-cache.ts'],
  datasets: ['dataset-service.ts'],
  export: ['export-columns.ts', 'export-formats.ts', 'export-jobs.ts', 'export-service.ts'],
  'knowledge-base': ['kb-dictionaries.ts', 'kb-loads.ts'],
  lookups: ['lookup-refresh.ts'],
  results: [
    'chart-dimensions.ts',
    'result-sessions.ts',
    'results-service.ts',
    'row-values.ts',
    'set-source.ts',
    'tab-columns.ts',
    'tab-filters.ts',
    'tab-model.ts',
  ],
  sar: ['analysis/pactivity.ts'],
  search: ['search-service.ts', 'session-sets.ts'],
  sessions: ['session-repository.ts'],
  settings: ['app-settings.ts'],
  targets: ['target-resolver.ts', 'target-text.ts'],
  trees: ['tree-match.ts', 'tree-refresh.ts'],
  uploads: ['term-curation.ts', 'upload-file-parser.ts'],
  workspace: ['compound-source.ts', 'workspace-access.ts'],
};

/**
 * Test code (test files, `*.test-support.ts` beside the code, apps/server/test/ with the scripts run
 * by hand that start a test database): may reach across modules (fixtures, seeding); production
 * code never imports it.
 */
const TEST_FILES = '(\\.test\\.ts$|\\.test-support\\.ts$|^apps/server/test/)';

const WEB = 'apps/web/src';

/**
 * The web app's feature folders in layers, lowest first (docs/architecture.md "The web app's
 * layers"). A feature imports only features of lower layers, never one of its own layer nor above:
 * where a lower feature shows something of a higher one (search's structure editor offers target
 * prediction; a results tab offers prediction of its selection and an activity's measurement list),
 * it declares a slot and the page that mounts it hands the component in (apps/web/src/pages/).
 */
export const WEB_FEATURE_LAYERS = [
  ['chemistry', 'errors', 'info'],
  ['auth'],
  ['alerts'],
  ['search'],
  ['results'],
  ['export'],
  ['prediction'],
  ['leaflets'],
  ['workspace'],
  ['analysis', 'dynamic-query'],
  ['admin', 'dashboard'],
];

/**
 * The app shell (apps/web/src/shell/ and main.tsx): routing, the route → page table, layouts and the
 * session's timers. It mounts pages and features; apps/web/src/app/ (api client, stores, formats,
 * ui, grid and chart set-up) is the base every feature builds on, and imports no feature.
 */
const WEB_SHELL = `^${WEB}/(main\\.tsx$|shell/)`;

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');

function assertAcyclic(graph) {
  const state = new Map();
  const visit = (node, trail) => {
    if (state.get(node) === 'done') return;
    if (state.get(node) === 'open')
      throw new Error(`.dependency-cruiser.mjs: MODULE_DEPENDENCIES has a cycle: ${[...trail, node].join(' -> ')}`);
    state.set(node, 'open');
    for (const next of graph[node] ?? []) visit(next, [...trail, node]);
    state.set(node, 'done');
  };
  for (const node of Object.keys(graph)) visit(node, []);
}

function assertComplete() {
  // A new module folder must be declared (with its allowed dependencies) before it passes lint.
  const folder = path.join(ROOT, MODULES);
  if (!fs.existsSync(folder)) return;
  const missing = fs
    .readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !(entry.name in MODULE_DEPENDENCIES))
    .map((entry) => entry.name);
  if (missing.length) throw new Error(`.dependency-cruiser.mjs: declare these modules in MODULE_DEPENDENCIES: ${missing.join(', ')}`);
  for (const [name, deps] of Object.entries(MODULE_DEPENDENCIES)) {
    for (const dep of deps) {
      if (!PUBLIC_FILES[dep]) throw new Error(`.dependency-cruiser.mjs: ${name} depends on ${dep}, which declares no PUBLIC_FILES`);
    }
  }
}

function assertWebComplete() {
  // A new feature folder must be given its layer before it passes lint.
  const folder = path.join(ROOT, WEB, 'features');
  if (!fs.existsSync(folder)) return;
  const layered = new Set(WEB_FEATURE_LAYERS.flat());
  const missing = fs
    .readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !layered.has(entry.name))
    .map((entry) => entry.name);
  if (missing.length)
    throw new Error(`.dependency-cruiser.mjs: give these web features a layer in WEB_FEATURE_LAYERS: ${missing.join(', ')}`);
}

assertAcyclic(MODULE_DEPENDENCIES);
assertComplete();
assertWebComplete();

const webLayerRules = WEB_FEATURE_LAYERS.flatMap((layer, depth) => {
  const below = WEB_FEATURE_LAYERS.slice(0, depth).flat();
  return layer.map((name) => ({
    name: `web-feature-layers:${name}`,
    comment: below.length
      ? `the ${name} feature may import only features of lower layers: ${below.join(', ')} (WEB_FEATURE_LAYERS); a page hands it anything from above through a slot`
      : `the ${name} feature imports no other feature (WEB_FEATURE_LAYERS)`,
    severity: 'error',
    from: { path: `^${WEB}/features/${escape(name)}/`, pathNot: '\\.test\\.tsx?$' },
    to: { path: `^${WEB}/features/`, pathNot: `^${WEB}/features/(${[name, ...below].map(escape).join('|')})/` },
  }));
});

const moduleDirectionRules = Object.entries(MODULE_DEPENDENCIES).map(([name, deps]) => ({
  name: `module-direction:${name}`,
  comment: deps.length
    ? `${name} may import only these modules: ${deps.join(', ')} (MODULE_DEPENDENCIES)`
    : `${name} imports no other server module (MODULE_DEPENDENCIES)`,
  severity: 'error',
  from: { path: `^${MODULES}/${escape(name)}/`, pathNot: TEST_FILES },
  to: { path: `^${MODULES}/`, pathNot: `^${MODULES}/(${[name, ...deps].map(escape).join('|')})/` },
}));

const publicFileRules = Object.entries(PUBLIC_FILES).map(([name, files]) => ({
  name: `module-public-files:${name}`,
  comment: `other modules import ${name} only through ${files.join(', ')} (PUBLIC_FILES)`,
  severity: 'error',
  from: { path: `^${MODULES}/`, pathNot: [`^${MODULES}/${escape(name)}/`, TEST_FILES] },
  to: { path: `^${MODULES}/${escape(name)}/`, pathNot: `^${MODULES}/${escape(name)}/(${files.map(escape).join('|')})$` },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'files import each other in a circle: give the shared part its own file',
      severity: 'error',
      from: { path: '^(apps|packages)/' },
      to: { circular: true },
    },
    ...moduleDirectionRules,
    ...publicFileRules,
    ...webLayerRules,
    {
      name: 'web-base-not-features',
      comment: 'apps/web/src/app/ is the base features build on: it imports no feature, page or shell file',
      severity: 'error',
      from: { path: `^${WEB}/app/`, pathNot: '\\.test\\.tsx?$' },
      to: { path: [`^${WEB}/(features|pages)/`, WEB_SHELL] },
    },
    {
      name: 'web-features-not-pages',
      comment: 'pages compose features (apps/web/src/pages/) and the shell mounts pages: a feature imports neither',
      severity: 'error',
      from: { path: `^${WEB}/features/`, pathNot: '\\.test\\.tsx?$' },
      to: { path: [`^${WEB}/pages/`, WEB_SHELL] },
    },
    {
      name: 'web-pages-not-shell',
      comment: 'the shell mounts pages: a page does not import the shell',
      severity: 'error',
      from: { path: `^${WEB}/pages/`, pathNot: '\\.test\\.tsx?$' },
      to: { path: WEB_SHELL },
    },
    {
      name: 'chembl-importer-not-demo',
      comment: 'the real ChEMBL importer shares only knowledge-base/*.ts (vocabulary, counts, bulk) with the demo generator',
      severity: 'error',
      from: { path: `^${MODULES}/knowledge-base/chembl/`, pathNot: TEST_FILES },
      to: { path: `^${MODULES}/knowledge-base/demo/` },
    },
    {
      name: 'demo-not-chembl-importer',
      comment: 'the demo generator does not depend on the real importer either',
      severity: 'error',
      from: { path: `^${MODULES}/knowledge-base/demo/`, pathNot: TEST_FILES },
      to: { path: `^${MODULES}/knowledge-base/chembl/` },
    },
    {
      name: 'infrastructure-below-modules',
      comment:
        'db/, http/ and workers/ serve every module and import none (the tables of every module are described in db/tables/, beside the migrations that make them)',
      severity: 'error',
      from: { path: '^apps/server/src/(db|http|workers)/', pathNot: TEST_FILES },
      to: { path: `^${MODULES}/` },
    },
    {
      name: 'production-not-tests',
      comment: 'production code never imports test code',
      severity: 'error',
      from: { path: '^(apps|packages)/', pathNot: [TEST_FILES, '\\.test\\.tsx?$', '^e2e/'] },
      to: { path: [TEST_FILES, '\\.test\\.tsx?$'] },
    },
    {
      name: 'server-not-web',
      comment: 'the server and the web app share code only through packages/contracts',
      severity: 'error',
      from: { path: '^apps/server/' },
      to: { path: '^apps/web/' },
    },
    {
      name: 'web-not-server',
      comment: 'the server and the web app share code only through packages/contracts',
      severity: 'error',
      from: { path: '^apps/web/' },
      to: { path: '^apps/server/' },
    },
    {
      name: 'contracts-stand-alone',
      comment: 'the contract is imported by both apps and imports neither',
      severity: 'error',
      from: { path: '^packages/contracts/' },
      to: { path: '^apps/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    // Type-only imports couple modules too.
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.mjs', '.js', '.d.mts', '.d.ts'],
    },
    moduleSystems: ['es6', 'cjs'],
  },
};

// The boundary rules of .dependency-cruiser.mjs (run by `npm run lint`) fail on a violation: each
// rule is run, through the same CLI and config, over a tiny tree laid out like the repository,
// once with forbidden imports (non-zero exit, the rule named) and once with allowed ones only.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The same program `npm run lint:boundaries` runs (`depcruise`), wherever the package keeps it.
const CRUISER = path.join(ROOT, 'node_modules/dependency-cruiser');
const CLI = path.join(CRUISER, JSON.parse(fs.readFileSync(path.join(CRUISER, 'package.json'), 'utf8')).bin.depcruise);
const CONFIG = path.join(ROOT, '.dependency-cruiser.mjs');
const folders = [];

/** Writes `files` (path -> the paths it imports) under a fresh folder and returns the folder. */
function fixture(files) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'boundaries-'));
  folders.push(dir);
  for (const [file, imports] of Object.entries(files)) {
    const full = path.join(dir, file);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    const lines = imports.map(
      (target, i) => `import { x as x${i} } from '${path.relative(path.dirname(full), path.join(dir, target)).replace(/^(?!\.)/, './')}';`,
    );
    fs.writeFileSync(full, `${lines.join('\n')}\nexport const x = 1;\n`);
  }
  return dir;
}

async function cruise(dir) {
  try {
    const { stdout } = await run(process.execPath, [CLI, '--config', CONFIG, '--output-type', 'err', 'apps'], { cwd: dir });
    return { code: 0, output: stdout };
  } catch (error) {
    return { code: error.code, output: `${error.stdout}${error.stderr}` };
  }
}

const S = 'apps/server/src/modules';
const ALLOWED = {
  [`${S}/chemistry/chem-engine.ts`]: [],
  [`${S}/chemistry/rdkit-engine.ts`]: [`${S}/chemistry/chem-engine.ts`],
  [`${S}/search/search-service.ts`]: [`${S}/chemistry/chem-engine.ts`],
  [`${S}/knowledge-base/lookup-vocabulary.ts`]: [],
  [`${S}/knowledge-base/chembl/chembl-import.ts`]: [`${S}/knowledge-base/lookup-vocabulary.ts`],
  [`${S}/knowledge-base/demo/demo-seed.ts`]: [`${S}/knowledge-base/lookup-vocabulary.ts`],
  // Tests may set up data through another module's internals.
  [`${S}/knowledge-base/chembl/chembl-import.test.ts`]: [`${S}/knowledge-base/demo/demo-seed.ts`],
  'apps/web/src/features/search/search-page.ts': ['apps/web/src/app/stores/search-store.ts'],
  'apps/web/src/app/stores/search-store.ts': ['apps/web/src/app/format/count-format.ts'],
  'apps/web/src/app/format/count-format.ts': [],
  // Features import lower layers only; pages compose them; the shell mounts pages.
  'apps/web/src/features/search/rows/structure-actions.tsx': [],
  'apps/web/src/features/prediction/predict-targets-button.tsx': ['apps/web/src/features/search/rows/structure-actions.tsx'],
  'apps/web/src/pages/search-page.tsx': [
    'apps/web/src/features/search/search-page.ts',
    'apps/web/src/features/prediction/predict-targets-button.tsx',
  ],
  'apps/web/src/shell/pages.tsx': ['apps/web/src/pages/search-page.tsx'],
};

afterAll(() => {
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

describe('module boundaries (.dependency-cruiser.mjs)', () => {
  it('passes a tree whose imports all point the allowed way', async () => {
    const result = await cruise(fixture(ALLOWED));
    expect(result.output).toContain('no dependency violations found');
    expect(result.code).toBe(0);
  }, 60_000);

  it('fails, naming each rule, on forbidden imports', async () => {
    const result = await cruise(
      fixture({
        ...ALLOWED,
        // chemistry is below search: importing it back is a module cycle.
        [`${S}/chemistry/structure-lookups.ts`]: [`${S}/search/search-service.ts`],
        // search may use chemistry, but only through its public files.
        [`${S}/search/structure-query.ts`]: [`${S}/chemistry/rdkit-engine.ts`],
        [`${S}/knowledge-base/chembl/mapping.ts`]: [`${S}/knowledge-base/demo/demo-seed.ts`],
        'apps/server/src/http/auth-hook.ts': [`${S}/search/search-service.ts`],
        'apps/web/src/app/stores/results-store.ts': ['apps/web/src/features/results/tab-state.ts'],
        // Search is below prediction: the editor may not mount prediction's button itself.
        'apps/web/src/features/search/rows/structure-editor.tsx': ['apps/web/src/features/prediction/predict-targets-button.tsx'],
        // Prediction and leaflets share no layer order the other way round either.
        'apps/web/src/features/prediction/target-list.tsx': ['apps/web/src/features/leaflets/leaflet.tsx'],
        'apps/web/src/features/leaflets/leaflet.tsx': [],
        'apps/web/src/features/results/grid.tsx': ['apps/web/src/pages/search-page.tsx'],
        'apps/web/src/pages/landing-page.tsx': ['apps/web/src/shell/pages.tsx'],
        'apps/web/src/app/ui/nav.tsx': ['apps/web/src/shell/pages.tsx'],
        'apps/web/src/features/results/tab-state.ts': [],
        'apps/web/src/features/results/api.ts': [`${S}/search/search-service.ts`],
        [`${S}/trees/tree-a.ts`]: [`${S}/trees/tree-b.ts`],
        [`${S}/trees/tree-b.ts`]: [`${S}/trees/tree-a.ts`],
      }),
    );
    expect(result.code).toBeGreaterThan(0);
    for (const rule of [
      'module-direction:chemistry',
      'module-public-files:chemistry',
      'chembl-importer-not-demo',
      'infrastructure-below-modules',
      'web-base-not-features',
      'web-feature-layers:search',
      'web-feature-layers:prediction',
      'web-features-not-pages',
      'web-pages-not-shell',
      'web-not-server',
      'no-circular',
    ])
      expect(result.output, rule).toContain(`error ${rule}:`);
    // Allowed imports in the same tree are not reported.
    expect(result.output).not.toContain('module-direction:search');
    expect(result.output).not.toContain('web-feature-layers:leaflets');
  }, 60_000);
});

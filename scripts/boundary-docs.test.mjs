// docs/architecture.md shows the module boundaries lint enforces: its generated part equals what
// scripts/boundary-docs.mjs makes of .dependency-cruiser.mjs (fix: node scripts/boundary-docs.mjs --write).
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MODULE_DEPENDENCIES, WEB_FEATURE_LAYERS } from '../.dependency-cruiser.mjs';
import { DOC, END, START, floors, generated, rewrite } from './boundary-docs.mjs';

describe('docs/architecture.md module boundaries', () => {
  it('match the rules of .dependency-cruiser.mjs', () => {
    const page = fs.readFileSync(DOC, 'utf8');
    expect(page.split(START)).toHaveLength(2);
    expect(rewrite(page), 'run: node scripts/boundary-docs.mjs --write').toBe(page);
  });

  it('name every server module and web feature once, each module above everything it imports', () => {
    const text = generated();
    for (const name of Object.keys(MODULE_DEPENDENCIES)) expect(text).toContain(`| ${name} |`);
    for (const name of WEB_FEATURE_LAYERS.flat()) expect(text).toMatch(new RegExp(`\\| (\\S+, )*${name}(, \\S+)* \\|`));
    const floor = floors(MODULE_DEPENDENCIES);
    for (const [name, deps] of Object.entries(MODULE_DEPENDENCIES))
      for (const dep of deps) expect(floor.get(name)).toBeGreaterThan(floor.get(dep));
    expect(text.endsWith(END)).toBe(true);
  });
});

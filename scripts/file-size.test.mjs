// No production source file over 600 lines (issue 58): a file that grows past it holds more than
// one idea and is split by what it does. Declarative files are exempt — the contracts
// (packages/contracts/src/, types and schemas shared by web and server) and the database schema
// types — and so are tests, whose size follows their fixtures.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const MAX_LINES = 600;
const SOURCE = /\.(ts|tsx|mjs|js)$/;
const EXEMPT = [
  /^packages\/contracts\/src\//,
  /^apps\/server\/src\/db\/(kb-)?schema\.ts$/,
  /\.test\.(ts|tsx|mjs)$/,
  /\.test-support\.ts$/,
  /\.d\.(ts|mts)$/,
  /^apps\/server\/test\//,
  /^e2e\//,
];

/** Lines as `wc -l` counts them (a last line without a newline counts too). */
const lineCount = (text) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

function sourceFiles(dir) {
  const found = [];
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const relative = path.posix.join(dir, entry.name);
    // bench/results holds the benchmarks' output, not source (a module named results is source).
    if (['node_modules', 'dist'].includes(entry.name) || relative === 'bench/results') continue;
    if (entry.isDirectory()) found.push(...sourceFiles(relative));
    else if (SOURCE.test(entry.name) && !EXEMPT.some((rule) => rule.test(relative))) found.push(relative);
  }
  return found;
}

describe('source file size', () => {
  it(`keeps every production source file at ${MAX_LINES} lines or fewer`, () => {
    const files = ['apps', 'packages', 'scripts', 'bench'].flatMap(sourceFiles);
    expect(files.length).toBeGreaterThan(500);
    // Every module is scanned, one named results too (its folder was once skipped with bench/results).
    expect(files).toContain('apps/server/src/modules/results/results-service.ts');
    const over = files
      .map((file) => ({ file, lines: lineCount(fs.readFileSync(path.join(ROOT, file), 'utf8')) }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(over).toEqual([]);
  });
});

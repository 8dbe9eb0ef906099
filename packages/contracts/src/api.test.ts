import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_ENDPOINTS } from './api.ts';

const endpoints = ALL_ENDPOINTS;

describe('the API contract', () => {
  it('keeps every call under /api with a unique method and path', () => {
    const keys = endpoints.map((e) => `${e.method} ${e.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const e of endpoints) expect(e.path.startsWith('/api/')).toBe(true);
  });

  it('is fully listed in docs/api.md (regenerate with packages/contracts/scripts/api-doc.ts)', () => {
    const doc = fs.readFileSync(path.resolve(import.meta.dirname, '../../../docs/api.md'), 'utf8');
    for (const e of endpoints) expect(doc, `${e.method} ${e.path}`).toContain(`\`${e.method} ${e.path}\``);
  });
});

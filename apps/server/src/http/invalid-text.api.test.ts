import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { Endpoint } from '@kb/contracts/endpoint';
import { ALL_ENDPOINTS } from '@kb/contracts/api';
import { ROLES, demoEmailForRole } from '@kb/contracts/roles';
import type { Role } from '@kb/contracts/roles';
import type { LoginResult } from '@kb/contracts/auth';
import { DATABASES, authHeaders, startTestApp } from '../../test/harness.ts';
import type { TestApp } from '../../test/harness.ts';

/**
 * The contract-wide text rule: NUL in any text field of any call is a 400 that names the field,
 * never a database error. The fields are read off the contracts' own schemas, so a new call or
 * field is covered without editing this test.
 */

type Path = (string | number)[];
interface ZodDef {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
  options?: z.ZodType[];
  valueType?: z.ZodType;
  getter?: () => z.ZodType;
  values?: unknown[];
}
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: ZodDef } })._zod.def;

/** Paths of every string leaf of a schema (arrays as their first element, records under key `k`). */
function textPaths(schema: z.ZodType, at: Path = [], depth = 0): Path[] {
  if (depth > 8) return [];
  const def = defOf(schema);
  switch (def.type) {
    case 'string':
    case 'enum':
    case 'template_literal':
      return [at];
    case 'literal':
      return def.values?.some((v) => typeof v === 'string') ? [at] : [];
    case 'object':
      return Object.entries(def.shape ?? {}).flatMap(([key, child]) => textPaths(child, [...at, key], depth + 1));
    case 'array':
      return def.element ? textPaths(def.element, [...at, 0], depth + 1) : [];
    case 'record':
      return def.valueType ? textPaths(def.valueType, [...at, 'k'], depth + 1) : [];
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return def.innerType ? textPaths(def.innerType, at, depth + 1) : [];
    case 'pipe':
      return def.in ? textPaths(def.in, at, depth + 1) : [];
    case 'lazy':
      return def.getter ? textPaths(def.getter(), at, depth + 1) : [];
    case 'union': {
      const seen = new Set<string>();
      return (def.options ?? []).flatMap((o) => textPaths(o, at, depth + 1)).filter((p) => !seen.has(p.join('.')) && seen.add(p.join('.')));
    }
    default:
      return [];
  }
}

const BAD = 'a\u0000b';

/** An object holding BAD at `path` and nothing else (the guard runs before validation). */
function holding(path: Path): unknown {
  let value: unknown = BAD;
  for (const key of [...path].reverse()) value = typeof key === 'number' ? [value] : { [key]: value };
  return value;
}

const concreteUrl = (path: string, badParam?: string) =>
  path.replace(/:([A-Za-z_]+)/g, (_, name: string) =>
    name === badParam
      ? encodeURIComponent(BAD)
      : name === 'product'
        ? 'gostar'
        : name === 'code'
          ? 'some-code'
          : name === 'tree'
            ? 'target'
            : '1',
  );

interface Case {
  name: string;
  endpoint: Endpoint;
  where: 'body' | 'query' | 'path';
  path: Path;
}

const cases: Case[] = ALL_ENDPOINTS.flatMap((endpoint) => {
  const out: Case[] = [];
  const label = `${endpoint.method} ${endpoint.path}`;
  if (endpoint.body)
    for (const path of textPaths(endpoint.body)) out.push({ name: `${label} body.${path.join('.')}`, endpoint, where: 'body', path });
  // Query strings carry top-level fields only.
  if (endpoint.query)
    for (const path of textPaths(endpoint.query).filter((p) => p.length === 1))
      out.push({ name: `${label} query.${path.join('.')}`, endpoint, where: 'query', path });
  if (endpoint.params)
    for (const path of textPaths(endpoint.params)) out.push({ name: `${label} path.${path.join('.')}`, endpoint, where: 'path', path });
  return out;
});

describe.each(DATABASES)('NUL in any text field of any call on %s', (kind) => {
  let t: TestApp;
  const logins = new Map<Role, LoginResult>();
  beforeAll(async () => {
    t = await startTestApp(kind);
    for (const role of ROLES) logins.set(role, await t.login(demoEmailForRole(role)));
  });
  afterAll(() => t.close());

  it('covers the contracts: hundreds of text fields in bodies, queries and paths, public calls included', () => {
    expect(cases.length).toBeGreaterThan(200);
    expect(cases.some((c) => c.endpoint.access === 'public' && c.name.includes('body.username'))).toBe(true);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s → 400 naming the field', async (_name, c) => {
    const role: Role = Array.isArray(c.endpoint.access) ? (c.endpoint.access[0] as Role) : 'FULL_USER';
    const login = logins.get(role)!;
    const headers = c.endpoint.access === 'public' ? {} : authHeaders(login);
    const url = concreteUrl(c.endpoint.path, c.where === 'path' ? String(c.path[0]) : undefined);
    const query = c.where === 'query' ? `?${encodeURIComponent(String(c.path[0]))}=${encodeURIComponent(BAD)}` : '';
    const payload = c.where === 'body' ? (holding(c.path) as object) : c.endpoint.method === 'GET' ? undefined : {};
    const res = await t.call({ method: c.endpoint.method, url: url + query, headers, payload });
    expect(res.statusCode, JSON.stringify(res.data)).toBe(400);
    expect(res.data.code).toBe('VALIDATION');
    expect(String(res.data.message)).toContain('NUL');
    expect(String(res.data.message)).toContain(`${c.where}.${c.path.join('.')}`);
  });

  it('a lone surrogate is refused the same way, and well-formed Unicode passes the rule', async () => {
    const bad = await t.call({
      method: 'POST',
      url: '/api/pub/gostar/generate-token',
      payload: { username: 'x\ud800@demo.test', password: 'whatever' },
    });
    expect(bad.statusCode).toBe(400);
    expect(String(bad.data.message)).toContain('body.username');
    const good = await t.call({
      method: 'POST',
      url: '/api/pub/gostar/generate-token',
      payload: { username: 'ünïcödé😀@demo.test', password: 'whatever' },
    });
    // Past the rule: an unknown login is refused as such (spec's bad-credentials answer).
    expect(good.data.code).toBe('BAD_CREDENTIALS');
  });
});

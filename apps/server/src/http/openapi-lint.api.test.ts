import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import type { NormalizedProblem } from '@redocly/openapi-core';
import { API_GROUPS } from '@kb/contracts/api';
import { startTestApp } from '../../test/harness.ts';
import type { TestApp } from '../../test/harness.ts';
import { contractOperations, domainOf } from './openapi-document.ts';
import { OPENAPI_EXAMPLES } from './openapi-examples.ts';

/**
 * The served OpenAPI document as client generators meet it (issue 20): Redocly's recommended
 * rules (the engine of `redocly lint`, run in-process: nothing is fetched) find no error, and
 * only the warnings listed here with their reason.
 */
const ACCEPTED_WARNINGS: Record<string, string> = {
  // The product is proprietary and declares no licence; inventing one in the document would be wrong.
  'info-license': 'no licence to name',
};

type Json = Record<string, unknown>;
type Operation = { operationId?: string; tags?: string[]; security?: unknown; requestBody?: Json; responses: Json };

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

async function lint(document: unknown): Promise<NormalizedProblem[]> {
  const config = await createConfig({ extends: ['recommended'] });
  return lintFromString({ source: JSON.stringify(document, null, 2), absoluteRef: '/openapi.json', config });
}

const describeProblem = (p: NormalizedProblem) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? '?'}`;

describe('the OpenAPI document at /api/docs/json', () => {
  let t: TestApp;
  let document: Json & { paths: Record<string, Record<string, Operation>> };
  const operations = () =>
    Object.entries(document.paths).flatMap(([path, item]) =>
      METHODS.filter((m) => item[m]).map((method) => ({ path, method, operation: item[method]! })),
    );
  /** The document's operation of a contract path and method (`:name` → `{name}`). */
  const operationOf = (method: string, path: string) => document.paths[path.replace(/:([A-Za-z_]+)/g, '{$1}')]?.[method.toLowerCase()];

  beforeAll(async () => {
    t = await startTestApp('pglite', { PUBLIC_URL: 'https://kb.company.internal' });
    const answer = await t.call({ method: 'GET', url: '/api/docs/json' });
    expect(answer.statusCode).toBe(200);
    document = JSON.parse(answer.body) as typeof document;
  });
  afterAll(() => t.close());

  it('passes the recommended lint rules with no error and only the accepted warnings', async () => {
    const problems = await lint(document);
    const errors = problems.filter((p) => p.severity === 'error');
    expect(errors.map(describeProblem)).toEqual([]);
    const unexpected = problems.filter((p) => p.severity === 'warn' && !(p.ruleId in ACCEPTED_WARNINGS));
    expect(unexpected.map(describeProblem)).toEqual([]);
  });

  it('is really checked: an unresolvable $ref and a nullable without a type are errors', async () => {
    const broken = structuredClone(document);
    const count = broken.paths['/api/guidedsearch/count']!.post!;
    (count.responses['200'] as Json).content = { 'application/json': { schema: { $ref: '#/components/schemas/Missing' } } };
    ((count.requestBody!.content as Json)['application/json'] as Json).schema = {
      nullable: true,
      anyOf: [{ type: 'string' }, { type: 'number' }],
    };
    const rules = (await lint(broken)).filter((p) => p.severity === 'error').map((p) => p.ruleId);
    expect(rules).toContain('no-unresolved-refs');
    expect(rules).toContain('nullable-type-sibling');
  });

  it('names every contract call <domain>.<key>, once, under its group tag', () => {
    const ids = operations().map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [title, group] of API_GROUPS) {
      for (const [key, endpoint] of Object.entries(group)) {
        const operation = operationOf(endpoint.method, endpoint.path);
        expect(operation, `${endpoint.method} ${endpoint.path}`).toBeDefined();
        expect(operation!.operationId).toBe(`${domainOf(title)}.${key}`);
        expect(operation!.tags).toEqual([title]);
      }
    }
    expect(operations()).toHaveLength(contractOperations().size);
    expect(operationOf('POST', '/api/guidedsearch/allresultscount')!.operationId).toBe('search.allResultsCount');
    expect(operationOf('POST', '/api/export/start')!.operationId).toBe('exports.start');
    expect((document.tags as { name: string }[]).map((tag) => tag.name)).toEqual(API_GROUPS.map(([title]) => title));
  });

  it('declares both token headers and asks for one of them exactly on the non-public calls', () => {
    const schemes = (document.components as Json).securitySchemes as Json;
    expect(schemes.nodeToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(schemes.mainToken).toMatchObject({ type: 'apiKey', in: 'header', name: 'JavaAuthorization' });
    for (const { endpoint } of contractOperations().values()) {
      const operation = operationOf(endpoint.method, endpoint.path)!;
      if (endpoint.access === 'public') expect(operation.security, endpoint.path).toEqual([]);
      else expect(operation.security, endpoint.path).toEqual([{ nodeToken: [] }, { mainToken: [] }]);
    }
  });

  it('lists this server and the configured PUBLIC_URL', () => {
    expect(document.servers).toEqual([
      { url: '/', description: expect.any(String) },
      { url: 'https://kb.company.internal', description: expect.any(String) },
    ]);
  });

  it('gives the file answers a binary 200 of their content type', () => {
    for (const { endpoint } of contractOperations().values()) {
      if (!endpoint.responseType) continue;
      const ok = operationOf(endpoint.method, endpoint.path)!.responses['200'] as Json;
      expect(ok.content, endpoint.path).toEqual({ [endpoint.responseType]: { schema: { type: 'string', format: 'binary' } } });
    }
  });

  it('shows examples of the main calls that the contract itself accepts', () => {
    const byId = new Map([...contractOperations().values()].map((info) => [info.operationId, info]));
    expect(Object.keys(OPENAPI_EXAMPLES)).toEqual(
      expect.arrayContaining(['auth.generateToken', 'search.count', 'search.allResultsCount', 'results.tabRows', 'exports.start']),
    );
    for (const [operationId, examples] of Object.entries(OPENAPI_EXAMPLES)) {
      const info = byId.get(operationId);
      expect(info, `${operationId} is not an operation`).toBeDefined();
      const { endpoint } = info!;
      const operation = operationOf(endpoint.method, endpoint.path)!;
      const media = (owner: unknown) => ((owner as { content: Json }).content['application/json'] as Json).example;
      if (examples.request !== undefined) {
        expect(endpoint.body!.safeParse(examples.request).error, operationId).toBeUndefined();
        expect(media(operation.requestBody)).toEqual(examples.request);
      }
      if (examples.response !== undefined) {
        expect(endpoint.response.safeParse(examples.response).error, operationId).toBeUndefined();
        expect(media(operation.responses['200'])).toEqual(examples.response);
      }
    }
  });
});

describe('API_DOCS=off', () => {
  it('leaves the OpenAPI document and Swagger UI out (404), and the API itself as it was', async () => {
    const t = await startTestApp('pglite', { API_DOCS: 'off' });
    try {
      expect((await t.call({ method: 'GET', url: '/api/docs/json' })).statusCode).toBe(404);
      expect((await t.call({ method: 'GET', url: '/api/docs' })).statusCode).toBe(404);
      expect((await t.call({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});

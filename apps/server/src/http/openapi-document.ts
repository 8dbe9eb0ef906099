import { z } from 'zod';
import type { FastifyDynamicSwaggerOptions, SwaggerTransform } from '@fastify/swagger';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { API_GROUPS } from '@kb/contracts/api';
import type { ApiAccess, Endpoint } from '@kb/contracts/endpoint';
import { TreeNodeSchema } from '@kb/contracts/trees';
import { TreemapNodeSchema } from '@kb/contracts/analyzers';
import { OPENAPI_EXAMPLES } from './openapi-examples.ts';

/**
 * The served OpenAPI document (`/api/docs/json`) as a product for client generators (issue 20):
 * every operation named, tagged and secured from the contract that declares it, so the document
 * cannot drift from the routes. Checked by a linter in `openapi-lint.api.test.ts`.
 */

// Recursive schemas are emitted as `$ref`s: they need a component name or the `$ref` points nowhere
// (a generator stops there). Named here, where the document is built, so the contracts stay free of
// OpenAPI concerns; `add` replaces an earlier entry, so reloading this module is harmless.
z.globalRegistry.add(TreeNodeSchema, { id: 'TreeNode' });
z.globalRegistry.add(TreemapNodeSchema, { id: 'TreemapNode' });

/** The two token headers a signed-in call sends; either one identifies the session (http/auth-hook.ts). */
const SECURITY_SCHEMES = {
  nodeToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'The `nodeToken` of the login answer, sent as `Authorization: Bearer <nodeToken>`.',
  },
  mainToken: {
    type: 'apiKey',
    in: 'header',
    name: 'JavaAuthorization',
    description:
      'The `token` of the login answer, sent as `JavaAuthorization: Bearer <token>` (the `Bearer ` prefix is part of the value).',
  },
} as const;

/** Either token is enough; when both are sent they must name the same session. */
const SIGNED_IN: Array<Record<string, string[]>> = [{ nodeToken: [] }, { mainToken: [] }];

/** One line per domain (tag) for the document's reader; a group without one fails the lint test. */
const TAG_DESCRIPTIONS: Record<string, string> = {
  'Auth and session': 'Log in (both tokens), renew tokens, the session and the profile; registration and password links.',
  Dashboard: 'Sessions, logout, login history and notification settings of the caller.',
  'Search and counts': 'Guided search: counts, running a search into a search session, saved criteria.',
  Chemistry: 'Structure queries (SMILES, SMARTS, molfile, InChIKey), property ranges and depictions.',
  Autocomplete: 'Terms for the search rows: targets, compounds, documents, activity types and more.',
  'Tree views': 'Hierarchies to pick search terms from (targets, indications, endpoints, ...).',
  Uploads: 'Lists of search terms from a file, and the terms that were not recognised.',
  Results: 'Pages of the results tabs of a search session, filters and navigation between tabs.',
  'Charts and filters': 'Value counts of the result charts and of the left-hand filter panel.',
  'SAR view': 'Structure–activity relationships of a result set: cores, R-group tables, cliffs, pairs.',
  Analyzers: 'Analyzer charts over result rows, and saved analyses.',
  'Target prediction':
    'Predicted targets of a structure, a compound or a selection (similarity ensemble and multitask model), and the model’s state.',
  Leaflets: 'Compound and reference leaflets.',
  'Exports and downloads': 'Price and start exports (download credits), follow their jobs, download the files.',
  'Datasets and requests for data': 'Flat-file datasets and requests for data.',
  'Dynamic query': 'Queries over the knowledge-base tables with whitelisted columns and operators.',
  Administration: 'Subscriptions and the system overview (administrators).',
  'Account administration': 'Organisations, users, subscriptions and credits (GOSTAR_ADMIN).',
  Trackers: 'Logins, searches, exports, downloads and reported terms of all users (administrators).',
  'Super admin': 'Admin roles, audit log, sessions, data set and run-time settings (SUPER_ADMIN).',
  'Knowledge-base releases': 'ChEMBL release imports and the load history.',
  'Second factor (admin MFA)': 'Authenticator enrolment and the second login step of administrators.',
  'First super administrator (set-up token)':
    'Making the first super administrator of a server without demo accounts, with the one-time token its console prints.',
  'Usage dashboards': 'Platform and client usage figures.',
  'Alerts and notifications': 'Alerts on saved searches and the notifications they raise.',
  'Workspace: collections, saved result sets, history, sharing':
    'Collections of compounds and saved results pages, owned and shared inside the organisation; the history of searches.',
  'Compound × endpoint sheet': 'One row per compound and one column per endpoint, over a result set or a collection; its export.',
  System: 'Liveness.',
};

/**
 * The operation name prefix of a group: its title up to " and ", " (" or ":", camel-cased (URL-safe letters and digits)
 * ("Search and counts" → `search`, "SAR view" → `sarView`, "Knowledge-base releases" → `knowledgeBaseReleases`).
 */
export function domainOf(title: string): string {
  // "Workspace: collections, …" → `workspace`; "Compound × endpoint sheet" → `compoundEndpointSheet`.
  const head = title.split(/ and | \(|:/)[0] ?? title;
  return head
    .split(/[\s-]+/)
    .map((word) => word.replace(/[^A-Za-z0-9]/g, ''))
    .filter(Boolean)
    .map((word, index) => (index === 0 ? word.toLowerCase() : word.charAt(0).toUpperCase() + word.slice(1).toLowerCase()))
    .join('');
}

export interface OperationInfo {
  /** `<domain>.<key>`: the group's domain and the endpoint's key in it (`search.allResultsCount`). */
  operationId: string;
  tag: string;
  endpoint: Endpoint;
}

/** Every contract endpoint by `METHOD /fastify/:path`, with the name and tag the document gives it. */
export function contractOperations(): Map<string, OperationInfo> {
  const operations = new Map<string, OperationInfo>();
  for (const [title, group] of API_GROUPS) {
    for (const [key, endpoint] of Object.entries(group)) {
      operations.set(`${endpoint.method} ${endpoint.path}`, { operationId: `${domainOf(title)}.${key}`, tag: title, endpoint });
    }
  }
  return operations;
}

function accessText(access: ApiAccess): string {
  if (access === 'public') return 'Public: no token.';
  if (access === 'authenticated') return 'Any signed-in session.';
  return `Roles: ${access.join(', ')}.`;
}

/**
 * Per route: zod → JSON schema (fastify-type-provider-zod), then the contract's name, tag, access
 * and, for a file answer, its 200 response (the route only declares the error shapes for those).
 */
function transformRoute(operations: Map<string, OperationInfo>): SwaggerTransform {
  return (input) => {
    const result = jsonSchemaTransform(input);
    const methods = [input.route.method].flat();
    const info = methods.map((method) => operations.get(`${method} ${input.route.url}`)).find((found) => found !== undefined);
    if (!info) return result;
    const { endpoint } = info;
    const schema = result.schema as Record<string, unknown>;
    schema.operationId = info.operationId;
    schema.tags = [info.tag];
    schema.description = accessText(endpoint.access);
    schema.security = endpoint.access === 'public' ? [] : SIGNED_IN;
    if (endpoint.responseType) {
      schema.response = {
        200: {
          description: `The file (${endpoint.responseType}), sent as an attachment.`,
          content: { [endpoint.responseType]: { schema: { type: 'string', format: 'binary' } } },
        },
        ...(schema.response as object),
      };
    }
    return result;
  };
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * OpenAPI 3.0 `nullable` needs a `type` beside it; zod's union with null comes out as
 * `{ nullable, anyOf: [...] }`. Moving `nullable` into each branch says the same and is valid.
 */
function nullableIntoBranches(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) nullableIntoBranches(item);
    return;
  }
  if (!isObject(node)) return;
  for (const child of Object.values(node)) nullableIntoBranches(child);
  const branches = node.anyOf ?? node.oneOf;
  if (node.nullable !== true || 'type' in node || !Array.isArray(branches)) return;
  delete node.nullable;
  for (const branch of branches) if (isObject(branch) && !('$ref' in branch)) branch.nullable = true;
}

function collectRefs(node: unknown, into: Set<string>): void {
  if (Array.isArray(node)) for (const item of node) collectRefs(item, into);
  else if (isObject(node)) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') into.add(value.replace('#/components/schemas/', ''));
      else collectRefs(value, into);
    }
  }
}

/** Only the component schemas some operation reaches (the registry emits an input and an output twin of each). */
function keepReachableSchemas(document: Json): void {
  const components = document.components as Json;
  const schemas = (components.schemas ?? {}) as Json;
  const reached = new Set<string>();
  collectRefs(document.paths, reached);
  let size = -1;
  while (reached.size !== size) {
    size = reached.size;
    for (const name of [...reached]) collectRefs(schemas[name], reached);
  }
  components.schemas = Object.fromEntries(Object.entries(schemas).filter(([name]) => reached.has(name)));
}

/** Examples of the main calls (openapi-examples.ts), on the media types of their operation. */
function addExamples(document: Json): void {
  for (const pathItem of Object.values(document.paths as Json)) {
    for (const operation of Object.values(pathItem as Json)) {
      if (!isObject(operation)) continue;
      const examples = OPENAPI_EXAMPLES[operation.operationId as string];
      if (!examples) continue;
      const media = (owner: unknown) => (owner as { content?: Json } | undefined)?.content?.['application/json'] as Json | undefined;
      const request = media(operation.requestBody);
      if (request && examples.request !== undefined) request.example = examples.request;
      const response = media((operation.responses as Json)['200']);
      if (response && examples.response !== undefined) response.example = examples.response;
    }
  }
}

const DOCUMENT_DESCRIPTION = [
  'Drug-discovery knowledge-base search platform.',
  '',
  'Log in with `POST /api/pub/gostar/generate-token`; send its `nodeToken` as `Authorization: Bearer <nodeToken>`',
  '(or its `token` as `JavaAuthorization: Bearer <token>`) on every other call. An `email` header, when sent,',
  "must be the session owner's address. The web app also sends `x-custom-token` and `x-custom-session`; the",
  'server does not need them. Errors answer `{ "message", "code" }`. A session closes after 30 minutes idle.',
  '',
  'Scripting guide (log in, search, page, export, limits): docs/api-scripting.md in the repository.',
].join('\n');

/** Options of @fastify/swagger: the document's frame, and the two transforms that complete it. */
export function openApiOptions(publicUrl: string | undefined): FastifyDynamicSwaggerOptions {
  const operations = contractOperations();
  const servers = [{ url: '/', description: 'The server answering this document' }];
  const configured = publicUrl?.replace(/\/+$/, '');
  // The default PUBLIC_URL (localhost) says nothing the relative entry does not.
  if (configured && !/^https?:\/\/(localhost|127\.0\.0\.1)(:\d+)?$/.test(configured))
    servers.push({ url: configured, description: 'PUBLIC_URL of this installation' });
  return {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'KB Search API', description: DOCUMENT_DESCRIPTION, version: '0.1.0' },
      servers,
      tags: API_GROUPS.map(([title]) => ({ name: title, ...(TAG_DESCRIPTIONS[title] ? { description: TAG_DESCRIPTIONS[title] } : {}) })),
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    // Paths are documented as the routes are (`/api/...`) whatever PUBLIC_URL's path is.
    stripBasePath: false,
    transform: transformRoute(operations),
    transformObject: (documentObject) => {
      const document = jsonSchemaTransformObject(documentObject) as Json;
      nullableIntoBranches(document.paths);
      nullableIntoBranches((document.components as Json).schemas);
      keepReachableSchemas(document);
      addExamples(document);
      return document;
    },
  };
}

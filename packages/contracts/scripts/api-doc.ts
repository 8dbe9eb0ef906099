// Writes docs/api.md from the contract: `npx tsx packages/contracts/scripts/api-doc.ts`.
import fs from 'node:fs';
import path from 'node:path';
import { API_GROUPS } from '../src/api.ts';
import type { Endpoint } from '../src/endpoint.ts';

const access = (e: Endpoint) => (typeof e.access === 'string' ? e.access : e.access.join(', '));
const lines = [
  '# API',
  '',
  'Generated from `packages/contracts/src/api.ts` by `npx tsx packages/contracts/scripts/api-doc.ts`;',
  'the live OpenAPI page with every schema is at `/api/docs`. Errors always have the shape',
  '`{ "message", "code" }` (plus `timeout: true` for an idle session, `retryAfterSeconds` on 429).',
  '',
  'Headers (spec §7 base A): `Authorization: Bearer <node token>`, `JavaAuthorization: Bearer <main token>`,',
  '`email: <username>`, `x-custom-token: <userHashId>`, `x-custom-session: <search session id>`.',
  '',
  'From a script or a notebook (log in, search, page, export, download; the limits a script meets):',
  '[api-scripting.md](api-scripting.md). Client generators read `/api/docs/json`.',
  '',
];
for (const [title, endpoints] of API_GROUPS) {
  lines.push(`## ${title}`, '', '| call | access | what it does |', '|---|---|---|');
  for (const e of Object.values(endpoints)) lines.push(`| \`${e.method} ${e.path}\` | ${access(e)} | ${e.summary} |`);
  lines.push('');
}
fs.writeFileSync(path.resolve(import.meta.dirname, '../../../docs/api.md'), lines.join('\n'));

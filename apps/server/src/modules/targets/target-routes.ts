import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { searchEndpoints } from '@kb/contracts/search-api';
import type { Database } from '../../db/schema.ts';
import { registerEndpoint } from '../../http/endpoint-route.ts';
import { badRequest } from '../../http/errors.ts';
import { describeTargets, resolveTargetTerms } from './target-resolver.ts';
import { TargetTextError } from './target-text.ts';

/** `POST /api/search/targets/resolve`: what a Target row's terms stand for, by the resolver the search uses. */
export function registerTargetRoutes(app: FastifyInstance, db: Kysely<Database>): void {
  registerEndpoint(app, searchEndpoints.targetsResolve, async ({ body }) => {
    let resolved;
    try {
      resolved = await resolveTargetTerms(db, body.targets);
    } catch (error) {
      if (error instanceof TargetTextError) throw badRequest(error.message);
      throw error;
    }
    const all = new Set<number>();
    for (const term of resolved) for (const id of term.ids) all.add(id);
    return {
      count: all.size,
      targets: await describeTargets(db, [...all], body.limit),
      terms: resolved.map((term, index) => ({ label: body.targets[index]!.label, match: term.match, count: term.ids.length })),
    };
  });
}

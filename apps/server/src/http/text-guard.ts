import type { FastifyInstance } from 'fastify';
import { findInvalidText, invalidTextMessage } from '@kb/contracts/text';
import { badRequest } from './errors.ts';

/**
 * The contract-wide text rule (packages/contracts/src/text.ts) on every call, public ones included:
 * path parameters, query and parsed body are checked before validation, so NUL or broken Unicode
 * is a 400 naming the field before it can reach a parser, RDKit or the database.
 */
export function registerTextGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const parts = [
      ['path', request.params],
      ['query', request.query],
      ['body', request.body],
    ] as const;
    for (const [root, value] of parts) {
      const problem = findInvalidText(value, root);
      if (problem) throw badRequest(invalidTextMessage(problem), { field: problem.path });
    }
  });
}

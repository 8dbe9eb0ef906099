import type { LoginResult } from '@kb/contracts/auth';
import type { AuthContext } from '../src/http/auth-hook.ts';
import { SearchService } from '../src/modules/search/search-service.ts';
import type { SearchServiceOptions } from '../src/modules/search/search-service.ts';
import { collectionMembers } from '../src/modules/workspace/collection-members.ts';
import type { TestApp } from './harness.ts';

/**
 * A search service beside a test app's own (`app.services.search`): over the same database and
 * structure engine, configured as services.ts configures the app's, with `options` on top. Tests
 * compare runs of differently built services (e.g. `structureCandidates: false` for a reference
 * run) this way; the caller closes it.
 */
export async function searchServiceBeside(t: TestApp, options: SearchServiceOptions): Promise<SearchService> {
  const service = new SearchService(t.database.db, t.app.services.chemEngine, {
    bitmapCounts: t.config.searchBitmaps,
    databaseKind: t.database.kind,
    singleProcess: t.database.kind === 'pglite',
    collectionMembers: (userId, collectionId) => collectionMembers(t.database.db, userId, collectionId),
    ...options,
  });
  // Its bitmap columns read now, as the app's are once a test has waited for them.
  await service.bitmapsReady();
  return service;
}

/** The caller a request of this login would carry (roles aside: search sessions check only the user), for calling a service directly. */
export function callerOf(login: LoginResult): AuthContext {
  return {
    userId: login.id,
    sessionId: login.sessionId,
    email: login.username,
    userHashId: login.userHashId,
    roles: [],
    lastActivityAt: new Date(),
    secondFactor: { passed: login.secondFactor === 'passed', enrolled: login.secondFactor !== 'not_required' },
  };
}

import { useQuery } from '@tanstack/react-query';
import type { ResultsSession } from '@kb/contracts/results';
import type { ResultsScope } from './results-store.ts';
import { useSearchBuilderStore } from '../search/builder/search-builder-store.ts';
import { useSearchSessionStore } from '../../app/stores/search-session-store.ts';
import type { SessionProblem } from './results-queries.ts';
import { sessionProblem, sessionQuery } from './results-queries.ts';

/** What the page can show of a results session. */
export type SessionView =
  | { kind: 'none' }
  | { kind: 'loading'; sessionId: string }
  /** The search of this session is running in this browser (just started, or run again): wait for it. */
  | { kind: 'running'; sessionId: string }
  | { kind: 'problem'; sessionId: string; problem: SessionProblem; message: string | null; session: ResultsSession | null }
  | { kind: 'ready'; sessionId: string; session: ResultsSession };

/** The session a scope shows: the search's (/results) or the selection's (/new-search-results). */
export function useScopeSessionId(scope: ResultsScope): string | null {
  return useSearchSessionStore((state) => (scope === 'search' ? state.searchSessionId : state.selectionSessionId));
}

/**
 * The results session of a scope and what the page can make of it. The server answers a session
 * only once its search finished (409 before): while this browser runs the search, the page waits
 * instead of asking. A selection session is stored only once it ran, so it never waits here.
 */
export function useResultsSession(scope: ResultsScope): SessionView {
  const sessionId = useScopeSessionId(scope);
  const searching = useSearchBuilderStore((state) => scope === 'search' && state.status === 'running');
  const query = useQuery({ ...sessionQuery(sessionId ?? ''), enabled: sessionId !== null && !searching, retry: false });
  if (sessionId === null) return { kind: 'none' };
  if (searching) return { kind: 'running', sessionId };
  if (query.isError && !query.data)
    return { kind: 'problem', sessionId, problem: sessionProblem(query.error), message: query.error.message, session: null };
  if (!query.data) return { kind: 'loading', sessionId };
  return { kind: 'ready', sessionId, session: query.data };
}

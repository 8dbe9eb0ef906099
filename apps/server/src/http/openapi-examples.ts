import type { z } from 'zod';
import type { LoginRequestSchema, LoginResultSchema } from '@kb/contracts/auth';
import type { CountRequestSchema, CountResponseSchema, SessionCountRequestSchema, SessionCountResponseSchema } from '@kb/contracts/search';
import type { TabPageSchema, TabRequestSchema } from '@kb/contracts/results';
import type { ExportDataCountSchema, ExportScopeSchema, ExportJobSchema, ExportRequestSchema } from '@kb/contracts/exports';

/**
 * Examples of the main calls of a script (docs/api-scripting.md) in the OpenAPI document, by
 * operationId. Typed by the contract here and parsed by it in openapi-lint.api.test.ts, so an
 * example cannot describe a request the server would refuse.
 */
export interface OperationExamples {
  request?: unknown;
  response?: unknown;
}

type In<S extends z.ZodType> = z.input<S>;

const SESSION_ID = '0b7e6c1e-6a55-4d7e-9a8e-2f0c1d3b4a59';
/** A search for every Ki measurement. */
const KI_SEARCH = { rows: [{ selectedOption: 'activitytypes' as const, activities: [{ activityType: 'Ki' }] }] };

export const OPENAPI_EXAMPLES: Record<string, OperationExamples> = {
  'auth.generateToken': {
    request: { username: 'full-user@demo.test', password: 'Demo!2345' } satisfies In<typeof LoginRequestSchema>,
    response: {
      id: 3,
      username: 'full-user@demo.test',
      token: 'eyJhbGciOiJIUzI1NiJ9.main-token',
      userHashId: 'u_5f2b9c',
      applicationDiff: 'kb-1',
      nodeToken: 'eyJhbGciOiJIUzI1NiJ9.node-token',
      sessionId: '7d1f0a52-3c4e-4b8a-a1f6-0e2d9c8b7a61',
      tokenExpiresAt: '2026-01-15T11:00:00.000Z',
      secondFactor: 'not_required',
    } satisfies In<typeof LoginResultSchema>,
  },
  'search.count': {
    request: { searchcriteria: KI_SEARCH } satisfies In<typeof CountRequestSchema>,
    response: {
      rows: [{ stridscount: 912, actidscount: 2480, assayidscount: 301, refidscount: 122, clinicalcompoundidscount: 7 }],
    } satisfies In<typeof CountResponseSchema>,
  },
  'search.allResultsCount': {
    request: { searchcriteria: KI_SEARCH, sessionid: SESSION_ID } satisfies In<typeof SessionCountRequestSchema>,
    response: {
      rows: [{ stridscount: 912, actidscount: 2480, assayidscount: 301, refidscount: 122, clinicalcompoundidscount: 7, gvkidscount: 905 }],
      sessionid: SESSION_ID,
    } satisfies In<typeof SessionCountResponseSchema>,
  },
  'results.tabRows': {
    request: { sessionid: SESSION_ID, pageNumber: 0, pageSize: 2, sortOrder: { column: 'act_id', direction: 'asc' } } satisfies In<
      typeof TabRequestSchema
    >,
    response: {
      tab: 'activitiestab',
      data: [
        { act_id: 10021, str_id: 551, std_activity_type: 'Ki', activity_value: 12.5, activity_uom: 'nM' },
        { act_id: 10022, str_id: 553, std_activity_type: 'Ki', activity_value: 3.1, activity_uom: 'nM' },
      ],
      rowCount: 2480,
      pageNumber: 0,
      pageSize: 2,
      sortOrder: { column: 'act_id', direction: 'asc' },
      similaritySort: null,
      filters: [],
      strIdNewlyAddedStatus: false,
    } satisfies In<typeof TabPageSchema>,
  },
  'exports.exportDataCount': {
    request: { sessionid: SESSION_ID, tab: 'activitiestab', selection: null } satisfies In<typeof ExportScopeSchema>,
    response: {
      tab: 'activitiestab',
      rows: 2480,
      credits: 2480,
      creditBalance: 100000,
      allowed: true,
      background: false,
      backgroundFromRows: 100000,
      message: null,
    } satisfies In<typeof ExportDataCountSchema>,
  },
  'exports.start': {
    request: {
      sessionid: SESSION_ID,
      tab: 'activitiestab',
      selection: { selectedIds: [10021, 10022] },
      format: 'csv',
      columns: ['act_id', 'str_id', 'std_activity_type', 'activity_value'],
    } satisfies In<typeof ExportRequestSchema>,
    response: {
      id: 42,
      source: 'results',
      tab: 'activitiestab',
      format: 'csv',
      columns: ['act_id', 'str_id', 'std_activity_type', 'activity_value'],
      rows: 2,
      credits: 2,
      status: 'done',
      rowsWritten: 2,
      progress: 100,
      fileName: 'activities-2026-01-15.csv',
      fileId: 17,
      fileSize: 211,
      createdAt: '2026-01-15T10:02:11.000Z',
      finishedAt: '2026-01-15T10:02:11.000Z',
      error: null,
      refunded: false,
      creditBalance: 99998,
    } satisfies In<typeof ExportJobSchema>,
  },
};

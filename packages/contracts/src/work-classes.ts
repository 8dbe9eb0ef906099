/**
 * Heavy calls, by the kind of work they do: the server admits them a few at a time and per user
 * (apps/server/src/http/admission.ts), so a crowd of searches cannot stall logins and pages. The
 * calls of one search session share one turn. Every other call is short and never waits.
 */
export type WorkClass = 'search' | 'structure' | 'chart' | 'export';

/** `METHOD path` of each heavy call → its class. */
export const WORK_CLASS_OF_CALL: Readonly<Record<string, WorkClass>> = {
  'POST /api/guidedsearch/count': 'search',
  'POST /api/guidedsearch/allresultscount': 'search',
  'POST /api/guidedsearch/newsearchbyselectioncount': 'search',
  'POST /api/guidedsearch/lhslogs': 'search',
  'POST /api/guidedsearch/activitylhslogs': 'search',
  'POST /api/guidedsearch/assaysunloggedlogs': 'search',
  'POST /api/guidedsearch/newsearchbyselections/activitylogs': 'search',
  'POST /api/guidedsearch/newsearchbyselections/assaylogs': 'search',
  'POST /api/results/newsearchby/:tab': 'search',
  'POST /api/alerts/notifications/:id/open': 'search',
  'POST /api/guidedsearch/structures/by/smilessmarts': 'structure',
  // Target prediction scans the structure index once per structure (a batch: up to 50).
  'POST /api/prediction/targets': 'structure',
  'POST /api/prediction/targets/batch': 'structure',
  // An upload into a collection reads up to 20,000 SMILES or molfiles with RDKit.
  'POST /api/workspace/collections/:id/upload': 'structure',
  'POST /api/results/chart': 'chart',
  'POST /api/security/lhsf/chart/:chartType/:chartKey': 'chart',
  'POST /api/results/applyfilters/:tab': 'chart',
  'POST /api/export/start': 'export',
  // A dynamic query reads the knowledge base without a search session: it takes a search's turn.
  'POST /api/dynamicquery/run': 'search',
  // Text and wildcards of target terms are matched against every target name and synonym.
  'POST /api/search/targets/resolve': 'search',
  'POST /api/guidedsearch/uploadvia/validate/data': 'search',
  'POST /api/dynamicquery/export': 'export',
  'POST /api/security/leafletview/measurements/export': 'export',
};

export function workClassOf(endpoint: { method: string; path: string }): WorkClass | undefined {
  return WORK_CLASS_OF_CALL[`${endpoint.method} ${endpoint.path}`];
}

import { describe, expect, it } from 'vitest';
import { ALL_ENDPOINTS } from './api.ts';
import type { ApiAccess } from './endpoint.ts';
import { ROLES } from './roles.ts';
import type { Role } from './roles.ts';
import { WEB_ROUTES, roleMayOpen } from './routes.ts';

/*
 * An independent expectation of who may open what, written by hand from spec §2 (routes) and §6
 * (roles), with literal role names. The guard, the server and the browser matrices all read the
 * product's own tables (routes.ts, api.ts); this file does not, so a wrong entry there fails here.
 * Keep it literal: no imports of SEARCH_ROLES & co.
 */

type Openers = 'public' | 'any logged-in role' | readonly Role[];

const SEARCH = ['FULL_USER', 'EVALUATE_USER', 'DOWNLOAD_EVALUATOR'] as const;
const EXPORT = ['FULL_USER', 'DOWNLOAD_EVALUATOR'] as const;
const DASHBOARD = ['FULL_USER', 'EVALUATE_USER', 'DOWNLOAD_EVALUATOR', 'GOSTAR_ADMIN', 'FLAT_FILE_ONLY', 'FLAT_FILE_ADMIN'] as const;

/** Spec §2's route table, row by row. */
const SPEC_ROUTES: Readonly<Record<string, Openers>> = {
  '/': 'any logged-in role',
  '/search': SEARCH,
  '/login': 'public',
  '/register': 'public',
  '/results': SEARCH,
  '/results/:tabid': SEARCH,
  '/new-search-results': SEARCH,
  '/new-search-results/:tabid': SEARCH,
  '/sarview': EXPORT,
  '/sarview/:tabid': SEARCH,
  '/analyzers': EXPORT,
  '/analyzers/:tabid': SEARCH, // "plus EVALUATE_USER"
  '/export': EXPORT,
  '/export/:tabid': EXPORT,
  '/downloads': EXPORT,
  '/downloads/:tabid': EXPORT,
  '/leaflet/reference/:rid': SEARCH, // issue 36: the reference leaflet's permanent link (no session in it)
  '/leaflet/:idType/:id': SEARCH,
  '/leafletreference/:sid/:rid': SEARCH,
  '/home': SEARCH,
  '/dynamicquery': 'any logged-in role',
  '/admin/trackers': ['GOSTAR_ADMIN', 'FLAT_FILE_ADMIN'],
  '/admin/dashboard': ['GOSTAR_ADMIN'],
  '/admin/client-dashboard': 'any logged-in role',
  '/admin/subscriptions': ['GOSTAR_ADMIN'],
  '/dashboard': DASHBOARD,
  '/change-password': DASHBOARD,
  '/forgot-password': 'public',
  '/pub/account/verify/:code': 'public',
  '/setup': 'public', // issue 57: the first super administrator, with the console's set-up token
  '/usermanual': 'public',
  '/keywords': 'public',
  '/policies': 'public',
  '/superadmin': ['SUPER_ADMIN'],
  '/account/mfa': 'any logged-in role', // issue 16: admin second factor; says "not needed" to other roles
  '/notifications': 'any logged-in role', // issue 17: the notifications of the header's bell
  '/notifications/:id': SEARCH, // issue 17: opens an alert's new rows in the results
  // Issue 59: the workspace and the compound sheet, for the roles that search.
  '/workspace': SEARCH,
  '/workspace/collections/:id': SEARCH,
  '/workspace/result-sets/:id': SEARCH,
  '/sheet': SEARCH,
  '/accessdenied': 'public', // "n/a": shown to anyone sent there
};

/*
 * Every API call, grouped by the page (spec §2) whose users make it. The spec does not list API
 * access; the rule we hold ourselves to is "a call is open to exactly the roles of the pages that
 * make it", so that the server never serves a role what its pages would not show it.
 */
const SPEC_API: ReadonlyArray<{ why: string; openers: Openers; calls: readonly string[] }> = [
  {
    why: 'login, registration, password links and the health probe come before any session',
    openers: 'public',
    calls: [
      'POST /api/pub/:product/generate-token',
      'POST /api/pub/account/register',
      'POST /api/pub/account/forgot-password',
      'GET /api/pub/account/verify/:code',
      'POST /api/pub/account/verify/:code',
      'GET /api/health',
      'GET /api/health/ready',
    ],
  },
  {
    why: 'the first super administrator is made before any account can log in (the set-up token is the check)',
    openers: 'public',
    calls: ['GET /api/pub/setup', 'POST /api/pub/setup'],
  },
  {
    why: 'session upkeep, the profile and the subscription warning serve every logged-in page',
    openers: 'any logged-in role',
    calls: [
      'POST /api/pub/:product/regenerate',
      'POST /api/webapilogin',
      'GET /api/nodeapi/sessions/validate',
      'POST /api/nodeapi/sessions/close',
      'GET /api/lastsessiontime',
      'GET /api/profile',
      'POST /api/dashboard/notifications/isSubscriptionRequired',
      'GET /api/dashboard/subscription/summary',
      'POST /api/dashboard/closeallsessions',
      'POST /api/dashboard/logout',
      'POST /api/dashboard/dropunloggedtables',
      'GET /api/security/allmapping/search/default/count',
      'GET /api/chemistry/status',
      'GET /api/account/mfa',
      'GET /api/dashboard/pendodetails/fetch',
      'GET /api/admin/client-dashboard',
      // Issue 17: the header's bell and the notifications page serve every logged-in page.
      'GET /api/notifications',
      'POST /api/notifications/:id/read',
      'POST /api/notifications/read-all',
    ],
  },
  {
    why: '/dashboard and /change-password',
    openers: DASHBOARD,
    calls: [
      'POST /api/user/change-password',
      'GET /api/user/loginhistory',
      'POST /api/dashboard/notifications/settings',
      'GET /api/export/jobs/:id',
      'GET /api/export/jobs',
      'GET /api/exportlogs/export',
      'POST /api/dashboard/downloadfile',
      'POST /api/dashboard/deletefile',
      'GET /api/security/flatfile/userdownload/fetch',
      'GET /api/security/flatfile/request/fetch',
      'POST /api/security/flatfile/request/create',
      'POST /api/security/flatfile/request/cancel',
    ],
  },
  {
    why: 'the search page, results, leaflets and /home (the three search roles)',
    openers: SEARCH,
    calls: [
      'POST /api/guidedsearch/count',
      'POST /api/guidedsearch/allresultscount',
      'POST /api/guidedsearch/newsearchbyselectioncount',
      'POST /api/guidedsearch/lhslogs',
      'POST /api/guidedsearch/activitylhslogs',
      'POST /api/guidedsearch/assaysunloggedlogs',
      'POST /api/guidedsearch/newsearchbyselections/activitylogs',
      'POST /api/guidedsearch/newsearchbyselections/assaylogs',
      // Issue 36: what a Target row's terms stand for (the row editor of the search page).
      'POST /api/search/targets/resolve',
      'POST /api/results/lhrf/chartdatastatus',
      'GET /api/guidedsearch/progress/:sessionid',
      'POST /api/guidedsearch/cancel/:sessionid',
      'POST /api/guidedsearch/default/count',
      'GET /api/security/allmapping/criteriasearch/default/count',
      'POST /api/bu/search/save/query',
      'POST /api/security/allmapping/search/variable/save',
      'GET /api/user/criiteria/fetch',
      'POST /api/dashboard/criteria/fetch',
      'POST /api/bu/criteria/select',
      'GET /api/bu/criteria/:criteriaId',
      'POST /api/bu/criteria/delete',
      // Issue 17: "alert me" on saved searches, and an alert's new rows opened as a search session.
      'GET /api/alerts/saved-searches',
      'POST /api/alerts/saved-searches/:criteriaId',
      'POST /api/alerts/notifications/:id/open',
      'GET /api/alerts/sessions/:sessionid',
      'POST /api/bu/sessionsummary/save',
      'GET /api/home/overview',
      'GET /api/kb/whatsnew',
      'POST /api/guidedsearch/structures/by/inchikey',
      'POST /api/guidedsearch/structures/by/smilessmarts',
      'POST /api/guidedsearch/structure/physicochemical/structural',
      'GET /api/security/bibliography/structural/properties/minmax',
      'GET /api/chemistry/depiction',
      'GET /api/guidedsearch/target',
      'GET /api/guidedsearch/structure',
      'GET /api/guidedsearch/bibliography',
      'GET /api/guidedsearch/activitytype',
      'GET /api/guidedsearch/indication',
      'GET /api/guidedsearch/source',
      'GET /api/guidedsearch/strain/genus',
      'GET /api/guidedsearch/strain/species',
      'GET /api/guidedsearch/strain/strain',
      'GET /api/guidedsearch/clinicalphase',
      'GET /api/guidedsearch/moleculecategory',
      'GET /api/guidedsearch/activitymechanism',
      'POST /api/guidedsearch/target/by/name',
      'POST /api/guidedsearch/target/by/pdbid',
      'POST /api/guidedsearch/target/by/officialgenename',
      'POST /api/guidedsearch/target/by/entrezgeneid',
      'POST /api/guidedsearch/target/by/uniprotid',
      'POST /api/guidedsearch/doi/customsearch',
      'POST /api/guidedsearch/journal/customsearch',
      'POST /api/guidedsearch/patent/customsearch',
      'POST /api/guidedsearch/company/by/name',
      'POST /api/guidedsearch/activityendpoints/by/activityuom',
      'GET /api/security/treeview/:tree/:id',
      'GET /api/guidedsearch/pharmacokinetics/treeview/adme/:id',
      'GET /api/guidedsearch/toxicity/treeview/:id',
      'GET /api/security/treeview/:tree/search',
      'POST /api/security/treeview/:tree/bynamelist',
      'POST /api/guidedsearch/uploadvia/validate/data',
      'POST /api/security/allmapping/search/unreportedterms/download',
      'POST /api/user/tracker/reportterms/save',
      'GET /api/results/metadata/getalltabcolumns/:resetAllFlag',
      'GET /api/results/session/:sessionid',
      'POST /api/results/:tab',
      'POST /api/results/applyfilters/:tab',
      'POST /api/results/applyfilters/resetall',
      'POST /api/results/newsearchby/:tab',
      'POST /api/security/navigation/goto',
      'POST /api/security/navigation/viewall',
      'GET /api/results/tabularview/strid/:id',
      'POST /api/results/chart',
      'POST /api/security/lhsf/chart/:chartType/:chartKey',
      'GET /api/security/leafletview/compound/:id',
      'GET /api/results/leafletview/dcm/findDCMOrNot/:id',
      'GET /api/security/leafletview/reference/:rid',
      'GET /api/security/leafletview/measurements',
    ],
  },
  {
    why: '/sarview/{tabid} and /analyzers/{tabid} (the three search roles; EVALUATE_USER sees the tabs, not the homes)',
    openers: SEARCH,
    calls: [
      'POST /api/results/setSarData',
      'GET /api/sar/data/:sessionid',
      'POST /api/sar/cores',
      'POST /api/sar/table',
      'POST /api/sar/overlap',
      'GET /api/sar/progress/:sessionid',
      'POST /api/sar/cancel/:sessionid',
      'POST /api/sar/cliffs',
      'POST /api/sar/pairs',
      'POST /api/sar/virtual',
      'POST /api/security/allmapping/search/visualization',
      'POST /api/security/allmapping/search/visualization/endpoints',
      'POST /api/security/allmapping/search/storerequest',
      'GET /api/security/allmapping/search/fetchrequest',
    ],
  },
  {
    why: 'issue 38: predicted targets on the search page, the compound leaflet and a results selection (the roles that search by structure)',
    openers: SEARCH,
    calls: ['POST /api/prediction/targets', 'POST /api/prediction/targets/batch'],
  },
  {
    why: 'issue 38: whether a model is installed — any signed-in page that shows predictions, and the super admin page',
    openers: 'any logged-in role',
    calls: ['GET /api/prediction/model'],
  },
  {
    why: 'issue 59: the workspace (collections, saved result sets, history, sharing) and the compound sheet, for the roles that search',
    openers: SEARCH,
    calls: [
      'GET /api/workspace/colleagues',
      'GET /api/workspace/collections',
      'POST /api/workspace/collections',
      'GET /api/workspace/collections/:id',
      'PUT /api/workspace/collections/:id',
      'DELETE /api/workspace/collections/:id',
      'GET /api/workspace/collections/:id/items',
      'POST /api/workspace/collections/:id/items',
      'POST /api/workspace/collections/:id/items/remove',
      'POST /api/workspace/collections/:id/upload',
      'PUT /api/workspace/collections/:id/sharing',
      'GET /api/workspace/result-sets',
      'POST /api/workspace/result-sets',
      'GET /api/workspace/result-sets/:id',
      'PUT /api/workspace/result-sets/:id',
      'DELETE /api/workspace/result-sets/:id',
      'PUT /api/workspace/result-sets/:id/sharing',
      'GET /api/workspace/history',
      'POST /api/sheet/endpoints',
      'POST /api/sheet/page',
    ],
  },
  {
    why: '/export (EVALUATE_USER cannot export, spec §6)',
    openers: EXPORT,
    calls: [
      'POST /api/sheet/export',
      'POST /api/guidedsearch/exportdatacount',
      'POST /api/export/start',
      'POST /api/sar/export',
      'POST /api/dynamicquery/export',
      'POST /api/security/leafletview/measurements/export',
    ],
  },
  {
    why: '/dynamicquery (authentication only, spec §2): the table query and its saved queries; its export is an export (above)',
    openers: 'any logged-in role',
    calls: [
      'POST /api/dynamicquery/gettablecolumns',
      'POST /api/dynamicquery/run',
      'GET /api/dynamicquery/saved',
      'POST /api/dynamicquery/saved',
      'GET /api/dynamicquery/saved/:id',
      'DELETE /api/dynamicquery/saved/:id',
    ],
  },
  {
    why: 'flat-file administration (the flat-file admin role)',
    openers: ['FLAT_FILE_ADMIN'],
    calls: ['PUT /api/security/flatfile/upload', 'POST /api/security/flatfile/request/status'],
  },
  {
    why: '/admin/subscriptions',
    openers: ['GOSTAR_ADMIN'],
    calls: [
      'GET /api/admin/subscriptions',
      'GET /api/admin/organisations',
      'POST /api/admin/organisations',
      'PUT /api/admin/organisations/:organisationId',
      'GET /api/admin/users',
      'GET /api/admin/users/:userId',
      'POST /api/admin/users',
      'PUT /api/admin/users/:userId',
      'POST /api/admin/users/:userId/actions',
      'POST /api/admin/users/:userId/subscriptions',
      'PUT /api/admin/subscriptions/:subscriptionId',
      'POST /api/admin/subscriptions/:subscriptionId/end',
      'GET /api/admin/users/:userId/credits',
      'POST /api/admin/users/:userId/credits',
      'POST /api/admin/users/import',
    ],
  },
  { why: '/admin/dashboard', openers: ['GOSTAR_ADMIN'], calls: ['GET /api/admin/usage'] },
  {
    why: "/admin/client-dashboard's organisation picker (administrators open any organisation)",
    openers: ['GOSTAR_ADMIN', 'SUPER_ADMIN'],
    calls: ['GET /api/admin/client-dashboard/organisations'],
  },
  {
    why: '/admin/trackers',
    openers: ['GOSTAR_ADMIN', 'FLAT_FILE_ADMIN'],
    calls: [
      'GET /api/admin/trackers/logins',
      'GET /api/admin/trackers/searches',
      'GET /api/admin/trackers/exports',
      'GET /api/admin/trackers/datasets',
      'GET /api/admin/trackers/terms',
      'GET /api/admin/trackers/organisations',
      'GET /api/admin/trackers/csv/:tracker',
      'GET /api/admin/trackers/terms/:termId/candidates',
      'POST /api/admin/trackers/terms/:termId/resolve',
      'POST /api/admin/trackers/terms/:termId/reject',
    ],
  },
  {
    why: '/superadmin',
    openers: ['SUPER_ADMIN'],
    calls: [
      'GET /api/superadmin/overview',
      'GET /api/superadmin/admin-roles',
      'GET /api/superadmin/users',
      'POST /api/superadmin/admin-roles',
      'POST /api/superadmin/admin-roles/:subscriptionId/revoke',
      'GET /api/superadmin/audit',
      'GET /api/superadmin/sessions',
      'POST /api/superadmin/sessions/:sessionId/close',
      'GET /api/superadmin/dataset',
      'POST /api/superadmin/dataset/rebuild',
      'GET /api/superadmin/dataset/rebuild',
      'GET /api/superadmin/settings',
      'PUT /api/superadmin/settings',
      'POST /api/superadmin/mail/test',
      'POST /api/superadmin/users/:userId/mfa/reset',
      'GET /api/superadmin/kb/files',
      'POST /api/superadmin/kb/import',
      'GET /api/superadmin/kb/import',
      'GET /api/superadmin/kb/loads',
      // Issue 38: the target-prediction model, installed beside the releases.
      'GET /api/superadmin/prediction/model',
      'POST /api/superadmin/prediction/model',
      'POST /api/superadmin/prediction/model/reload',
    ],
  },
  {
    why: '/account/mfa for the admin roles (second factor)',
    openers: ['SUPER_ADMIN', 'GOSTAR_ADMIN', 'FLAT_FILE_ADMIN'],
    calls: [
      'POST /api/account/mfa/enrol',
      'POST /api/account/mfa/enrol/confirm',
      'POST /api/account/mfa/verify',
      'POST /api/account/mfa/recovery-codes',
    ],
  },
];

const WHO: ReadonlyArray<Role | null> = [null, ...ROLES];

function specAllows(openers: Openers, role: Role | null): boolean {
  if (openers === 'public') return true;
  if (role === null) return false;
  return openers === 'any logged-in role' || openers.includes(role);
}

function declaredAllows(access: ApiAccess, role: Role | null): boolean {
  if (access === 'public') return true;
  if (role === null) return false;
  return access === 'authenticated' || access.includes(role);
}

const label = (role: Role | null) => role ?? 'logged out';

describe('web routes agree with spec §2, written out independently', () => {
  it('has a spec row for every route of the route table, and a route for every spec row', () => {
    expect(WEB_ROUTES.map((r) => r.path).sort()).toEqual(Object.keys(SPEC_ROUTES).sort());
  });

  for (const route of WEB_ROUTES) {
    it(`${route.path}: opened by exactly the roles spec §2 names`, () => {
      const openers = SPEC_ROUTES[route.path];
      if (openers === undefined) throw new Error(`spec §2 has no row ${route.path}`);
      for (const who of WHO) {
        expect(roleMayOpen(route.access, who), `${route.path} for ${label(who)}`).toBe(specAllows(openers, who));
      }
    });
  }
});

describe('API access agrees with the pages that make each call, written out independently', () => {
  const expected = new Map<string, Openers>();
  for (const group of SPEC_API) for (const call of group.calls) expected.set(call, group.openers);

  it('lists every declared call once, and declares every listed call', () => {
    const declared = ALL_ENDPOINTS.map((e) => `${e.method} ${e.path}`);
    expect(new Set(declared).size).toBe(declared.length);
    expect(declared.sort()).toEqual([...expected.keys()].sort());
  });

  for (const endpoint of ALL_ENDPOINTS) {
    const call = `${endpoint.method} ${endpoint.path}`;
    it(`${call}: open to exactly its pages' roles`, () => {
      const openers = expected.get(call);
      if (openers === undefined) throw new Error(`no expectation written for ${call}`);
      for (const who of WHO) {
        expect(declaredAllows(endpoint.access, who), `${call} for ${label(who)}`).toBe(specAllows(openers, who));
      }
    });
  }
});

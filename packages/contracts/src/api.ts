import { z } from 'zod';
import {
  ChangePasswordRequestSchema,
  ForgotPasswordRequestSchema,
  LoginRequestSchema,
  LoginResultSchema,
  MessageResponseSchema,
  RegisterRequestSchema,
  SetPasswordRequestSchema,
  SubscriptionInfoSchema,
  SubscriptionRequiredRequestSchema,
  SubscriptionSummarySchema,
  UserProfileSchema,
  VerifyCodeInfoSchema,
} from './auth.ts';
import {
  CountResponseSchema,
  DropUnloggedTablesRequestSchema,
  DroppedResponseSchema,
  LastSessionTimeResponseSchema,
  SessionCloseRequestSchema,
  SessionValidateResponseSchema,
  UserSessionRequestSchema,
} from './session.ts';
import { LoginHistoryResponseSchema, NotificationSettingsRequestSchema, NotificationSettingsSchema } from './dashboard.ts';
import { AdminSubscriptionsResponseSchema, SuperAdminOverviewSchema } from './admin.ts';
import { trackerEndpoints } from './admin-trackers.ts';
import { HealthResponseSchema, ReadinessResponseSchema } from './health.ts';
import { defineEndpoint } from './endpoint.ts';
import { DASHBOARD_ROLES } from './roles.ts';
import type { Endpoint } from './endpoint.ts';
import { searchEndpoints } from './search-api.ts';
import { chemistryEndpoints } from './chemistry.ts';
import { lookupEndpoints } from './lookups.ts';
import { treeEndpoints } from './trees.ts';
import { uploadEndpoints } from './uploads.ts';
import { resultsEndpoints } from './results.ts';
import { chartEndpoints } from './charts.ts';
import { leafletEndpoints } from './leaflets.ts';
import { exportEndpoints } from './exports.ts';
import { datasetEndpoints } from './datasets.ts';
import { sarEndpoints } from './sar.ts';
import { sarCliffsEndpoints } from './sar-cliffs.ts';
import { sarPairsEndpoints } from './sar-pairs.ts';
import { dynamicQueryEndpoints } from './dynamic-query.ts';
import { analyzerEndpoints } from './analyzers.ts';
import { adminAccountEndpoints } from './admin-accounts.ts';
import { superAdminEndpoints } from './superadmin.ts';
import { kbReleaseEndpoints } from './kb-loads.ts';
import { mfaEndpoints } from './mfa.ts';
import { usageEndpoints } from './admin-usage.ts';
import { alertEndpoints } from './alerts.ts';
import { predictionEndpoints } from './prediction.ts';
import { setupEndpoints } from './setup.ts';
import { workspaceEndpoints } from './workspace.ts';
import { sheetEndpoints } from './sheet.ts';

/**
 * The API of spec §7. Paths: every call lives under `/api`; a spec path that already starts with
 * `api/` keeps it once (`api/dashboard/logout` → `/api/dashboard/logout`, `webapilogin` → `/api/webapilogin`).
 */
const ProductParams = z.object({ product: z.string() });
const CodeParams = z.object({ code: z.string().min(1).max(200) });

export const authEndpoints = {
  generateToken: defineEndpoint({
    method: 'POST',
    path: '/api/pub/:product/generate-token',
    access: 'public',
    summary: 'Log in: checks the password and subscription, opens a session, returns both tokens.',
    params: ProductParams,
    body: LoginRequestSchema,
    response: LoginResultSchema,
  }),
  regenerateToken: defineEndpoint({
    method: 'POST',
    path: '/api/pub/:product/regenerate',
    access: 'authenticated',
    summary: 'Issues fresh tokens for the current session before the old ones expire.',
    params: ProductParams,
    response: LoginResultSchema,
  }),
  webApiLogin: defineEndpoint({
    method: 'POST',
    path: '/api/webapilogin',
    access: 'authenticated',
    // The login flow's call before the code step: answers the held roles and the second-factor state.
    beforeSecondFactor: true,
    summary: 'Confirms the main-API login of the current session and answers its login result.',
    response: LoginResultSchema,
  }),
  validateSession: defineEndpoint({
    method: 'GET',
    path: '/api/nodeapi/sessions/validate',
    access: 'authenticated',
    summary: 'Tells whether the session of the presented token is still open.',
    response: SessionValidateResponseSchema,
    touchesSession: false,
  }),
  closeSession: defineEndpoint({
    method: 'POST',
    path: '/api/nodeapi/sessions/close',
    access: 'authenticated',
    // Ending one's own session needs no second factor ("Cancel and log out" at the code step).
    beforeSecondFactor: true,
    summary: 'Closes the caller’s session (or one of the caller’s sessions) and records the logout time.',
    body: SessionCloseRequestSchema,
    response: CountResponseSchema,
  }),
  lastSessionTime: defineEndpoint({
    method: 'GET',
    path: '/api/lastsessiontime',
    access: 'authenticated',
    summary: 'Last activity of this session and the end of the previous one.',
    response: LastSessionTimeResponseSchema,
    touchesSession: false,
  }),
  profile: defineEndpoint({
    method: 'GET',
    path: '/api/profile',
    access: 'authenticated',
    summary: 'The caller’s profile with all subscriptions (spec §3 "User profile").',
    response: UserProfileSchema,
  }),
  subscriptionRequired: defineEndpoint({
    method: 'POST',
    path: '/api/dashboard/notifications/isSubscriptionRequired',
    access: 'authenticated',
    summary: 'Subscription end date, credit balance and whether it is expiring (spec §3 "Subscription info").',
    body: SubscriptionRequiredRequestSchema,
    response: SubscriptionInfoSchema,
  }),
  subscriptionSummary: defineEndpoint({
    method: 'GET',
    path: '/api/dashboard/subscription/summary',
    access: 'authenticated',
    summary: 'Download balance, expiring days, end date and expiring flag.',
    response: SubscriptionSummarySchema,
  }),
  register: defineEndpoint({
    method: 'POST',
    path: '/api/pub/account/register',
    access: 'public',
    summary: 'Registers an account and e-mails a link to set the password.',
    body: RegisterRequestSchema,
    response: MessageResponseSchema,
  }),
  forgotPassword: defineEndpoint({
    method: 'POST',
    path: '/api/pub/account/forgot-password',
    access: 'public',
    summary: 'E-mails a password-reset link if the address has an account.',
    body: ForgotPasswordRequestSchema,
    response: MessageResponseSchema,
  }),
  verifyInfo: defineEndpoint({
    method: 'GET',
    path: '/api/pub/account/verify/:code',
    access: 'public',
    summary: 'What a verification link is for, if it is still valid.',
    params: CodeParams,
    response: VerifyCodeInfoSchema,
  }),
  verifySetPassword: defineEndpoint({
    method: 'POST',
    path: '/api/pub/account/verify/:code',
    access: 'public',
    summary: 'Sets the password from a verification link.',
    params: CodeParams,
    body: SetPasswordRequestSchema,
    response: MessageResponseSchema,
  }),
  changePassword: defineEndpoint({
    method: 'POST',
    path: '/api/user/change-password',
    access: DASHBOARD_ROLES,
    summary: 'Changes the caller’s password and closes the caller’s other sessions.',
    body: ChangePasswordRequestSchema,
    response: MessageResponseSchema,
  }),
} as const;

export const dashboardEndpoints = {
  closeAllSessions: defineEndpoint({
    method: 'POST',
    path: '/api/dashboard/closeallsessions',
    access: 'authenticated',
    summary:
      "Closes every other open session of the user and keeps `sessionid`, which must be one of the caller's open sessions (400 otherwise, nothing closed).",
    body: UserSessionRequestSchema,
    response: CountResponseSchema,
  }),
  logout: defineEndpoint({
    method: 'POST',
    path: '/api/dashboard/logout',
    access: 'authenticated',
    // Ending one's own session needs no second factor ("Cancel and log out" at the code step).
    beforeSecondFactor: true,
    summary: 'Logs out: closes the session and records the logout time.',
    body: UserSessionRequestSchema,
    response: CountResponseSchema,
  }),
  dropUnloggedTables: defineEndpoint({
    method: 'POST',
    path: '/api/dashboard/dropunloggedtables',
    access: 'authenticated',
    summary: 'Drops the result sets of one of the caller’s search sessions.',
    body: DropUnloggedTablesRequestSchema,
    response: DroppedResponseSchema,
  }),
  loginHistory: defineEndpoint({
    method: 'GET',
    path: '/api/user/loginhistory',
    access: DASHBOARD_ROLES,
    summary: 'The caller’s login attempts, newest first.',
    response: LoginHistoryResponseSchema,
  }),
  notificationSettings: defineEndpoint({
    method: 'POST',
    path: '/api/dashboard/notifications/settings',
    access: DASHBOARD_ROLES,
    summary: 'Reads (and, with `settings`, saves) the caller’s notification settings.',
    body: NotificationSettingsRequestSchema,
    response: NotificationSettingsSchema,
  }),
} as const;

export const adminEndpoints = {
  subscriptions: defineEndpoint({
    method: 'GET',
    path: '/api/admin/subscriptions',
    access: ['GOSTAR_ADMIN'],
    summary: 'Every user with their subscriptions and credit balance.',
    response: AdminSubscriptionsResponseSchema,
  }),
  superAdminOverview: defineEndpoint({
    method: 'GET',
    path: '/api/superadmin/overview',
    access: ['SUPER_ADMIN'],
    summary: 'System overview: users, sessions, roles, failed logins, e-mail outbox.',
    response: SuperAdminOverviewSchema,
  }),
} as const;

export const systemEndpoints = {
  health: defineEndpoint({
    method: 'GET',
    path: '/api/health',
    access: 'public',
    summary: 'Liveness with the database kind and the data-set size.',
    response: HealthResponseSchema,
  }),
  ready: defineEndpoint({
    method: 'GET',
    path: '/api/health/ready',
    access: 'public',
    summary:
      'Readiness: 200 once the server has its search columns, structure index and the rest in memory, 503 (same body) while it prepares them.',
    response: ReadinessResponseSchema,
  }),
} as const;

export {
  alertEndpoints,
  adminAccountEndpoints,
  mfaEndpoints,
  superAdminEndpoints,
  trackerEndpoints,
  usageEndpoints,
  searchEndpoints,
  chemistryEndpoints,
  lookupEndpoints,
  treeEndpoints,
  uploadEndpoints,
  resultsEndpoints,
  chartEndpoints,
  leafletEndpoints,
  exportEndpoints,
  datasetEndpoints,
  sarEndpoints,
  sarCliffsEndpoints,
  sarPairsEndpoints,
  analyzerEndpoints,
  dynamicQueryEndpoints,
  predictionEndpoints,
  setupEndpoints,
  workspaceEndpoints,
  sheetEndpoints,
};

/** Every endpoint group with its title: the access-matrix test, the API doc and OpenAPI read this one list. */
export const API_GROUPS: ReadonlyArray<readonly [string, Record<string, Endpoint>]> = [
  ['Auth and session', authEndpoints],
  ['Dashboard', dashboardEndpoints],
  ['Search and counts', searchEndpoints],
  ['Chemistry', chemistryEndpoints],
  ['Autocomplete', lookupEndpoints],
  ['Tree views', treeEndpoints],
  ['Uploads', uploadEndpoints],
  ['Results', resultsEndpoints],
  ['Charts and filters', chartEndpoints],
  ['SAR view', { ...sarEndpoints, ...sarCliffsEndpoints, ...sarPairsEndpoints }],
  ['Analyzers', analyzerEndpoints],
  ['Workspace: collections, saved result sets, history, sharing', workspaceEndpoints],
  ['Compound × endpoint sheet', sheetEndpoints],
  ['Target prediction', predictionEndpoints],
  ['Leaflets', leafletEndpoints],
  ['Exports and downloads', exportEndpoints],
  ['Datasets and requests for data', datasetEndpoints],
  ['Dynamic query', dynamicQueryEndpoints],
  ['Administration', adminEndpoints],
  ['Account administration', adminAccountEndpoints],
  ['Trackers', trackerEndpoints],
  ['Super admin', superAdminEndpoints],
  ['Knowledge-base releases', kbReleaseEndpoints],
  ['Second factor (admin MFA)', mfaEndpoints],
  ['First super administrator (set-up token)', setupEndpoints],
  ['Usage dashboards', usageEndpoints],
  ['Alerts and notifications', alertEndpoints],
  ['System', systemEndpoints],
];
export const ALL_ENDPOINTS: readonly Endpoint[] = API_GROUPS.flatMap(([, group]) => Object.values(group));

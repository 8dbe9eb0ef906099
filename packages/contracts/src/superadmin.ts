import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';
import { MAX_EXPORT_ROWS } from './exports.ts';
import type { Role } from './roles.ts';

/**
 * The super-admin page (`/superadmin`, SUPER_ADMIN only; issue 16): admin roles, the audit log,
 * open sessions, the data set and its derived data, and the settings the spec leaves open (login
 * limits, export background threshold, mail). Every change writes one audit row.
 */

const SUPER = ['SUPER_ADMIN'] as const;

/** The roles only a super admin may grant or revoke (the account endpoints refuse them). */
export const ADMIN_GRANTABLE_ROLES = ['GOSTAR_ADMIN', 'FLAT_FILE_ADMIN', 'SUPER_ADMIN'] as const satisfies readonly Role[];
export const AdminRoleSchema = z.enum(ADMIN_GRANTABLE_ROLES, { message: 'Choose GOSTAR_ADMIN, FLAT_FILE_ADMIN or SUPER_ADMIN.' });
export type AdminRole = z.infer<typeof AdminRoleSchema>;

/** Longest admin-role period a super admin may grant at once (days). */
export const ADMIN_ROLE_MAX_DAYS = 5 * 366;
export const SUPERADMIN_MAX_PAGE_SIZE = 200;

const IsoDate = z.iso
  .datetime({ offset: true, message: 'Give a date as YYYY-MM-DD or an ISO date-time.' })
  .or(z.iso.date({ message: 'Give a date as YYYY-MM-DD or an ISO date-time.' }));
const Page = {
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(SUPERADMIN_MAX_PAGE_SIZE).default(50),
};

/* ---------- admin roles ---------- */

export const AdminRoleHolderSchema = z.object({
  subscriptionId: z.number().int(),
  userId: z.number().int(),
  email: z.string(),
  name: z.string(),
  role: AdminRoleSchema,
  startDate: z.string(),
  endDate: z.string(),
  /** scheduled: starts later; active: running now. Ended periods are not listed. */
  status: z.enum(['scheduled', 'active']),
  /** The account has a confirmed authenticator (second factor); a super admin may reset it. */
  mfaEnrolled: z.boolean(),
});
export type AdminRoleHolder = z.infer<typeof AdminRoleHolderSchema>;
export const AdminRoleHoldersSchema = z.object({ rows: z.array(AdminRoleHolderSchema) });
export type AdminRoleHolders = z.infer<typeof AdminRoleHoldersSchema>;

export const UserSearchQuerySchema = z.object({
  q: z.string().trim().min(2, 'Type at least two characters of the e-mail address.').max(254),
});
export const UserSearchResultSchema = z.object({
  rows: z.array(z.object({ userId: z.number().int(), email: z.string(), name: z.string(), active: z.boolean() })),
});
export type UserSearchResult = z.infer<typeof UserSearchResultSchema>;

export const AdminRoleGrantSchema = z.object({
  userId: z.number().int().positive(),
  role: AdminRoleSchema,
  /** Defaults to now. */
  startDate: IsoDate.optional(),
  endDate: IsoDate,
});
export type AdminRoleGrant = z.infer<typeof AdminRoleGrantSchema>;
export const SubscriptionIdParamsSchema = z.object({ subscriptionId: z.coerce.number().int().positive() });

/* ---------- audit log ---------- */

export const AUDIT_TARGET_TYPES = [
  'organisation',
  'user',
  'subscription',
  'credits',
  'session',
  'role',
  'setting',
  'term',
  'dataset',
  'mfa',
  'collection',
  'result_set',
] as const;

export const AuditQuerySchema = z
  .object({
    /** Any text: actor, action, target, before and after. */
    q: z.string().trim().max(200).optional(),
    actor: z.string().trim().max(254).optional(),
    /** An action or its first part: `role` finds `role.grant` and `role.revoke`. */
    action: z.string().trim().max(100).optional(),
    targetType: z.enum(AUDIT_TARGET_TYPES).optional(),
    target: z.string().trim().max(200).optional(),
    from: IsoDate.optional(),
    /** Inclusive: a plain date means up to the end of that day (UTC). */
    to: IsoDate.optional(),
    ...Page,
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'The start of the date range must not be after its end.', path: ['from'] });
export type AuditQuery = z.infer<typeof AuditQuerySchema>;

export const AuditRowSchema = z.object({
  id: z.number().int(),
  createdAt: z.string(),
  actorEmail: z.string(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string().nullable(),
  targetLabel: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  ipAddress: z.string().nullable(),
});
export type AuditRow = z.infer<typeof AuditRowSchema>;
export const AuditPageSchema = z.object({ rows: z.array(AuditRowSchema), total: z.number().int() });
export type AuditPage = z.infer<typeof AuditPageSchema>;

/* ---------- sessions ---------- */

export const OpenSessionsQuerySchema = z.object({ q: z.string().trim().max(254).optional(), ...Page });
export const OpenSessionSchema = z.object({
  sessionId: z.string(),
  userId: z.number().int(),
  email: z.string(),
  ipAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
  startedAt: z.string(),
  lastActivityAt: z.string(),
  /** The caller's own session (closing it is refused: log out instead). */
  current: z.boolean(),
});
export type OpenSession = z.infer<typeof OpenSessionSchema>;
export const OpenSessionsSchema = z.object({ rows: z.array(OpenSessionSchema), total: z.number().int() });
export type OpenSessions = z.infer<typeof OpenSessionsSchema>;
export const SessionIdParamsSchema = z.object({ sessionId: z.uuid('Not a session id.') });

/* ---------- data set ---------- */

export const RebuildJobSchema = z.object({
  state: z.enum(['idle', 'running', 'done', 'failed']),
  /** The step running now (or the last one), e.g. "Autocomplete terms". */
  step: z.string().nullable(),
  /** 0–100. */
  percent: z.number(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  startedBy: z.string().nullable(),
  /** What each finished step did. */
  log: z.array(z.string()),
  error: z.string().nullable(),
});
export type RebuildJob = z.infer<typeof RebuildJobSchema>;

export const DatasetStateSchema = z.object({
  /** What is loaded: `demo-S`, a ChEMBL release, `empty`. */
  label: z.string(),
  sources: z.array(z.object({ name: z.string(), isDemo: z.boolean() })),
  /** Rows of the main tables. Big tables on a server are the planner's estimate (`estimated`). */
  counts: z.array(z.object({ table: z.string(), rows: z.number().int(), estimated: z.boolean() })),
  /** Last seed or import step recorded (kb_load_checkpoints). */
  lastLoadAt: z.string().nullable(),
  structureIndex: z.object({
    structures: z.number().int(),
    withMorganFingerprint: z.number().int(),
    withPatternFingerprint: z.number().int(),
    withScaffold: z.number().int(),
    /** The search engine of this server process: idle until the first structure search. */
    engine: z.object({ state: z.string(), loaded: z.number().int(), total: z.number().int() }),
  }),
  treesRefreshedAt: z.string().nullable(),
  lookupEntries: z.number().int(),
  rebuild: RebuildJobSchema,
});
export type DatasetState = z.infer<typeof DatasetStateSchema>;

/* ---------- settings ---------- */

/** Each run-time setting with its bounds (the server validates with these, the page shows them). */
export const SETTING_BOUNDS = {
  loginPerAccountAddress: { min: 1, max: 100, label: 'Wrong passwords per account and address', unit: 'attempts' },
  loginPerAddress: { min: 1, max: 1000, label: 'Wrong passwords per address (any accounts)', unit: 'attempts' },
  loginWindowMinutes: { min: 1, max: 1440, label: 'Window of those two limits', unit: 'minutes' },
  loginPerAccount: { min: 1, max: 10_000, label: 'Wrong passwords per account (all addresses)', unit: 'attempts' },
  loginAccountWindowMinutes: { min: 1, max: 10_080, label: 'Window of the per-account limit', unit: 'minutes' },
  loginKnownAddressDays: { min: 0, max: 365, label: 'An address stays known for', unit: 'days' },
  exportBackgroundFromRows: { min: 1, max: MAX_EXPORT_ROWS, label: 'Exports run in the background from', unit: 'rows' },
} as const;
export type SettingKey = keyof typeof SETTING_BOUNDS;
export const SETTING_KEYS = Object.keys(SETTING_BOUNDS) as SettingKey[];

function bounded(key: SettingKey) {
  const { min, max, label } = SETTING_BOUNDS[key];
  const range = `${label}: a whole number from ${min.toLocaleString('en-GB')} to ${max.toLocaleString('en-GB')}.`;
  return z.number(range).int(range).min(min, range).max(max, range);
}

export const RuntimeSettingsSchema = z.object(
  Object.fromEntries(SETTING_KEYS.map((key) => [key, bounded(key)])) as { [K in SettingKey]: ReturnType<typeof bounded> },
);
export type RuntimeSettings = z.infer<typeof RuntimeSettingsSchema>;
export const SettingsUpdateSchema = RuntimeSettingsSchema.partial().refine((value) => Object.keys(value).length > 0, {
  message: 'Change at least one setting.',
});
export type SettingsUpdate = z.infer<typeof SettingsUpdateSchema>;

export const SettingsStateSchema = z.object({
  values: RuntimeSettingsSchema,
  /** The server's configured values (environment or built-in), used when a setting was never changed. */
  defaults: RuntimeSettingsSchema,
  mail: z.object({
    smtpConfigured: z.boolean(),
    from: z.string(),
    outboxPending: z.number().int(),
    outboxFailed: z.number().int(),
  }),
});
export type SettingsState = z.infer<typeof SettingsStateSchema>;
export const MessageSchema = z.object({ message: z.string() });

/* ---------- endpoints ---------- */

export const superAdminEndpoints = {
  adminRoles: defineEndpoint({
    method: 'GET',
    path: '/api/superadmin/admin-roles',
    access: SUPER,
    summary: 'Holders of GOSTAR_ADMIN, FLAT_FILE_ADMIN and SUPER_ADMIN whose period has not ended.',
    response: AdminRoleHoldersSchema,
  }),
  findUsers: defineEndpoint({
    method: 'GET',
    path: '/api/superadmin/users',
    access: SUPER,
    summary: 'Users whose e-mail address contains the text (at most 20), to grant an admin role to.',
    query: UserSearchQuerySchema,
    response: UserSearchResultSchema,
  }),
  grantAdminRole: defineEndpoint({
    method: 'POST',
    path: '/api/superadmin/admin-roles',
    access: SUPER,
    summary: 'Grants an admin role to a user until an end date; it applies from the user’s next request.',
    body: AdminRoleGrantSchema,
    response: AdminRoleHolderSchema,
  }),
  revokeAdminRole: defineEndpoint({
    method: 'POST',
    path: '/api/superadmin/admin-roles/:subscriptionId/revoke',
    access: SUPER,
    summary: 'Ends an admin role now; the last super admin cannot be revoked.',
    params: SubscriptionIdParamsSchema,
    response: MessageSchema,
  }),
  audit: defineEndpoint({
    method: 'GET',
    path: '/api/superadmin/audit',
    access: SUPER,
    summary: 'The audit log, newest first: searched by text, actor, action, target and date range; paged.',
    query: AuditQuerySchema,
    response: AuditPageSchema,
  }),
  sessions: defineEndpoint({
    method: 'GET',
    path: '/api/superadmin/sessions',
    access: SUPER,
    summary: 'Open sessions of every user (user, address, browser, start, last activity), most recently active first.',
    query: OpenSessionsQuerySchema,
    response: OpenSessionsSchema,
  }),
  closeSession: defineEndpoint({
    method: 'POST',
    path: '/api/superadmin/sessions/:sessionId/close',
    access: SUPER,
    summary: 'Closes a session: its next request is refused (401).',
    params: SessionIdParamsSchema,
    response: MessageSchema,
  }),
  dataset: defineEndpoint({
    method: 'GET',
    path: '/api/superadmin/dataset',
    access: SUPER,
    summary: 'What data set is loaded, row counts, last load, structure-index state and the derived-data rebuild.',
    response: DatasetStateSchema,
  }),
  rebuild: defineEndpoint({
    method: 'POST',
    path: '/api/superadmin/dataset/rebuild',
    access: SUPER,
    summary: 'Starts rebuilding the derived data (autocomplete terms, tree counts, structure index) in the background; 409 while one runs.',
    response: RebuildJobSchema,
  }),
  rebuildStatus: defineEndpoint({
    method: 'GET',
    path: '/api/superadmin/dataset/rebuild',
    access: SUPER,
    summary: 'Progress of the derived-data rebuild.',
    response: RebuildJobSchema,
    touchesSession: false,
  }),
  settings: defineEndpoint({
    method: 'GET',
    path: '/api/superadmin/settings',
    access: SUPER,
    summary: 'Run-time settings (login limits, export background threshold) with their defaults, and the mail state.',
    response: SettingsStateSchema,
  }),
  updateSettings: defineEndpoint({
    method: 'PUT',
    path: '/api/superadmin/settings',
    access: SUPER,
    summary: 'Changes run-time settings (each bounded); they apply from the next request, without a restart.',
    body: SettingsUpdateSchema,
    response: SettingsStateSchema,
  }),
  testMail: defineEndpoint({
    method: 'POST',
    path: '/api/superadmin/mail/test',
    access: SUPER,
    summary: 'Sends a test mail to the caller’s own address.',
    response: MessageSchema,
  }),
} as const;

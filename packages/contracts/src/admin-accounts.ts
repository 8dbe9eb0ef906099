import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';
import { RoleSchema } from './roles.ts';

/**
 * Account administration (issue 16, `/admin/subscriptions`, GOSTAR_ADMIN): organisations, users,
 * subscriptions, the credit ledger and bulk onboarding. Every change writes one audit row
 * (docs/administration.md). Dates travel as ISO strings.
 */

const ADMIN = ['GOSTAR_ADMIN'] as const;

/** Largest page of an admin list; the grids page on the server. */
export const ADMIN_MAX_PAGE_SIZE = 200;
/** Largest single credit movement an administrator may enter (either sign). */
export const ADMIN_MAX_CREDIT_DELTA = 10_000_000;
/** Largest bulk-onboarding file (before base64) and its most rows. */
export const ADMIN_IMPORT_MAX_BYTES = 2 * 1024 * 1024;
export const ADMIN_IMPORT_MAX_ROWS = 2_000;

const IsoDate = z.union([z.iso.datetime({ offset: true }), z.iso.date()], {
  error: 'Enter a date as YYYY-MM-DD (a day of the calendar) or an ISO date-time.',
});
const Email = z.string().trim().toLowerCase().max(254).pipe(z.email('Enter a valid e-mail address.'));
const Name = z.string().trim().max(100);
const Reason = z.string().trim().min(1, 'Give a reason: it is kept in the ledger and the audit log.').max(500);

export const PageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(ADMIN_MAX_PAGE_SIZE).default(50),
});

/* ---------- organisations ---------- */

export const OrganisationSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** Seats bought; null when not limited. */
  seats: z.number().int().nullable(),
  contactEmail: z.string().nullable(),
  notes: z.string(),
  active: z.boolean(),
  users: z.number().int(),
  /**
   * Seats taken: its users whose account is not deactivated, invited ones included (a seat is
   * reserved when the account is made). The figure the seat limit is checked against.
   */
  activeUsers: z.number().int(),
  creditBalance: z.number().int(),
  /** Earliest end date among the running subscriptions of its users. */
  nextEndDate: z.string().nullable(),
  createdAt: z.string(),
});
export type Organisation = z.infer<typeof OrganisationSchema>;

export const OrganisationListQuerySchema = PageQuerySchema.extend({ q: z.string().trim().max(200).optional() });
export const OrganisationListSchema = z.object({ rows: z.array(OrganisationSchema), total: z.number().int() });
export type OrganisationList = z.infer<typeof OrganisationListSchema>;

export const OrganisationInputSchema = z.object({
  name: z.string().trim().min(1, 'Name the organisation.').max(200),
  seats: z.number().int().min(1).max(100_000).nullable().optional(),
  contactEmail: Email.nullable().optional(),
  notes: z.string().trim().max(2000).optional(),
});
export type OrganisationInput = z.infer<typeof OrganisationInputSchema>;
export const OrganisationUpdateSchema = OrganisationInputSchema.partial().extend({ active: z.boolean().optional() });
export type OrganisationUpdate = z.infer<typeof OrganisationUpdateSchema>;
export const OrganisationIdParams = z.object({ organisationId: z.coerce.number().int().positive() });

/* ---------- users and subscriptions ---------- */

/** Derived from the dates: scheduled (starts later), active, ended. */
export const SubscriptionStatusSchema = z.enum(['scheduled', 'active', 'ended']);
export type SubscriptionStatus = z.infer<typeof SubscriptionStatusSchema>;

export const AdminSubscriptionSchema = z.object({
  id: z.number().int(),
  roleName: RoleSchema,
  contractId: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  havingFlatFileAccess: z.boolean(),
  status: SubscriptionStatusSchema,
  /** When an administrator ended it early; null otherwise. */
  endedAt: z.string().nullable(),
});
export type AdminSubscription = z.infer<typeof AdminSubscriptionSchema>;

export const AccountStateSchema = z.enum(['active', 'invited', 'deactivated']);
export const AdminUserSchema = z.object({
  userId: z.number().int(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  organisationId: z.number().int().nullable(),
  organisationName: z.string().nullable(),
  /** invited: the account has no password yet (the link was not used). */
  state: AccountStateSchema,
  creditBalance: z.number().int(),
  lastLoginAt: z.string().nullable(),
  openSessions: z.number().int(),
  /** The login limits currently refuse this address (docs/security.md). */
  lockedOut: z.boolean(),
  subscriptions: z.array(AdminSubscriptionSchema),
  createdAt: z.string(),
});
export type AdminUser = z.infer<typeof AdminUserSchema>;

/** The list filter: `expiring` = active and ending within 30 days; `none` = no subscription running. */
export const AdminUserStatusFilterSchema = z.enum(['active', 'expiring', 'ended', 'none', 'deactivated', 'invited']);
export const AdminUserSortSchema = z.enum(['email', 'name', 'organisation', 'endDate', 'lastLogin', 'credits', 'created']);
export const AdminUserListQuerySchema = PageQuerySchema.extend({
  q: z.string().trim().max(200).optional(),
  organisationId: z.coerce.number().int().positive().optional(),
  role: RoleSchema.optional(),
  status: AdminUserStatusFilterSchema.optional(),
  sort: AdminUserSortSchema.default('email'),
  direction: z.enum(['asc', 'desc']).default('asc'),
});
export type AdminUserListQuery = z.infer<typeof AdminUserListQuerySchema>;
export const AdminUserListSchema = z.object({ rows: z.array(AdminUserSchema), total: z.number().int() });
export type AdminUserList = z.infer<typeof AdminUserListSchema>;
export const UserIdParams = z.object({ userId: z.coerce.number().int().positive() });

export const SubscriptionGrantSchema = z.object({
  role: RoleSchema,
  /** Defaults to now. */
  startDate: IsoDate.optional(),
  endDate: IsoDate,
  contractId: z.string().trim().max(100).optional(),
  havingFlatFileAccess: z.boolean().optional(),
});
export type SubscriptionGrant = z.infer<typeof SubscriptionGrantSchema>;

export const UserCreateSchema = z.object({
  email: Email,
  firstName: Name.min(1, 'Enter a first name.'),
  lastName: Name.min(1, 'Enter a last name.'),
  organisationId: z.number().int().positive().nullable().optional(),
  /** Mail the registration link now (otherwise send it later with `sendPasswordLink`). */
  invite: z.boolean().default(true),
  subscription: SubscriptionGrantSchema.optional(),
  /** Opening credits, written to the ledger as a grant. */
  credits: z.number().int().min(1).max(ADMIN_MAX_CREDIT_DELTA).optional(),
});
export type UserCreate = z.infer<typeof UserCreateSchema>;
export const UserUpdateSchema = z.object({
  firstName: Name.min(1).optional(),
  lastName: Name.min(1).optional(),
  organisationId: z.number().int().positive().nullable().optional(),
});
export type UserUpdate = z.infer<typeof UserUpdateSchema>;

export const UserActionSchema = z.object({
  action: z.enum(['deactivate', 'reactivate', 'closeSessions', 'sendPasswordLink', 'liftLockout']),
});
export type UserAction = z.infer<typeof UserActionSchema>;
export const UserActionResultSchema = z.object({ message: z.string(), user: AdminUserSchema });

export const SubscriptionIdParams = z.object({ subscriptionId: z.coerce.number().int().positive() });
/** Renew or extend: new dates (end after start), contract or flat-file flag. */
export const SubscriptionUpdateSchema = z.object({
  startDate: IsoDate.optional(),
  endDate: IsoDate.optional(),
  contractId: z.string().trim().max(100).optional(),
  havingFlatFileAccess: z.boolean().optional(),
});
export type SubscriptionUpdate = z.infer<typeof SubscriptionUpdateSchema>;
export const SubscriptionEndSchema = z.object({ reason: z.string().trim().max(500).optional() });

/* ---------- credits ---------- */

export const CreditKindSchema = z.enum(['opening', 'grant', 'export', 'refund', 'adjustment']);
export type CreditKind = z.infer<typeof CreditKindSchema>;
export const CreditEntrySchema = z.object({
  id: z.number().int(),
  delta: z.number().int(),
  kind: CreditKindSchema,
  reason: z.string(),
  /** Who made the movement (null for exports, which the user's own download makes). */
  actorEmail: z.string().nullable(),
  exportJobId: z.number().int().nullable(),
  balanceAfter: z.number().int(),
  createdAt: z.string(),
});
export type CreditEntry = z.infer<typeof CreditEntrySchema>;
export const CreditLedgerSchema = z.object({ balance: z.number().int(), rows: z.array(CreditEntrySchema), total: z.number().int() });
export type CreditLedger = z.infer<typeof CreditLedgerSchema>;
/** A grant adds; an adjustment may add or take away (never below zero). */
export const CreditChangeSchema = z.object({
  kind: z.enum(['grant', 'adjustment']),
  delta: z
    .number('Credits must be a whole number.')
    .int('Credits must be a whole number.')
    .refine((n) => n !== 0, 'Credits must not be zero.')
    .refine((n) => Math.abs(n) <= ADMIN_MAX_CREDIT_DELTA, `At most ${ADMIN_MAX_CREDIT_DELTA.toLocaleString('en-GB')} credits at once.`),
  reason: Reason,
});
export type CreditChange = z.infer<typeof CreditChangeSchema>;

/* ---------- bulk onboarding ---------- */

/**
 * A CSV or XLSX file with a header row: email, first name, last name, organisation, role, start
 * date, end date, credits, invite (yes/no). Every row is checked first; if any is wrong nothing is
 * created and the report says which rows and why.
 */
export const UserImportRequestSchema = z.object({
  fileName: z.string().trim().min(1).max(300),
  contentBase64: z.string().max(Math.ceil((ADMIN_IMPORT_MAX_BYTES * 4) / 3) + 8, 'An onboarding file may be at most 2 MB.'),
  /** Check and report only. */
  dryRun: z.boolean().default(false),
});
export type UserImportRequest = z.infer<typeof UserImportRequestSchema>;
export const UserImportRowSchema = z.object({
  /** 1-based line of the file (the header is line 1). */
  line: z.number().int(),
  email: z.string(),
  status: z.enum(['created', 'ready', 'error']),
  message: z.string(),
});
export const UserImportReportSchema = z.object({
  created: z.number().int(),
  errors: z.number().int(),
  rows: z.array(UserImportRowSchema),
});
export type UserImportReport = z.infer<typeof UserImportReportSchema>;

/* ---------- endpoints ---------- */

export const adminAccountEndpoints = {
  organisations: defineEndpoint({
    method: 'GET',
    path: '/api/admin/organisations',
    access: ADMIN,
    summary: 'Organisations (clients) with their seats, users, credits and next end date; searched and paged on the server.',
    query: OrganisationListQuerySchema,
    response: OrganisationListSchema,
  }),
  createOrganisation: defineEndpoint({
    method: 'POST',
    path: '/api/admin/organisations',
    access: ADMIN,
    summary: 'Creates an organisation (names are unique, ignoring case).',
    body: OrganisationInputSchema,
    response: OrganisationSchema,
  }),
  updateOrganisation: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/organisations/:organisationId',
    access: ADMIN,
    summary: 'Edits an organisation (name, seats, contact, notes, active).',
    params: OrganisationIdParams,
    body: OrganisationUpdateSchema,
    response: OrganisationSchema,
  }),
  users: defineEndpoint({
    method: 'GET',
    path: '/api/admin/users',
    access: ADMIN,
    summary: 'Users with their organisation, subscriptions, credits and state; searched, filtered, sorted and paged on the server.',
    query: AdminUserListQuerySchema,
    response: AdminUserListSchema,
  }),
  user: defineEndpoint({
    method: 'GET',
    path: '/api/admin/users/:userId',
    access: ADMIN,
    summary: 'One user as the list shows them.',
    params: UserIdParams,
    response: AdminUserSchema,
  }),
  createUser: defineEndpoint({
    method: 'POST',
    path: '/api/admin/users',
    access: ADMIN,
    summary: 'Creates a user, optionally with a subscription and opening credits, and mails the registration link.',
    body: UserCreateSchema,
    response: AdminUserSchema,
  }),
  updateUser: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/users/:userId',
    access: ADMIN,
    summary: 'Edits a user’s name or organisation.',
    params: UserIdParams,
    body: UserUpdateSchema,
    response: AdminUserSchema,
  }),
  userAction: defineEndpoint({
    method: 'POST',
    path: '/api/admin/users/:userId/actions',
    access: ADMIN,
    summary: 'Deactivates or reactivates an account, closes its sessions, mails a password link or lifts a login lock-out.',
    params: UserIdParams,
    body: UserActionSchema,
    response: UserActionResultSchema,
  }),
  grantSubscription: defineEndpoint({
    method: 'POST',
    path: '/api/admin/users/:userId/subscriptions',
    access: ADMIN,
    summary: 'Grants a subscription (role, start, end) to a user.',
    params: UserIdParams,
    body: SubscriptionGrantSchema,
    response: AdminUserSchema,
  }),
  updateSubscription: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/subscriptions/:subscriptionId',
    access: ADMIN,
    summary: 'Renews or extends a subscription: new dates, contract or flat-file access.',
    params: SubscriptionIdParams,
    body: SubscriptionUpdateSchema,
    response: AdminUserSchema,
  }),
  endSubscription: defineEndpoint({
    method: 'POST',
    path: '/api/admin/subscriptions/:subscriptionId/end',
    access: ADMIN,
    summary: 'Ends a subscription now; a user left without a running subscription has their sessions closed at once.',
    params: SubscriptionIdParams,
    body: SubscriptionEndSchema,
    response: AdminUserSchema,
  }),
  credits: defineEndpoint({
    method: 'GET',
    path: '/api/admin/users/:userId/credits',
    access: ADMIN,
    summary: 'A user’s credit ledger, newest first, with the balance (the sum of the ledger).',
    params: UserIdParams,
    query: PageQuerySchema,
    response: CreditLedgerSchema,
  }),
  changeCredits: defineEndpoint({
    method: 'POST',
    path: '/api/admin/users/:userId/credits',
    access: ADMIN,
    summary: 'Adds or adjusts a user’s credits with a reason (never below zero).',
    params: UserIdParams,
    body: CreditChangeSchema,
    response: CreditLedgerSchema,
  }),
  importUsers: defineEndpoint({
    method: 'POST',
    path: '/api/admin/users/import',
    access: ADMIN,
    summary: 'Bulk onboarding from a CSV or XLSX file: checks every row, then creates all or none, with a row-by-row report.',
    body: UserImportRequestSchema,
    response: UserImportReportSchema,
    bodyLimit: 4 * 1024 * 1024,
  }),
} as const;

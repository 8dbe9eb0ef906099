import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';

/**
 * Usage dashboards (issue 16): `/admin/dashboard` (GOSTAR_ADMIN: the whole platform over a period)
 * and `/admin/client-dashboard` (any logged-in user: their organisation; administrators pick any).
 * Plus the product-analytics settings the web app reads after login (spec §7 pendodetails).
 * Days are UTC calendar days; dates travel as `YYYY-MM-DD`, instants as ISO strings.
 */

/** The period presets of both dashboards, in days. */
export const USAGE_PRESETS = { '7d': 7, '30d': 30, '90d': 90, '1y': 365 } as const;
export type UsagePreset = keyof typeof USAGE_PRESETS;
export const USAGE_PRESET_LABELS: Readonly<Record<UsagePreset, string>> = {
  '7d': '7 days',
  '30d': '30 days',
  '90d': '90 days',
  '1y': '1 year',
};
/** The longest period either dashboard answers (two years, leap day included). */
export const USAGE_MAX_DAYS = 731;
/** Rows of the "ending soon" list; the counts above it cover every subscription. */
export const USAGE_ENDING_SOON_ROWS = 200;
/** Organisations listed as the most active. */
export const USAGE_TOP_ORGANISATIONS = 10;
/** Addresses listed with the most failed logins. */
export const USAGE_TOP_ADDRESSES = 10;

const DAY_MS = 86_400_000;
const Day = z.iso.date('Give dates as YYYY-MM-DD.');

/** Days from `from` to `to`, both included (UTC calendar days). */
export function periodDays(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

/** The UTC day `days - 1` before `to`, so that the period holds `days` days ending on `to`. */
export function periodStart(to: string, days: number): string {
  return new Date(Date.parse(`${to}T00:00:00Z`) - (days - 1) * DAY_MS).toISOString().slice(0, 10);
}

const PeriodFields = {
  period: z.enum(['7d', '30d', '90d', '1y']).optional(),
  from: Day.optional(),
  to: Day.optional(),
};

/** The rules of a period: a preset, or both dates in order and at most USAGE_MAX_DAYS days apart. */
function checkPeriod(
  query: { period?: string | undefined; from?: string | undefined; to?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  if (query.period && (query.from || query.to)) {
    ctx.addIssue({ code: 'custom', message: 'Give either a period or from and to, not both.', path: ['period'] });
    return;
  }
  if ((query.from === undefined) !== (query.to === undefined)) {
    ctx.addIssue({ code: 'custom', message: 'Give both from and to.', path: [query.from ? 'to' : 'from'] });
    return;
  }
  if (query.from && query.to) {
    const days = periodDays(query.from, query.to);
    if (days < 1) ctx.addIssue({ code: 'custom', message: 'The start date is after the end date.', path: ['from'] });
    else if (days > USAGE_MAX_DAYS)
      ctx.addIssue({ code: 'custom', message: `A period may be at most ${USAGE_MAX_DAYS} days (two years).`, path: ['to'] });
    else if (query.from < '2000-01-01') ctx.addIssue({ code: 'custom', message: 'Start on 1 January 2000 or later.', path: ['from'] });
  }
}

/**
 * A period: a preset ending today, or `from` and `to` (both, at most USAGE_MAX_DAYS days, `from`
 * not after `to`). With neither, the last 30 days.
 */
export const UsagePeriodQuerySchema = z.object(PeriodFields).superRefine(checkPeriod);
export type UsagePeriodQuery = z.infer<typeof UsagePeriodQuerySchema>;

export const UsagePeriodSchema = z.object({
  from: z.string(),
  to: z.string(),
  days: z.number().int(),
});
export type UsagePeriod = z.infer<typeof UsagePeriodSchema>;

/* ---------- admin dashboard ---------- */

export const UsageDaySchema = z.object({
  day: z.string(),
  /** Distinct users with a successful login or an open session that day. */
  activeUsers: z.number().int(),
  logins: z.number().int(),
  failedLogins: z.number().int(),
  searches: z.number().int(),
  exports: z.number().int(),
  /** Credits spent on exports that day, refunds deducted. */
  creditsSpent: z.number().int(),
});
export type UsageDay = z.infer<typeof UsageDaySchema>;

export const UsageTotalsSchema = z.object({
  /** Distinct users active on any day of the period. */
  activeUsers: z.number().int(),
  logins: z.number().int(),
  failedLogins: z.number().int(),
  searches: z.number().int(),
  exports: z.number().int(),
  creditsSpent: z.number().int(),
});
export type UsageTotals = z.infer<typeof UsageTotalsSchema>;

export const EndingSubscriptionSchema = z.object({
  subscriptionId: z.number().int(),
  userId: z.number().int(),
  email: z.string(),
  name: z.string(),
  organisationId: z.number().int().nullable(),
  organisationName: z.string().nullable(),
  role: z.string(),
  endDate: z.string(),
  /** Days left, rounded up: 1 = ends within the next 24 hours. */
  daysLeft: z.number().int(),
});
export type EndingSubscription = z.infer<typeof EndingSubscriptionSchema>;

export const ActiveOrganisationSchema = z.object({
  organisationId: z.number().int(),
  name: z.string(),
  /** Distinct users of the organisation active in the period. */
  activeUsers: z.number().int(),
  logins: z.number().int(),
  searches: z.number().int(),
  exports: z.number().int(),
});
export type ActiveOrganisation = z.infer<typeof ActiveOrganisationSchema>;

export const FailedLoginAddressSchema = z.object({
  /** null when the address was not recorded. */
  ipAddress: z.string().nullable(),
  attempts: z.number().int(),
  /** Distinct user names tried from it. */
  accounts: z.number().int(),
  lastAt: z.string(),
});
export type FailedLoginAddress = z.infer<typeof FailedLoginAddressSchema>;

export const AdminUsageSchema = z.object({
  period: UsagePeriodSchema,
  totals: UsageTotalsSchema,
  /** One row per day of the period, days without activity included. */
  daily: z.array(UsageDaySchema),
  /** Running subscriptions ending within 30 days (counts), soonest first (at most USAGE_ENDING_SOON_ROWS rows). */
  endingSoon: z.object({
    within7Days: z.number().int(),
    within30Days: z.number().int(),
    rows: z.array(EndingSubscriptionSchema),
  }),
  /** Organisations by logins + searches + exports in the period, at most USAGE_TOP_ORGANISATIONS. */
  topOrganisations: z.array(ActiveOrganisationSchema),
  /** Addresses with the most failed logins in the period, at most USAGE_TOP_ADDRESSES. */
  failedLoginAddresses: z.array(FailedLoginAddressSchema),
});
export type AdminUsage = z.infer<typeof AdminUsageSchema>;

/* ---------- client dashboard ---------- */

export const ClientDashboardQuerySchema = z
  .object({
    ...PeriodFields,
    /** Administrators (GOSTAR_ADMIN, SUPER_ADMIN) may name any organisation; others only their own. */
    organisationId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  })
  .superRefine(checkPeriod);
export type ClientDashboardQuery = z.infer<typeof ClientDashboardQuerySchema>;

export const ClientSubscriptionSchema = z.object({
  role: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  status: z.enum(['scheduled', 'active', 'ended']),
});

export const ClientUserSchema = z.object({
  userId: z.number().int(),
  email: z.string(),
  name: z.string(),
  /** false when the account is deactivated. */
  active: z.boolean(),
  creditBalance: z.number().int(),
  lastLoginAt: z.string().nullable(),
  subscriptions: z.array(ClientSubscriptionSchema),
});
export type ClientUser = z.infer<typeof ClientUserSchema>;

export const ClientWeekSchema = z.object({
  /** The Monday the week starts on (weeks cut by the period start at the period's first day). */
  week: z.string(),
  logins: z.number().int(),
  searches: z.number().int(),
  exports: z.number().int(),
});
export type ClientWeek = z.infer<typeof ClientWeekSchema>;

export const ClientDashboardSchema = z.object({
  /** null: the caller belongs to no organisation (and named none). */
  organisation: z
    .object({
      id: z.number().int(),
      name: z.string(),
      /** Seats bought; null when not limited. */
      seats: z.number().int().nullable(),
      active: z.boolean(),
    })
    .nullable(),
  period: UsagePeriodSchema,
  seats: z.object({
    users: z.number().int(),
    /** Users with a subscription running now on an active account. */
    activeUsers: z.number().int(),
    /** Accounts not deactivated, invited ones included: what takes a seat (docs/administration.md). */
    seatsTaken: z.number().int(),
    seats: z.number().int().nullable(),
  }),
  credits: z.object({
    /** Opening balances and grants, all time. */
    granted: z.number().int(),
    /** Exports, refunds deducted, all time. */
    spent: z.number().int(),
    /** Administrators' adjustments (either sign), all time. */
    adjusted: z.number().int(),
    /** Exports in the period, refunds deducted. */
    spentInPeriod: z.number().int(),
    /** The users' balances now. */
    balance: z.number().int(),
  }),
  users: z.array(ClientUserSchema),
  trend: z.array(ClientWeekSchema),
});
export type ClientDashboard = z.infer<typeof ClientDashboardSchema>;

export const ClientOrganisationsQuerySchema = z.object({ q: z.string().trim().max(200).optional() });
export const ClientOrganisationOptionSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  users: z.number().int(),
  active: z.boolean(),
});
export type ClientOrganisationOption = z.infer<typeof ClientOrganisationOptionSchema>;
/** Most organisations one picker answer lists (the search narrows them). */
export const CLIENT_ORGANISATION_OPTIONS = 50;
export const ClientOrganisationsSchema = z.object({ rows: z.array(ClientOrganisationOptionSchema), total: z.number().int() });
export type ClientOrganisations = z.infer<typeof ClientOrganisationsSchema>;

/** Roles that may open any organisation's client dashboard. */
export const CLIENT_DASHBOARD_ADMIN_ROLES = ['GOSTAR_ADMIN', 'SUPER_ADMIN'] as const;

/* ---------- product analytics (spec §7 pendodetails) ---------- */

export const PendoDetailsSchema = z.discriminatedUnion('enabled', [
  z.object({ enabled: z.literal(false) }),
  z.object({
    enabled: z.literal(true),
    apiKey: z.string(),
    /** The agent script's URL (its host is the one the Content-Security-Policy allows). */
    agentUrl: z.string(),
    /** The user's hash id (never the e-mail). */
    visitorId: z.string(),
    /** The user's organisation id; null without one. */
    accountId: z.string().nullable(),
  }),
]);
export type PendoDetails = z.infer<typeof PendoDetailsSchema>;

/* ---------- endpoints ---------- */

export const usageEndpoints = {
  adminUsage: defineEndpoint({
    method: 'GET',
    path: '/api/admin/usage',
    access: ['GOSTAR_ADMIN'],
    summary:
      'Platform usage over a period: active users, logins, searches, exports and credits per day, subscriptions ending soon, the most active organisations, failed logins.',
    query: UsagePeriodQuerySchema,
    response: AdminUsageSchema,
  }),
  clientDashboard: defineEndpoint({
    method: 'GET',
    path: '/api/admin/client-dashboard',
    access: 'authenticated',
    summary: 'An organisation’s seats, users, subscriptions, credits and weekly usage: the caller’s own, or any for an administrator.',
    query: ClientDashboardQuerySchema,
    response: ClientDashboardSchema,
  }),
  clientOrganisations: defineEndpoint({
    method: 'GET',
    path: '/api/admin/client-dashboard/organisations',
    access: CLIENT_DASHBOARD_ADMIN_ROLES,
    summary: 'Organisations an administrator may open on the client dashboard, searched by name.',
    query: ClientOrganisationsQuerySchema,
    response: ClientOrganisationsSchema,
  }),
  pendoDetails: defineEndpoint({
    method: 'GET',
    path: '/api/dashboard/pendodetails/fetch',
    access: 'authenticated',
    summary: 'Product-analytics settings: off unless configured; when on, the key, the agent URL and the visitor and account ids.',
    response: PendoDetailsSchema,
  }),
} as const;

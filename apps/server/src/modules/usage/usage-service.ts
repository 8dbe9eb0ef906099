import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type {
  AdminUsage,
  ClientDashboard,
  ClientOrganisations,
  PendoDetails,
  UsagePeriod,
  UsagePeriodQuery,
} from '@kb/contracts/admin-usage';
import {
  CLIENT_DASHBOARD_ADMIN_ROLES,
  CLIENT_ORGANISATION_OPTIONS,
  USAGE_ENDING_SOON_ROWS,
  USAGE_PRESETS,
  USAGE_TOP_ADDRESSES,
  USAGE_TOP_ORGANISATIONS,
  periodDays,
  periodStart,
} from '@kb/contracts/admin-usage';
import type { Role } from '@kb/contracts/roles';
import type { Database } from '../../db/schema.ts';
import type { AuthContext } from '../../http/auth-hook.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import type { PeriodBounds } from './usage-queries.ts';
import {
  dailyEvents,
  dailyLogins,
  periodActiveUsers,
  sessionOnlyDays,
  endingSoon,
  failedLoginAddresses,
  organisationById,
  organisationCredits,
  organisationOfUser,
  organisationSeats,
  organisationTrend,
  organisationUsers,
  searchOrganisations,
  topOrganisations,
} from './usage-queries.ts';

/** Users one client-dashboard answer lists (the seat counts cover all of them). */
const CLIENT_USER_ROWS = 1000;

/** The product-analytics settings (config.ts `pendo`): off without an API key. */
export interface PendoConfig {
  apiKey: string | undefined;
  /** Host of the agent script, e.g. cdn.pendo.io. */
  agentHost: string;
}

const DEFAULT_DAYS = USAGE_PRESETS['30d'];

/** The period a query asks for, as days and instants; presets end today (UTC). */
function resolvePeriod(query: UsagePeriodQuery, now: Date = new Date()): PeriodBounds & UsagePeriod {
  const today = now.toISOString().slice(0, 10);
  const to = query.to ?? today;
  const from = query.from ?? periodStart(to, query.period ? USAGE_PRESETS[query.period] : DEFAULT_DAYS);
  const start = new Date(`${from}T00:00:00Z`);
  const end = new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000);
  return { from, to, days: periodDays(from, to), start, end };
}

const fullName = (first: string, last: string) => `${first} ${last}`.trim();
const isAdmin = (roles: readonly Role[]) => roles.some((role) => (CLIENT_DASHBOARD_ADMIN_ROLES as readonly Role[]).includes(role));

/** The usage dashboards and the analytics settings: access beyond the endpoint's own rule is checked here. */
export class UsageService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly pendo: PendoConfig,
  ) {}

  /**
   * Runs one read without JIT compilation — the optimiser prices a year's aggregates high enough to
   * compile them, which cost more than the statements themselves (as in the results module) — and
   * with memory to group a year of rows without spilling to disk.
   */
  private read<T>(run: (db: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      await sql`SET LOCAL jit = off`.execute(trx);
      await sql`SET LOCAL work_mem = '32MB'`.execute(trx);
      return run(trx);
    });
  }

  async adminUsage(query: UsagePeriodQuery): Promise<AdminUsage> {
    const period = resolvePeriod(query);
    // Independent statements: on a server they run side by side on the pool.
    const [logins, sessionOnly, events, activeUsers, ending, organisations, addresses] = await Promise.all([
      this.read((db) => dailyLogins(db, period)),
      this.read((db) => sessionOnlyDays(db, period)),
      this.read((db) => dailyEvents(db, period)),
      this.read((db) => periodActiveUsers(db, period)),
      this.read((db) => endingSoon(db, USAGE_ENDING_SOON_ROWS)),
      this.read((db) => topOrganisations(db, period, USAGE_TOP_ORGANISATIONS)),
      this.read((db) => failedLoginAddresses(db, period, USAGE_TOP_ADDRESSES)),
    ]);
    // Both lists hold every day of the period in order; session-only users are listed for their days only.
    const sessionUsers = new Map(sessionOnly.map((row) => [row.day, row.users]));
    const daily = logins.map((row, index) => ({
      ...row,
      ...events[index]!,
      day: row.day,
      active_users: row.logged_in + (sessionUsers.get(row.day) ?? 0),
    }));
    const sum = (pick: (row: (typeof daily)[number]) => number) => daily.reduce((total, row) => total + pick(row), 0);
    return {
      period: { from: period.from, to: period.to, days: period.days },
      totals: {
        activeUsers,
        logins: sum((r) => r.logins),
        failedLogins: sum((r) => r.failed_logins),
        searches: sum((r) => r.searches),
        exports: sum((r) => r.exports),
        creditsSpent: sum((r) => r.credits_spent),
      },
      daily: daily.map((r) => ({
        day: r.day,
        activeUsers: r.active_users,
        logins: r.logins,
        failedLogins: r.failed_logins,
        searches: r.searches,
        exports: r.exports,
        creditsSpent: r.credits_spent,
      })),
      endingSoon: {
        within7Days: ending.within7,
        within30Days: ending.within30,
        rows: ending.rows.map((r) => ({
          subscriptionId: r.subscription_id,
          userId: r.user_id,
          email: r.email,
          name: fullName(r.first_name, r.last_name),
          organisationId: r.organisation_id,
          organisationName: r.organisation_name,
          role: r.role_name,
          endDate: r.end_date.toISOString(),
          daysLeft: r.days_left,
        })),
      },
      topOrganisations: organisations.map((r) => ({
        organisationId: r.organisation_id,
        name: r.name,
        activeUsers: r.active_users,
        logins: r.logins,
        searches: r.searches,
        exports: r.exports,
      })),
      failedLoginAddresses: addresses.map((r) => ({
        ipAddress: r.ip_address,
        attempts: r.attempts,
        accounts: r.accounts,
        lastAt: r.last_at.toISOString(),
      })),
    };
  }

  /**
   * The client dashboard of the caller's organisation, or of `organisationId`: another organisation
   * than one's own only for an administrator (403 otherwise, whether or not it exists).
   */
  async clientDashboard(caller: AuthContext, query: UsagePeriodQuery & { organisationId?: number | undefined }): Promise<ClientDashboard> {
    const own = await organisationOfUser(this.db, caller.userId);
    if (query.organisationId !== undefined && query.organisationId !== own && !isAdmin(caller.roles)) {
      throw forbidden('You may only see the dashboard of your own organisation.');
    }
    const period = resolvePeriod(query);
    const periodOut = { from: period.from, to: period.to, days: period.days };
    const target = query.organisationId ?? own;
    if (target === null) {
      return {
        organisation: null,
        period: periodOut,
        seats: { users: 0, activeUsers: 0, seatsTaken: 0, seats: null },
        credits: { granted: 0, spent: 0, adjusted: 0, spentInPeriod: 0, balance: 0 },
        users: [],
        trend: [],
      };
    }
    const organisation = await organisationById(this.db, target);
    if (!organisation) throw notFound(`There is no organisation ${target}.`);
    const [users, seats, credits, trend] = await Promise.all([
      this.read((db) => organisationUsers(db, target, CLIENT_USER_ROWS)),
      this.read((db) => organisationSeats(db, target)),
      this.read((db) => organisationCredits(db, target, period)),
      this.read((db) => organisationTrend(db, target, period)),
    ]);
    return {
      organisation,
      period: periodOut,
      seats: { users: seats.users, activeUsers: seats.active_users, seatsTaken: seats.seats_taken, seats: organisation.seats },
      credits: {
        granted: credits.granted,
        spent: credits.spent,
        adjusted: credits.adjusted,
        spentInPeriod: credits.spent_in_period,
        balance: credits.balance,
      },
      users: users.map((u) => ({
        userId: u.id,
        email: u.email,
        name: fullName(u.first_name, u.last_name),
        active: u.active,
        creditBalance: u.credit_balance,
        lastLoginAt: u.last_login?.toISOString() ?? null,
        subscriptions: u.subscriptions,
      })),
      trend,
    };
  }

  async organisations(q: string | undefined): Promise<ClientOrganisations> {
    const rows = await searchOrganisations(this.db, q || undefined, CLIENT_ORGANISATION_OPTIONS);
    return { rows: rows.map(({ total: _total, ...row }) => row), total: rows[0]?.total ?? 0 };
  }

  /** Off unless an API key is configured; the visitor is the user's hash id, never the e-mail. */
  async pendoDetails(caller: AuthContext): Promise<PendoDetails> {
    if (!this.pendo.apiKey) return { enabled: false };
    const organisation = await organisationOfUser(this.db, caller.userId);
    return {
      enabled: true,
      apiKey: this.pendo.apiKey,
      agentUrl: `https://${this.pendo.agentHost}/agent/static/${encodeURIComponent(this.pendo.apiKey)}/pendo.js`,
      visitorId: caller.userHashId,
      accountId: organisation === null ? null : String(organisation),
    };
  }
}

import type { Kysely, Transaction } from 'kysely';
import type { RuntimeSettings, SettingKey } from '@kb/contracts/superadmin';
import { RuntimeSettingsSchema, SETTING_BOUNDS, SETTING_KEYS } from '@kb/contracts/superadmin';
import type { Database } from '../../db/schema.ts';

/**
 * Run-time settings a super admin changes without a restart (docs/administration.md "Settings"):
 * the login limits and the export background threshold. A changed value is a row of app_settings
 * (`setting:<key>`); a setting never changed answers the configured default (environment or
 * built-in). Reads are cached for a few seconds so a request does not read the table each time;
 * a change made through this object clears the cache at once, other server processes see it
 * within the cache time.
 */

const PREFIX = 'setting:';
/** How long read values are kept (other processes pick up a change within this). */
const SETTINGS_CACHE_MS = 5_000;

export interface LoginLimitSettings {
  perAccountAddress: number;
  perAddress: number;
  windowMinutes: number;
  perAccount: number;
  accountWindowMinutes: number;
  knownAddressDays: number;
}

/** The configured values the settings fall back to. */
export interface SettingDefaults {
  loginLimits: LoginLimitSettings;
  exportBackgroundFromRows: number;
}

function defaultSettings(defaults: SettingDefaults): RuntimeSettings {
  const l = defaults.loginLimits;
  return {
    loginPerAccountAddress: l.perAccountAddress,
    loginPerAddress: l.perAddress,
    loginWindowMinutes: l.windowMinutes,
    loginPerAccount: l.perAccount,
    loginAccountWindowMinutes: l.accountWindowMinutes,
    loginKnownAddressDays: l.knownAddressDays,
    exportBackgroundFromRows: defaults.exportBackgroundFromRows,
  };
}

/** A stored value within its bounds, else undefined (a row edited by hand falls back to the default). */
function parseStored(key: SettingKey, text: string): number | undefined {
  const n = Number(text);
  const { min, max } = SETTING_BOUNDS[key];
  return Number.isInteger(n) && n >= min && n <= max ? n : undefined;
}

export class AppSettings {
  private cached: { at: number; values: RuntimeSettings } | null = null;
  private loading: Promise<RuntimeSettings> | null = null;
  /** Bumped by invalidate(): a read begun before a change must not cache the old values. */
  private generation = 0;
  private readonly defaults: RuntimeSettings;

  constructor(
    private readonly db: Kysely<Database>,
    defaults: SettingDefaults,
    private readonly cacheMs = SETTINGS_CACHE_MS,
  ) {
    this.defaults = defaultSettings(defaults);
  }

  /** The configured values (what a setting never changed answers). */
  configured(): RuntimeSettings {
    return { ...this.defaults };
  }

  /** Every setting as it applies now. */
  async current(): Promise<RuntimeSettings> {
    if (this.cached && Date.now() - this.cached.at < this.cacheMs) return this.cached.values;
    // Requests arriving together share one read.
    if (!this.loading) {
      const loading = this.load().finally(() => {
        if (this.loading === loading) this.loading = null;
      });
      this.loading = loading;
    }
    return this.loading;
  }

  async loginLimits(): Promise<LoginLimitSettings> {
    const s = await this.current();
    return {
      perAccountAddress: s.loginPerAccountAddress,
      perAddress: s.loginPerAddress,
      windowMinutes: s.loginWindowMinutes,
      perAccount: s.loginPerAccount,
      accountWindowMinutes: s.loginAccountWindowMinutes,
      knownAddressDays: s.loginKnownAddressDays,
    };
  }

  async exportBackgroundFromRows(): Promise<number> {
    return (await this.current()).exportBackgroundFromRows;
  }

  /**
   * Writes changed values inside the caller's transaction (with its audit row) and answers the
   * settings before and after. Call `invalidate()` once the transaction has committed.
   */
  async write(trx: Transaction<Database>, changes: Partial<RuntimeSettings>): Promise<{ before: RuntimeSettings; after: RuntimeSettings }> {
    const before = await this.read(trx);
    const after = RuntimeSettingsSchema.parse({ ...before, ...changes });
    for (const key of SETTING_KEYS) {
      if (changes[key] === undefined) continue;
      await trx
        .insertInto('app_settings')
        .values({ key: PREFIX + key, value: String(after[key]) })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: String(after[key]) }))
        .execute();
    }
    return { before, after };
  }

  /** Forgets the cached values: the next read sees the table. */
  invalidate(): void {
    this.generation += 1;
    this.cached = null;
    this.loading = null;
  }

  private async load(): Promise<RuntimeSettings> {
    const generation = this.generation;
    const values = await this.read(this.db);
    if (generation === this.generation) this.cached = { at: Date.now(), values };
    return values;
  }

  private async read(db: Kysely<Database>): Promise<RuntimeSettings> {
    const rows = await db.selectFrom('app_settings').select(['key', 'value']).where('key', 'like', `${PREFIX}%`).execute();
    const values = { ...this.defaults };
    for (const row of rows) {
      const key = row.key.slice(PREFIX.length) as SettingKey;
      if (!(key in SETTING_BOUNDS)) continue;
      const n = parseStored(key, row.value);
      if (n !== undefined) values[key] = n;
    }
    return values;
  }
}

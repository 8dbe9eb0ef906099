import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

const KEY = 'k'.repeat(48);

describe('the server configuration', () => {
  it('listens on loopback only unless HOST names another address', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '::1' }).host).toBe('::1');
  });

  it('has demo accounts only in demo mode on loopback, or when DEMO_ACCOUNTS=on asks', () => {
    expect(loadConfig({}).demoAccounts).toBe(true);
    expect(loadConfig({ HOST: '::1' }).demoAccounts).toBe(true);
    expect(loadConfig({ HOST: '0.0.0.0' }).demoAccounts).toBe(false);
    expect(loadConfig({ HOST: '0.0.0.0', DEMO_ACCOUNTS: 'on' }).demoAccounts).toBe(true);
    expect(loadConfig({ DEMO_ACCOUNTS: 'off' }).demoAccounts).toBe(false);
    // On loopback behind a reverse proxy, or with a public address elsewhere, others reach it.
    expect(loadConfig({ TRUST_PROXY: 'true' }).demoAccounts).toBe(false);
    expect(loadConfig({ PUBLIC_URL: 'https://kb.example.org' }).demoAccounts).toBe(false);
    expect(loadConfig({ PUBLIC_URL: 'http://127.0.0.1:8080' }).demoAccounts).toBe(true);
    // A PostgreSQL server is someone's data: no demo seeding unless asked.
    expect(loadConfig({ DATABASE_URL: 'postgres://db/kb' }).demoAccounts).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/kb', SEED_DEMO: 'true' }).demoAccounts).toBe(true);
  });

  it('starts in production only with MFA_SECRET_KEY and without demo accounts or demo data', () => {
    expect(() => loadConfig({ KB_MODE: 'production' })).toThrow(/needs MFA_SECRET_KEY/);
    expect(() => loadConfig({ KB_MODE: 'production', MFA_SECRET_KEY: 'short' })).toThrow(/at least 32 characters/);
    expect(() => loadConfig({ KB_MODE: 'production', MFA_SECRET_KEY: KEY, DEMO_ACCOUNTS: 'on' })).toThrow(/refuses DEMO_ACCOUNTS=on/);
    const production = loadConfig({ KB_MODE: 'production', MFA_SECRET_KEY: KEY });
    expect(production).toMatchObject({ mode: 'production', demoAccounts: false, seedDemo: false, host: '127.0.0.1' });
    expect(() => loadConfig({ KB_MODE: 'staging' })).toThrow(/KB_MODE must be demo or production/);
  });
});

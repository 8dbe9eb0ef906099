import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_SLUG } from '@kb/contracts/auth';
import { spawnServer } from '../test/server-process.ts';
import type { SpawnedServer } from '../test/server-process.ts';

/*
 * The real server started as an operator starts it (docs/operations.md "Deploying on a network"):
 * without HOST it answers on loopback only; in production it takes no demo accounts, needs
 * MFA_SECRET_KEY, and makes its first super administrator from the one-time set-up token it prints.
 * One embedded database, made from nothing, as on a fresh machine.
 */

const MFA_SECRET_KEY = 'start-safety-test-key-that-is-long-enough-0123456789';

/** The addresses a TCP port is listened on (Linux /proc/net/tcp and tcp6), as hex local addresses. */
function listeningAddresses(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  return ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((file) => {
    if (!fs.existsSync(file)) return [];
    return (
      fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .slice(1)
        .map((line) => line.trim().split(/\s+/))
        // Fields: sl, local_address (ADDR:PORT), rem_address, st (0A = LISTEN), ...
        .filter((fields) => fields[1]?.endsWith(`:${hexPort}`) && fields[3] === '0A')
        .map((fields) => fields[1]!.split(':')[0]!)
    );
  });
}

/** This machine's first address that is not loopback, when it has one. */
function networkAddress(): string | null {
  for (const entries of Object.values(os.networkInterfaces())) {
    for (const entry of entries ?? []) if (entry.family === 'IPv4' && !entry.internal) return entry.address;
  }
  return null;
}

function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 2_000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

describe('a production start without HOST', () => {
  let dataDir: string;
  let logFile: string;
  let server: SpawnedServer | null = null;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-start-'));
    logFile = path.join(dataDir, 'server.log');
    server = await spawnServer({ dataDir, databaseUrl: '', logFile, host: null, env: { KB_MODE: 'production', MFA_SECRET_KEY } });
  }, 240_000);
  afterAll(async () => {
    await server?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  /** The console's lines once the banner is out (it follows listening by a moment). */
  async function consoleLines(): Promise<string> {
    for (let i = 0; i < 100; i += 1) {
      const text = fs.readFileSync(logFile, 'utf8');
      if (text.includes('Second-factor key:')) return text;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return fs.readFileSync(logFile, 'utf8');
  }

  it('listens on loopback only, and says so', async () => {
    const port = server?.port ?? 0;
    expect(listeningAddresses(port)).toEqual(['0100007F']);
    expect(await connects('127.0.0.1', port)).toBe(true);
    const outside = networkAddress();
    if (outside) expect(await connects(outside, port)).toBe(false);
    else console.warn('No network address besides loopback here: only /proc/net/tcp was checked.');
    expect(await consoleLines()).toContain('Listening on 127.0.0.1: this machine only');
  });

  it('says in one line each: production, no demo accounts, the key from MFA_SECRET_KEY, the set-up link', async () => {
    const text = await consoleLines();
    expect(text).toMatch(/^Mode: production \(KB_MODE\)/m);
    expect(text).toMatch(/^Demo accounts: off \(production mode\)/m);
    expect(text).toMatch(/^Second-factor key: MFA_SECRET_KEY, outside the database\./m);
    expect(text).not.toContain('Demo logins');
    expect(text).toMatch(/^First super administrator: open http:\/\/localhost:\d+\/setup#token=[\w-]{32} /m);
  });

  it('makes the first super administrator once from the printed token, who logs in to set up an authenticator', async () => {
    const baseUrl = server?.baseUrl ?? '';
    const token = /#token=([\w-]{32})/.exec(await consoleLines())?.[1] ?? '';
    const post = (url: string, body: object) =>
      fetch(`${baseUrl}${url}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const admin = { email: 'ops@example.org', firstName: 'Ops', lastName: 'Lead', password: 'copper walrus meadow violin 7' };
    expect(await (await fetch(`${baseUrl}/api/pub/setup`)).json()).toEqual({ required: true });
    expect((await post('/api/pub/setup', { ...admin, token })).status).toBe(200);
    expect((await post('/api/pub/setup', { ...admin, token, email: 'other@example.org' })).status).toBe(403);
    expect(await (await fetch(`${baseUrl}/api/pub/setup`)).json()).toEqual({ required: false });

    const login = await post(`/api/pub/${PRODUCT_SLUG}/generate-token`, { username: admin.email, password: admin.password });
    expect(login.status).toBe(200);
    expect(((await login.json()) as { secondFactor: string }).secondFactor).toBe('enrolment_required');
  });
});

describe('a production start that does not hold', () => {
  it.each([
    ['without MFA_SECRET_KEY', { KB_MODE: 'production', MFA_SECRET_KEY: '' }, /Cannot start: KB_MODE=production needs MFA_SECRET_KEY/],
    [
      'with DEMO_ACCOUNTS=on',
      { KB_MODE: 'production', MFA_SECRET_KEY, DEMO_ACCOUNTS: 'on' },
      /Cannot start: KB_MODE=production refuses DEMO_ACCOUNTS=on/,
    ],
  ])(
    'stops %s, saying why in one line',
    async (_, env, message) => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-start-'));
      const logFile = path.join(dataDir, 'server.log');
      try {
        await expect(spawnServer({ dataDir, databaseUrl: '', logFile, env })).rejects.toThrow(/exited \(1\) before answering/);
        expect(fs.readFileSync(logFile, 'utf8')).toMatch(message);
        expect(fs.existsSync(path.join(dataDir, 'db'))).toBe(false);
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});

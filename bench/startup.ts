/**
 * `npm run bench -- startup -- --database-url URL [--settle 20] [--data-dir DIR]`
 *
 * Start-up of the real server on a knowledge base (issue 18 aims at L: answering searches within
 * 60 s, the whole server under 6 GB resident). Starts `apps/server/src/main.ts` on the database and
 * reports, from the moment it was spawned: the API answering `/api/health`; the structure index
 * ready (`/api/chemistry/status`); the search bitmaps and the chart/filter dictionaries read (the
 * lines main.ts prints); the server ready for users (`GET /api/health/ready` 200: the above, the
 * frequent fragments and target prediction too); and the process's resident memory (VmRSS, sampled each second, and the
 * kernel's high-water mark VmHWM) once everything is in and `--settle` seconds later. Everything in
 * memory is in this one process (the RDKit workers are its threads).
 *
 * `--data-dir DIR` keeps the server's data folder between runs (default: a fresh one, removed after):
 * the first start reads the search columns from the database and keeps them in DIR/cache, a second
 * start on the same data reads them from there (SEARCH_COLUMN_SNAPSHOT), and the structure index's
 * shards likewise (index-snapshot.ts); the line says which.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PRODUCT_SLUG } from '@kb/contracts/auth';
import { DEMO_PASSWORD } from '@kb/contracts/roles';
import { AUTH_HEADERS } from '@kb/contracts/session';
import { freePort } from '../apps/server/test/server-process.ts';
import { writeResult } from './support/bench-kit.ts';

const REPO = path.resolve(import.meta.dirname, '..');
const arg = (name: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const databaseUrl = arg('database-url');
if (!databaseUrl) throw new Error('Pass --database-url (the knowledge base to start on, e.g. demo L)');
const settleSeconds = Number(arg('settle') ?? 20);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
const keptDir = arg('data-dir');
const dataDir = keptDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'kb-startup-'));
fs.mkdirSync(dataDir, { recursive: true });
const logFile = path.join(dataDir, 'server.log');
const log = fs.openSync(logFile, 'w');
const spawnedAt = performance.now();
const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO, 'apps/server/src/main.ts')], {
  cwd: REPO,
  stdio: ['ignore', log, log],
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    SEED_DEMO: 'true',
    DEMO_DATA_SIZE: 'none',
    LOG_LEVEL: 'info',
    JWT_SECRET: crypto.randomBytes(32).toString('base64url'),
  },
});
fs.closeSync(log);
const since = () => Number(((performance.now() - spawnedAt) / 1000).toFixed(1));

function memory(): { rssMb: number; hwmMb: number } {
  const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMb: Math.round(kb('VmRSS') / 1024), hwmMb: Math.round(kb('VmHWM') / 1024) };
}

const marks: Record<string, number> = {};
let columnsFrom = 'unknown';
let peakRssMb = 0;
const sampler = setInterval(() => {
  if (child.exitCode === null) peakRssMb = Math.max(peakRssMb, memory().rssMb);
}, 1000);

try {
  let headers: Record<string, string> | null = null;
  const deadline = Date.now() + 10 * 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited; see ${logFile}`);
    const output = fs.readFileSync(logFile, 'utf8');
    if (marks.bitmaps === undefined && output.includes('Search bitmaps ready')) {
      marks.bitmaps = since();
      columnsFrom = /columns from the (\w+)/.exec(output)?.[1] ?? 'unknown';
    }
    if (marks.dictionaries === undefined && output.includes('Chart and filter dictionaries ready')) marks.dictionaries = since();
    if (marks.listening === undefined) {
      const health = await fetch(`${baseUrl}/api/health`).catch(() => null);
      if (health?.ok) marks.listening = since();
    }
    if (marks.listening !== undefined && !headers) {
      const email = 'full-user@demo.test';
      const answer = await fetch(`${baseUrl}/api/pub/${PRODUCT_SLUG}/generate-token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: email, password: DEMO_PASSWORD }),
      });
      if (answer.ok) {
        const token = (await answer.json()) as { token: string; nodeToken: string };
        headers = {
          [AUTH_HEADERS.mainToken]: `Bearer ${token.token}`,
          [AUTH_HEADERS.nodeToken]: `Bearer ${token.nodeToken}`,
          [AUTH_HEADERS.email]: email,
        };
      }
    }
    if (headers && marks.structureIndex === undefined) {
      const status = (await (await fetch(`${baseUrl}/api/chemistry/status`, { headers })).json()) as {
        state: string;
        total: number;
        loadMs: number | null;
      };
      if (status.state === 'failed') throw new Error(`The structure index failed to load; see ${logFile}`);
      if (status.state === 'ready') {
        marks.structureIndex = since();
        marks.structures = status.total;
      }
    }
    if (marks.listening !== undefined && marks.readyForUsers === undefined) {
      const readiness = await fetch(`${baseUrl}/api/health/ready`).catch(() => null);
      if (readiness?.status === 200) marks.readyForUsers = since();
    }
    if (
      marks.structureIndex !== undefined &&
      marks.bitmaps !== undefined &&
      marks.dictionaries !== undefined &&
      marks.readyForUsers !== undefined
    )
      break;
    await sleep(500);
  }
  if (
    marks.structureIndex === undefined ||
    marks.bitmaps === undefined ||
    marks.dictionaries === undefined ||
    marks.readyForUsers === undefined
  )
    throw new Error(`Not everything was ready within 10 minutes: ${JSON.stringify(marks)}; see ${logFile}`);
  const ready = Math.max(marks.structureIndex, marks.bitmaps, marks.dictionaries);
  const atReady = memory();
  await sleep(settleSeconds * 1000);
  const settled = memory();
  // The engine's info line (LOG_LEVEL info) says where the index's shards came from (index-snapshot.ts).
  const indexFrom = fs.readFileSync(logFile, 'utf8').includes('(from the local snapshot)') ? 'snapshot' : 'database';
  const result = {
    database: 'postgres',
    marksSeconds: marks,
    columnsFrom,
    indexFrom,
    readySeconds: ready,
    memory: { atReady, settled, peakRssMb },
    loadAverage: os.loadavg().map((l) => Number(l.toFixed(2))),
  };
  const file = writeResult('startup', result);
  console.log(
    `startup: API ${marks.listening} s, structure index (${marks.structures?.toLocaleString('en-US')} structures, shards from the ${indexFrom}) ${marks.structureIndex} s, search bitmaps ${marks.bitmaps} s (columns from the ${columnsFrom}), dictionaries ${marks.dictionaries} s → everything in memory at ${ready} s, ready for users (/api/health/ready) at ${marks.readyForUsers} s; ` +
      `resident ${atReady.rssMb} MB then, ${settled.rssMb} MB ${settleSeconds} s later, high-water ${settled.hwmMb} MB → ${file}`,
  );
} finally {
  clearInterval(sampler);
  if (child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  }
  if (!keptDir) fs.rmSync(dataDir, { recursive: true, force: true });
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DEMO_PASSWORD, demoEmailForRole } from '@kb/contracts/roles';
import { startTestApp } from '../../test/harness.ts';
import type { TestApp } from '../../test/harness.ts';

/**
 * docs/api-scripting.md works as written: its curl and Python examples, taken from the document's
 * code blocks (so the two cannot drift), run against a server listening on a real port. A low
 * background threshold sends the export through the job queue, so the polling loops run too.
 */
const DOC = path.resolve(import.meta.dirname, '../../../../docs/api-scripting.md');
const BACKGROUND_FROM = 50;
const run = promisify(execFile);

/** The one fenced block of a language in the document. */
function codeBlock(language: string): string {
  const blocks = [...fs.readFileSync(DOC, 'utf8').matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map(
    (match) => match[1]!,
  );
  expect(blocks, `one \`\`\`${language} block in docs/api-scripting.md`).toHaveLength(1);
  return blocks[0]!;
}

describe('the scripting guide (docs/api-scripting.md) against a live server', () => {
  let t: TestApp;
  let baseUrl: string;
  let kiActivities: number;
  const dirs: string[] = [];
  const workDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-scripting-'));
    dirs.push(dir);
    return dir;
  };
  const balanceOf = async (email: string) =>
    (await t.database.db.selectFrom('users').select('credit_balance').where('email', '=', email).executeTakeFirstOrThrow()).credit_balance;
  /** Sessions of a user still open (the examples end by logging out). */
  const openSessions = async (email: string) =>
    (
      await sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM user_sessions s JOIN users u ON u.id = s.user_id WHERE u.email = ${email} AND s.closed_at IS NULL`.execute(
        t.database.db,
      )
    ).rows[0]!.n;
  const env = (user: string) => ({ ...process.env, KB_URL: baseUrl, KB_USER: user, KB_PASSWORD: DEMO_PASSWORD });
  /** The export the example started: the user's newest job. */
  const lastJob = (email: string) =>
    sql<{
      rows: number;
      credits: number;
      status: string;
    }>`SELECT j.row_count AS rows, j.credits, j.status FROM export_jobs j JOIN users u ON u.id = j.user_id WHERE u.email = ${email} ORDER BY j.id DESC LIMIT 1`.execute(
      t.database.db,
    );

  beforeAll(async () => {
    t = await startTestApp('pglite', { EXPORT_BACKGROUND_ROWS: String(BACKGROUND_FROM) }, { demoChunks: 1 });
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    kiActivities = (
      await sql<{ n: number }>`SELECT count(*)::int AS n FROM activities WHERE std_activity_type = 'Ki'`.execute(t.database.db)
    ).rows[0]!.n;
    // Enough credits for a whole-tab export each, whatever the demo data holds.
    await t.database.db
      .updateTable('users')
      .set({ credit_balance: 1_000_000 })
      .where('email', 'in', [demoEmailForRole('FULL_USER'), demoEmailForRole('DOWNLOAD_EVALUATOR')])
      .execute();
  }, 180_000);
  afterAll(async () => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    await t.close();
  });

  it('has demo data large enough to page twice and to export in the background', () => {
    expect(kiActivities).toBeGreaterThan(BACKGROUND_FROM);
    expect(kiActivities).toBeGreaterThan(100);
  });

  it('runs the curl example: log in, search, two pages, price, background export, download, log out', async () => {
    const user = demoEmailForRole('FULL_USER');
    const dir = workDir();
    fs.writeFileSync(path.join(dir, 'example.sh'), codeBlock('bash'));
    await run('bash', ['example.sh'], { cwd: dir, env: env(user), timeout: 120_000 });

    const counts = JSON.parse(fs.readFileSync(path.join(dir, 'counts.json'), 'utf8')) as Record<string, number>;
    expect(counts.actidscount).toBe(kiActivities);
    const pages = [0, 1].map(
      (page) =>
        JSON.parse(fs.readFileSync(path.join(dir, `page-${page}.json`), 'utf8')) as {
          data: { act_id: number }[];
          rowCount: number;
          pageNumber: number;
        },
    );
    expect(pages.map((page) => page.pageNumber)).toEqual([0, 1]);
    expect(pages[0]!.rowCount).toBe(kiActivities);
    expect(pages[0]!.data).toHaveLength(100);
    expect(pages[1]!.data).toHaveLength(Math.min(100, kiActivities - 100));
    const firstIds = new Set(pages[0]!.data.map((row) => row.act_id));
    expect(pages[1]!.data.some((row) => firstIds.has(row.act_id))).toBe(false);

    const csv = fs
      .readFileSync(path.join(dir, 'export.csv'), 'utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(csv).toHaveLength(kiActivities + 1);
    expect(csv.slice(1).every((line) => line.split(',')[2] === 'Ki')).toBe(true);
    expect((await lastJob(user)).rows[0]).toEqual({ rows: kiActivities, credits: kiActivities, status: 'done' });
    expect(await balanceOf(user)).toBe(1_000_000 - kiActivities);
    expect(await openSessions(user)).toBe(0);
  }, 150_000);

  it('runs the Python example: the same flow with the standard library, the file saved under its name', async () => {
    const user = demoEmailForRole('DOWNLOAD_EVALUATOR');
    const dir = workDir();
    fs.writeFileSync(path.join(dir, 'kb_export.py'), codeBlock('python'));
    const { stdout } = await run('python3', ['kb_export.py'], { cwd: dir, env: env(user), timeout: 120_000 });

    expect(stdout).toContain(`activities: ${kiActivities} `);
    expect(stdout).toContain(`rows read: ${Math.min(kiActivities, 1000)}`);
    expect(stdout).toContain(`export: ${kiActivities} records for ${kiActivities} credits`);
    const saved = /saved (.+)/.exec(stdout)?.[1];
    expect(saved).toBeDefined();
    const csv = fs
      .readFileSync(path.join(dir, saved!), 'utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(csv).toHaveLength(kiActivities + 1);
    expect(await balanceOf(user)).toBe(1_000_000 - kiActivities);
    expect(await openSessions(user)).toBe(0);
  }, 150_000);
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEmailForRole } from '@kb/contracts/roles';
import type { LoginResult } from '@kb/contracts/auth';
import type { KbLoad, ReleaseImportJob } from '@kb/contracts/kb-loads';
import { DATABASES, authHeaders, startTestApp } from '../../../../test/harness.ts';
import type { TestApp } from '../../../../test/harness.ts';
import { buildChemblFixture } from '../chembl/fixture.test-support.ts';
import { nextReleaseRows } from '../chembl/release-fixture.test-support.ts';

/** Release files, imports and loads on the super-admin page; "what's new" for the search roles. */
describe.each(DATABASES)('knowledge-base release endpoints on %s', (kind) => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-imports-'));
  let t: TestApp;
  let admin: LoginResult;
  let user: LoginResult;
  const call = (method: 'GET' | 'POST', url: string, login?: LoginResult, payload?: object) =>
    t.call({ method, url, headers: login ? authHeaders(login) : {}, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    buildChemblFixture(path.join(folder, 'chembl_99.db'));
    buildChemblFixture(path.join(folder, 'chembl_99_1.db'), { rows: nextReleaseRows() });
    fs.writeFileSync(path.join(folder, 'notes.txt'), 'not a release');
    fs.writeFileSync(path.join(folder, 'broken.db'), 'not an SQLite file');
    t = await startTestApp(kind, { KB_IMPORT_DIR: folder });
    admin = await t.login(demoEmailForRole('SUPER_ADMIN'));
    user = await t.login(demoEmailForRole('FULL_USER'));
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('answers 401 without a session and 403 to other roles', async () => {
    for (const [method, url] of [
      ['GET', '/api/superadmin/kb/files'],
      ['POST', '/api/superadmin/kb/import'],
      ['GET', '/api/superadmin/kb/import'],
      ['GET', '/api/superadmin/kb/loads'],
    ] as const) {
      expect((await call(method, url, undefined, method === 'POST' ? { file: 'chembl_99.db' } : undefined)).statusCode).toBe(401);
      expect((await call(method, url, user, method === 'POST' ? { file: 'chembl_99.db' } : undefined)).statusCode).toBe(403);
    }
    expect((await call('GET', '/api/kb/whatsnew')).statusCode).toBe(401);
    expect((await call('GET', '/api/kb/whatsnew', admin)).statusCode).toBe(403);
  });

  it('lists the .db files of the import folder only', async () => {
    const answer = await call('GET', '/api/superadmin/kb/files', admin);
    expect(answer.statusCode).toBe(200);
    const names = (answer.data.files as { name: string; sizeBytes: number }[]).map((f) => f.name).sort();
    expect(names).toEqual(['broken.db', 'chembl_99.db', 'chembl_99_1.db']);
    expect(answer.data.folder).toBe(folder);
  });

  it('refuses a name that is not listed, a path, and a file that is not a release (400), nothing started', async () => {
    for (const file of ['chembl_00.db', '../x.db', '/etc/passwd', 'notes.txt', 'sub/chembl_99.db', '..']) {
      const answer = await call('POST', '/api/superadmin/kb/import', admin, { file });
      expect(answer.statusCode, file).toBe(400);
    }
    const broken = await call('POST', '/api/superadmin/kb/import', admin, { file: 'broken.db' });
    expect(broken.statusCode).toBe(400);
    expect(String(broken.data.message)).toContain('broken.db');
    expect((await call('GET', '/api/superadmin/kb/import', admin)).data.state).toBe('idle');
    expect((await call('GET', '/api/kb/whatsnew', user)).data).toEqual({ load: null });
  });

  it('imports a listed release with progress, one at a time (409), audited, then shows the loads and what is new', async () => {
    const started = await call('POST', '/api/superadmin/kb/import', admin, { file: 'chembl_99.db' });
    expect(started.statusCode, started.body).toBe(200);
    expect(started.data).toMatchObject({ state: 'running', file: 'chembl_99.db' });
    const second = await call('POST', '/api/superadmin/kb/import', admin, { file: 'chembl_99_1.db' });
    expect(second.statusCode).toBe(409);
    await t.app.services.releaseImport.settled();
    const done = (await call('GET', '/api/superadmin/kb/import', admin)).data as unknown as ReleaseImportJob;
    expect(done).toMatchObject({ state: 'done', percent: 100, error: null });
    expect(done.rowsRead).toBeGreaterThan(0);
    expect(done.rowsRead).toBe(done.rowsTotal);

    const update = await call('POST', '/api/superadmin/kb/import', admin, { file: 'chembl_99_1.db' });
    expect(update.statusCode, update.body).toBe(200);
    await t.app.services.releaseImport.settled();
    const loads = (await call('GET', '/api/superadmin/kb/loads', admin)).data.loads as KbLoad[];
    expect(loads.map((l) => [l.kind, l.label, l.status])).toEqual([
      ['update', 'chembl_99_1', 'complete'],
      ['import', 'chembl_99', 'complete'],
    ]);
    expect(loads[0]?.report?.changes.find((c) => c.entity === 'activities')).toMatchObject({ added: 1, updated: 1, retired: 2 });
    // N+1 of the fixture: 10 activities of N (one skipped: molecule not in the file), 2 retired, 1 added.
    expect(loads[0]?.report?.quality?.activities.total).toBe(9);

    const news = (await call('GET', '/api/kb/whatsnew', user)).data.load as KbLoad;
    expect(news).toMatchObject({ loadId: loads[0]?.loadId, label: 'chembl_99_1', kind: 'update' });

    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['action', 'target_label'])
      .where('action', '=', 'dataset.import')
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.target_label)).toEqual(['ChEMBL release chembl_99.db', 'ChEMBL release chembl_99_1.db']);
  });
});

describe.each(DATABASES)('release import over demo data on %s', (kind) => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-imports-demo-'));
  let t: TestApp;
  let admin: LoginResult;

  beforeAll(async () => {
    buildChemblFixture(path.join(folder, 'chembl_99.db'));
    t = await startTestApp(kind, { KB_IMPORT_DIR: folder }, { demoChunks: 1 });
    admin = await t.login(demoEmailForRole('SUPER_ADMIN'));
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('refuses to mix with demo data (409) unless allowMixed is set; the knowledge-base counts then include the release', async () => {
    // The whole-knowledge-base counts are cached: asked once before, they must not stay stale after.
    const before = await t.app.services.search.defaultCounts();
    const refused = await t.call({
      method: 'POST',
      url: '/api/superadmin/kb/import',
      headers: authHeaders(admin),
      payload: { file: 'chembl_99.db' },
    });
    expect(refused.statusCode).toBe(409);
    expect(String(refused.data.message)).toContain('allow mixing with demo data');
    const allowed = await t.call({
      method: 'POST',
      url: '/api/superadmin/kb/import',
      headers: authHeaders(admin),
      payload: { file: 'chembl_99.db', allowMixed: true },
    });
    expect(allowed.statusCode, allowed.body).toBe(200);
    await t.app.services.releaseImport.settled();
    expect(t.app.services.releaseImport.status()).toMatchObject({ state: 'done' });
    const { rows } = await sql<{
      structures: number;
      activities: number;
    }>`SELECT (SELECT count(*)::int FROM structures) AS structures, (SELECT count(*)::int FROM activities) AS activities`.execute(
      t.database.db,
    );
    const after = await t.app.services.search.defaultCounts();
    expect(after.actIdsCount).toBeGreaterThan(before.actIdsCount);
    expect([after.strIdsCount, after.actIdsCount]).toEqual([rows[0]!.structures, rows[0]!.activities]);
  });
});

import path from 'node:path';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { withStartupLock } from './db/startup-lock.ts';
import { buildApp } from './app.ts';
import { DEMO_USERS } from './modules/auth/demo-accounts.ts';
import { passwordThreadNice } from './modules/auth/passwords.ts';
import { seedDemoUsers } from './seed/demo-users.ts';
import { seedDemoKnowledgeBase } from './modules/knowledge-base/demo/demo-seed.ts';
import { refreshDerivedData } from './modules/knowledge-base/derived-data.ts';
import { seedDemoDatasets } from './seed/demo-datasets.ts';
import { compileWebAssemblyEagerly, compiledRdkit } from './modules/chemistry/wasm-compile.ts';
import type { DatabaseHandle } from './db/database.ts';
import type { AppConfig } from './config.ts';
import { ConfigError, isLoopback } from './config.ts';
import type { FirstAdminSetup } from './modules/auth/first-admin.ts';
import { SETUP_PAGE_PATH } from '@kb/contracts/setup';
import { DEMO_PASSWORD } from '@kb/contracts/roles';

async function main(): Promise<void> {
  const config = loadConfig();
  const pgliteDir = path.join(config.dataDir, 'db');
  const database = await openDatabase({ url: config.databaseUrl, pgliteDir, statementTimeoutMs: config.statementTimeoutSeconds * 1000 });
  // RDKit for the structure workers, compiled optimised up front (measured faster searches;
  // wasm-compile.ts) on V8's compile threads while the migrations and the API's modules load: the
  // structure index is the last part of a start-up, and it waits for this compile first.
  if (config.wasmEagerCompile) compileWebAssemblyEagerly();
  void compiledRdkit();
  const applied = await migrateToLatest(database);
  if (applied.length > 0) console.log(`Database migrated: ${applied.join(', ')}`);
  if (config.demoAccounts) {
    // One process at a time: servers started together on an empty database would all insert the users.
    const added = await withStartupLock(database, 'kb:seed-demo-users', () => seedDemoUsers(database.db));
    if (added.length > 0) console.log(`Seeded ${added.length} demo users.`);
  }

  const app = await buildApp({ config, database, logger: { level: config.logLevel } });
  const shutdown = async (signal: string) => {
    console.log(`${signal}: shutting down`);
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  // The structure index loads beside the API (searches by structure wait for it; nothing else does).
  // Started before listening: it is the last part of a start-up, and listening takes no time.
  const { services } = app;
  services.chemEngine.start();
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const where = database.kind === 'pglite' ? `embedded PGlite in ${pgliteDir}` : 'PostgreSQL server (DATABASE_URL)';
  const lines = [
    '',
    `KB Search is running at http://localhost:${port}  (database: ${where})`,
    ...(config.apiDocs ? [`API documentation: http://localhost:${port}/api/docs`] : []),
    ...(await startupSafetyLines(config, services.firstAdminSetup, (config.publicUrl ?? `http://localhost:${port}`).replace(/\/+$/, ''))),
  ];
  console.log(lines.join('\n') + '\n');
  // Whether logins' password checks got their raised priority (docs/operations.md "Password hashing").
  void passwordThreadNice().then(
    (nice) =>
      console.log(
        nice !== null && nice < 0
          ? `Password checks run in their own thread at nice ${nice}`
          : "Password checks run in their own thread at the process's priority: raising it needs CAP_SYS_NICE (docs/operations.md)",
      ),
    (error) => console.error('The password thread did not start', error),
  );
  // The bitmap engine's columns (SEARCH_BITMAPS): counts use the SQL path until they are read.
  // Since the process started (`npm run bench -- startup` reads these lines).
  const sinceStart = () => `${(performance.now() / 1000).toFixed(1)} s after start`;
  // Each is a part of readiness (`GET /api/health/ready`): a balancer sends users once all are done.
  const { readiness } = services;
  readiness.track(
    'search columns',
    services.search
      .bitmapsReady()
      .then((on) => on && console.log(`Search bitmaps ready, ${sinceStart()} (columns from the ${services.search.bitmapsSource})`)),
    (error) => console.error('Reading the search bitmaps failed; counts use SQL', error),
  );
  // The charts' and filters' dictionaries likewise (counted in SQL until they are read).
  if (services.kbDictionaries) {
    readiness.track(
      'chart dictionaries',
      services.kbDictionaries.current().then(() => console.log(`Chart and filter dictionaries ready, ${sinceStart()}`)),
      (error) => console.error('Reading the chart dictionaries failed; charts use SQL', error),
    );
  }
  readiness.watch('structure index', () => services.chemEngine.startupState());
  // Target prediction: the actives, the ensemble's background and the model, once the index is in.
  readiness.track(
    'target prediction',
    services.chemEngine
      .ready()
      .then(() => services.prediction.warm())
      .then(() => console.log(`Target prediction ready, ${sinceStart()}`)),
    (error) => console.error('Preparing target prediction failed; it is tried again at the first prediction', error),
  );
  // Background exports: queued ones, and ones a stopped process left half-written, are taken up now.
  services.exportJobs.start();
  // Alerts on new data: checks finished loads now and every ALERT_POLL_MS (also loads made by a command-line import).
  services.alertChecker.start();
  if (config.seedDemo) {
    // Under a lock shared by every server on the database: the next one to get it finds the demo
    // data there (or resumes it, when the first was stopped half-way) instead of seeding it twice.
    const seeding = withStartupLock(database, 'kb:seed-demo-data', async () => {
      await seedKnowledgeBaseInBackground(config, database, () => {
        services.search.invalidateDefaultCounts();
        readiness.track(
          'seeded structures indexed',
          services.chemEngine
            .refresh()
            // Target prediction reads the seeded actives and backgrounds now, not at the first query.
            .then(() => services.prediction.warm()),
          (error) => console.error('Loading the structure index or preparing target prediction failed', error),
        );
      });
      await seedDatasets(database);
    });
    readiness.track('demo data', seeding, (error) =>
      console.error('Seeding the demo data failed; the server keeps running. Restart to resume.', error),
    );
  }
}

/**
 * Seeds the demo knowledge base after the server is listening, so logins and pages work at once;
 * `/api/health` reports the data set as it grows. A restart resumes an interrupted seed.
 */
async function seedKnowledgeBaseInBackground(config: AppConfig, database: DatabaseHandle, onLoaded: () => void): Promise<void> {
  if (!config.seedDemo || config.demoDataSize === 'none') return;
  let lastPercent = -1;
  try {
    const summary = await seedDemoKnowledgeBase(database, {
      size: config.demoDataSize,
      onProgress: ({ chunksDone, chunksTotal, structures, activities }) => {
        const percent = Math.floor((100 * chunksDone) / chunksTotal);
        if (percent === lastPercent) return;
        lastPercent = percent;
        console.log(`Seeding demo knowledge base ${config.demoDataSize}: ${percent}% (${structures} structures, ${activities} activities)`);
      },
    });
    if (!summary.skipped) {
      console.log(
        `Demo knowledge base ${summary.datasetLabel} ready in ${summary.seconds.toFixed(1)} s: ${JSON.stringify(summary.counts)}`,
      );
      await refreshDerivedData(database.db, (m) => console.log(m));
      onLoaded();
    }
  } catch (error) {
    console.error('Seeding the demo knowledge base failed; the server keeps running. Restart to resume.', error);
  }
}

/** The demo flat-file datasets, written from whatever knowledge base is there (none when it is empty). */
async function seedDatasets(database: DatabaseHandle): Promise<void> {
  try {
    const added = await seedDemoDatasets(database.db);
    if (added) console.log(`Added ${added} demo flat-file datasets (dashboard → Datasets).`);
  } catch (error) {
    console.error('Adding the demo datasets failed; the server keeps running.', error);
  }
}

main().catch((error: unknown) => {
  // A setting that does not hold is the operator's to fix: its message, not a stack.
  if (error instanceof ConfigError) console.error(`Cannot start: ${error.message}`);
  else console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});

/**
 * One line each on what makes this start safe or not on a network (docs/operations.md "Deploying
 * on a network"): the mode, where it listens, the demo logins, the second factor's key, and the
 * first super administrator's set-up token when none can log in.
 */
async function startupSafetyLines(config: AppConfig, setup: FirstAdminSetup, origin: string): Promise<string[]> {
  const lines = [
    config.mode === 'production'
      ? 'Mode: production (KB_MODE): no demo accounts, the demo password refused, MFA_SECRET_KEY required.'
      : 'Mode: demo (KB_MODE=production for a team server: docs/operations.md "Deploying on a network").',
    isLoopback(config.host)
      ? `Listening on ${config.host}: this machine only${config.trustProxy ? ', behind a reverse proxy (TRUST_PROXY)' : ''} (HOST=0.0.0.0 serves the network).`
      : `Listening on ${config.host}: reachable from the network.`,
  ];
  if (config.demoAccounts) {
    lines.push(`Demo logins (password ${DEMO_PASSWORD}):`);
    for (const user of DEMO_USERS) lines.push(`  ${user.email.padEnd(30)} ${user.note}`);
    if (config.demoAccountsWhy.reachable) {
      // DEMO_ACCOUNTS=on where others reach the server: whoever logs in first owns the demo admins.
      lines.push(`WARNING: ${config.demoAccountsWhy.reason}: anyone who reaches it can log in with the published demo password.`);
    }
  } else {
    lines.push(`Demo accounts: off (${config.demoAccountsWhy.reason}); the published demo password is refused at login.`);
  }
  lines.push(
    config.mfaSecretKey
      ? 'Second-factor key: MFA_SECRET_KEY, outside the database.'
      : 'Second-factor key: generated and kept in the database (set MFA_SECRET_KEY on a server; production requires it).',
  );
  const token = await setup.issueTokenIfNeeded();
  if (token) {
    lines.push(
      `First super administrator: open ${origin}${SETUP_PAGE_PATH}#token=${token} (one-time set-up token ${token}; a new one at each start until it is used).`,
    );
  }
  return lines;
}

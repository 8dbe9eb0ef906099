import path from 'node:path';
import type { TestProject } from 'vitest/node';
import fs from 'node:fs';
import crypto from 'node:crypto';
import { E2E_RUN_ENV, RESULTS_DIR, preparedFolder, startServer } from './server.ts';
import { AUTHENTICATORS_FILE } from './second-factor.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Origin of the server under test. */
    baseUrl: string;
    /** The server's log (pino JSON lines); e-mails are read from it. */
    serverLog: string;
  }
}

/** One server for the whole browser run: starting it (migrations, demo seeding) is the slow part. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Authenticators of an earlier run belong to servers that are gone.
  fs.rmSync(AUTHENTICATORS_FILE, { force: true });
  // The run's name, inherited by the spec processes started after this: they share its prepared databases.
  const run = `${Date.now().toString(36)}${crypto.randomBytes(3).toString('hex')}`;
  process.env[E2E_RUN_ENV] = run;
  const server = await startServer({ logFile: path.join(RESULTS_DIR, 'e2e-server.log') });
  project.provide('baseUrl', server.baseUrl);
  project.provide('serverLog', server.logFile);
  return async () => {
    await server.stop();
    fs.rmSync(preparedFolder(run), { recursive: true, force: true });
  };
}

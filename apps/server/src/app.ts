import crypto from 'node:crypto';
import path from 'node:path';
import Fastify, { LogController } from 'fastify';
import type { FastifyInstance } from 'fastify';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { sql } from 'kysely';
import { hasZodFastifySchemaValidationErrors, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { ERROR_CODES } from '@kb/contracts/errors';
import type { ApiAccess } from '@kb/contracts/endpoint';
import type { AppConfig } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import { HttpError } from './http/errors.ts';
import { registerAuthHook } from './http/auth-hook.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { registerTextGuard } from './http/text-guard.ts';
import { registerWebApp } from './http/static-files.ts';
import { openApiOptions } from './http/openapi-document.ts';
import { Admission } from './http/admission.ts';
import { TokenService } from './http/tokens.ts';
import { SessionRepository } from './modules/sessions/session-repository.ts';
import { registerSessionRoutes } from './modules/sessions/session-routes.ts';
import { AuthService } from './modules/auth/auth-service.ts';
import { LoginLimiter } from './modules/auth/login-limiter.ts';
import { Mailer } from './modules/auth/mailer.ts';
import { registerAuthRoutes } from './modules/auth/auth-routes.ts';
import { MfaService } from './modules/auth/mfa-service.ts';
import { SecretBox } from './modules/auth/mfa-secret-box.ts';
import { registerMfaRoutes } from './modules/auth/mfa-routes.ts';
import { AccountService } from './modules/dashboard/account-service.ts';
import { registerDashboardRoutes } from './modules/dashboard/dashboard-routes.ts';
import { registerAdminRoutes } from './modules/admin/admin-routes.ts';
import { registerAdminAccountRoutes } from './modules/admin/admin-account-routes.ts';
import { registerTrackerRoutes } from './modules/trackers/tracker-routes.ts';
import { registerUsageRoutes } from './modules/usage/usage-routes.ts';
import { registerHealthRoutes } from './modules/health/health-routes.ts';
import { StartupReadiness } from './modules/health/readiness.ts';
import { FirstAdminSetup } from './modules/auth/first-admin.ts';
import { registerFirstAdminRoutes } from './modules/auth/first-admin-routes.ts';
import { registerLookupRoutes } from './modules/lookups/lookup-routes.ts';
import { registerTreeRoutes } from './modules/trees/tree-routes.ts';
import { registerUploadRoutes } from './modules/uploads/upload-routes.ts';
import { registerSearchRoutes } from './modules/search/search-routes.ts';
import { registerTargetRoutes } from './modules/targets/target-routes.ts';
import { registerChemistryRoutes } from './modules/chemistry/chemistry-routes.ts';
import { registerLeafletRoutes } from './modules/leaflets/leaflet-routes.ts';
import { registerResultsRoutes } from './modules/results/results-routes.ts';
import { registerExportRoutes } from './modules/export/export-routes.ts';
import { ExportService } from './modules/export/export-service.ts';
import { ExportJobRunner } from './modules/export/export-jobs.ts';
import { FileStore } from './db/file-store.ts';
import { DatasetService } from './modules/datasets/dataset-service.ts';
import { registerDatasetRoutes } from './modules/datasets/dataset-routes.ts';
import { registerChartRoutes } from './modules/charts/chart-routes.ts';
import { KbDictionaryCache } from './modules/knowledge-base/kb-dictionaries.ts';
import { loadsState, structuresRevision } from './modules/knowledge-base/kb-loads.ts';
import { registerSarRoutes } from './modules/sar/sar-routes.ts';
import { registerDynamicQueryRoutes } from './modules/dynamic-query/dq-routes.ts';
import { registerAnalyzerRoutes } from './modules/analyzers/analyzer-routes.ts';
import { registerPredictionRoutes } from './modules/prediction/prediction-routes.ts';
import type { PredictionService } from './modules/prediction/prediction-service.ts';
import { RdkitChemEngine } from './modules/chemistry/rdkit-engine.ts';
import { AppSettings } from './modules/settings/app-settings.ts';
import { registerSuperAdminRoutes } from './modules/superadmin/superadmin-routes.ts';
import { registerAlertRoutes } from './modules/alerts/alert-routes.ts';
import { registerReleaseRoutes } from './modules/knowledge-base/releases/release-routes.ts';
import { fillMissingFingerprints } from './modules/knowledge-base/fill-fingerprints.ts';
import type { DatasetSize } from './modules/health/health-routes.ts';

export interface RegisteredRoute {
  method: string;
  url: string;
  access: ApiAccess | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route with its declared access: the access-matrix test and the docs read it. */
    registeredRoutes: RegisteredRoute[];
    /** Target prediction: main.ts warms its actives and background once the structure index is ready. */
    prediction: PredictionService;
    /** Assay, reference and target values in memory for charts and filters (null: SEARCH_BITMAPS=0). */
    kbDictionaries: KbDictionaryCache | null;
    /** What the server still prepares after it listens (main.ts adds the parts; `GET /api/health/ready`). */
    readiness: StartupReadiness;
  }
}

export interface BuildAppOptions {
  config: AppConfig;
  database: DatabaseHandle;
  /** Pino options or false; tests pass false. */
  logger?: boolean | object;
}

/** The token secret: from the environment, else generated once and shared through the database. */
async function tokenSecret(config: AppConfig, database: DatabaseHandle): Promise<string> {
  if (config.jwtSecret) return config.jwtSecret;
  const generated = crypto.randomBytes(48).toString('base64url');
  await database.db
    .insertInto('app_settings')
    .values({ key: 'jwt_secret', value: generated })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await database.db.selectFrom('app_settings').select('value').where('key', '=', 'jwt_secret').executeTakeFirstOrThrow();
  return row.value;
}

/** Key material of the TOTP secrets: MFA_SECRET_KEY, else generated once and kept in the database. */
async function mfaKey(config: AppConfig, database: DatabaseHandle): Promise<string> {
  if (config.mfaSecretKey) return config.mfaSecretKey;
  const generated = crypto.randomBytes(48).toString('base64url');
  await database.db
    .insertInto('app_settings')
    .values({ key: 'mfa_secret_key', value: generated })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await database.db.selectFrom('app_settings').select('value').where('key', '=', 'mfa_secret_key').executeTakeFirstOrThrow();
  return row.value;
}

/**
 * The data set's name and size for health. The size is counted again only when the knowledge base
 * changed (`loadsState`: a load ended, or rows arrived during one): counting 26.6 M activities takes
 * seconds of the database's cores — at start-up, beside the structure index, and every few seconds
 * while a load balancer polls health on every server.
 */
function datasetSizes(database: DatabaseHandle): () => Promise<DatasetSize> {
  let counted: { version: string; structures: number; activities: number } | null = null;
  return async () => {
    // The knowledge-base tables arrive with their own migration; until then the data set is empty.
    const { rows: present } = await sql<{ ok: boolean }>`select to_regclass('structures') is not null
      and to_regclass('activities') is not null and to_regclass('kb_loads') is not null as ok`.execute(database.db);
    const label = await database.db.selectFrom('app_settings').select('value').where('key', '=', 'dataset_label').executeTakeFirst();
    if (!present[0]?.ok) return { label: label?.value ?? 'empty', structures: 0, activities: 0 };
    const { version } = await loadsState(database.db);
    if (counted?.version !== version) {
      const { rows } = await sql<{ structures: number; activities: number }>`select
        (select count(*)::int from structures) as structures, (select count(*)::int from activities) as activities`.execute(database.db);
      counted = { version, structures: rows[0]?.structures ?? 0, activities: rows[0]?.activities ?? 0 };
    }
    const { structures, activities } = counted;
    return { label: label?.value ?? (structures > 0 ? 'loaded' : 'empty'), structures, activities };
  };
}

/**
 * `x-kb-instance` on every answer: a random id drawn once per server instance, so the spread of a
 * load balancer over several servers can be checked from outside (docs/scaling.md). It names
 * nothing (no host, no port, no version) and changes at every start.
 */
function registerInstanceHeader(app: FastifyInstance): void {
  const instance = crypto.randomBytes(4).toString('hex');
  app.addHook('onRequest', (_request, reply, done) => {
    reply.header('x-kb-instance', instance);
    done();
  });
}

export async function buildApp({ config, database, logger = false }: BuildAppOptions): Promise<FastifyInstance> {
  // No line per request (the trackers keep what matters); through a log controller, as Fastify 5.12 asks.
  const app = Fastify({
    logger,
    trustProxy: config.trustProxy,
    bodyLimit: 1_048_576,
    logController: new LogController({ disableRequestLogging: true }),
  });
  const registeredRoutes: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', registeredRoutes);
  registerInstanceHeader(app);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) registeredRoutes.push({ method, url: route.url, access: route.config?.access });
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).headers(error.headers).send(error.body);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issue = error.validation[0];
      const where = issue?.instancePath ? ` (${issue.instancePath.replace(/^\//, '').replace(/\//g, '.')})` : '';
      return reply
        .code(400)
        .send({ message: `${issue?.message ?? 'Invalid request'}${where}`, code: ERROR_CODES.validation, details: error.validation });
    }
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status === 429) {
      return reply
        .code(429)
        .send({ message: 'Too many requests. Wait a minute and try again.', code: ERROR_CODES.rateLimited, retryAfterSeconds: 60 });
    }
    if (status >= 400 && status < 500) {
      const message = error instanceof Error ? error.message : 'Bad request';
      return reply.code(status).send({ message, code: status === 404 ? ERROR_CODES.notFound : ERROR_CODES.validation });
    }
    request.log.error(error);
    return reply
      .code(500)
      .send({ message: 'Something went wrong on our side. Try again; if it persists, contact support.', code: 'INTERNAL' });
  });

  await app.register(fastifyRateLimit, { global: false });
  await registerSecurityHeaders(app, config.pendo.apiKey ? config.pendo : null);
  // The OpenAPI document is named, tagged and secured from the contracts (http/openapi-document.ts).
  await app.register(fastifySwagger, openApiOptions(config.publicUrl));
  if (config.apiDocs) {
    // Swagger UI routes are documentation: public (API_DOCS=off leaves them out). The hook must
    // exist before the plugin registers them.
    app.addHook('onRoute', (route) => {
      if (route.url.startsWith('/api/docs')) route.config = { ...route.config, access: 'public' };
    });
    await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'list' } });
  }

  const db = database.db;
  const tokens = new TokenService(await tokenSecret(config, database));
  const sessions = new SessionRepository(db);
  registerAuthHook(app, tokens, sessions);
  registerTextGuard(app);
  app.decorate('admission', new Admission(config.admission));
  app.addHook('onClose', async () => app.admission.close());

  // Run-time settings a super admin changes (login limits, export background threshold).
  const settings = new AppSettings(db, { loginLimits: config.loginLimits, exportBackgroundFromRows: config.exports.backgroundFromRows });
  const mailer = new Mailer(db, app.log, config.mail);
  // The second step's wrong-code limits follow the run-time login limits: the same per account and
  // address, window and known addresses; its account ceiling is tighter than the passwords' (a code
  // has 6 digits), twice the per-address count.
  const mfa = new MfaService(
    db,
    new SecretBox(await mfaKey(config, database)),
    async () => {
      const limits = await settings.loginLimits();
      return {
        perAccountAddress: limits.perAccountAddress,
        windowMinutes: limits.windowMinutes,
        perAccount: 2 * limits.perAccountAddress,
        accountWindowMinutes: limits.accountWindowMinutes,
        knownAddressDays: limits.knownAddressDays,
      };
    },
    (mail) => mailer.sendLater(mail),
  );
  const auth = new AuthService({
    db,
    tokens,
    sessions,
    limiter: new LoginLimiter(db, () => settings.loginLimits()),
    mailer,
    mfa,
    serverName: config.serverName,
    publicUrl: config.publicUrl,
    demoPasswordAccepted: config.demoAccounts,
  });
  registerAuthRoutes(app, auth);
  registerFirstAdminRoutes(app, new FirstAdminSetup(db, config.demoAccounts));
  registerMfaRoutes(app, mfa);
  registerSessionRoutes(app, db, sessions, tokens);
  registerDashboardRoutes(app, new AccountService(db));
  registerAdminRoutes(app, db, database.kind);
  registerAdminAccountRoutes(app, { db, auth, sessions });
  registerTrackerRoutes(app, db);
  registerUsageRoutes(app, db, config.pendo);
  // Worker threads start on first use (tests never pay for them); main.ts starts the index load.
  const chemEngine = new RdkitChemEngine(db, {
    ...(config.chemistry.workers > 0 ? { workers: config.chemistry.workers } : {}),
    shardSize: config.chemistry.shardSize,
    refreshIntervalMs: config.chemistry.refreshSeconds * 1000,
    requestTimeLimitMs: config.chemistry.requestTimeLimitMs,
    stepTimeLimitMs: config.chemistry.stepTimeLimitMs,
    workerNice: config.chemistry.workerNice,
    log: (message) => app.log.info(message),
    revision: () => structuresRevision(db),
    ...(config.searchColumnSnapshot
      ? {
          snapshot: {
            file: path.join(config.dataDir, 'cache', 'structure-index.bin'),
            version: async () => {
              const loads = await loadsState(db);
              return loads.loading ? null : `${loads.version} ${await structuresRevision(db)}`;
            },
            onError: (message: string, error: unknown) => app.log.warn({ err: error }, message),
          },
        }
      : {}),
  });
  registerChemistryRoutes(app, db, chemEngine, config.chemistry.searchTimeLimitSeconds * 1000);
  registerTargetRoutes(app, db);
  registerSearchRoutes(app, db, chemEngine, {
    activityCap: config.searchActivityCap,
    structureTimeLimitMs: config.chemistry.searchTimeLimitSeconds * 1000,
    // One server per PGlite data directory: a running search of any other instance is a dead one.
    singleProcess: database.kind === 'pglite',
    bitmapCounts: config.searchBitmaps,
    databaseKind: database.kind,
    columnSnapshotFile: config.searchColumnSnapshot ? path.join(config.dataDir, 'cache', 'search-columns.bin') : null,
    onBitmapsError: (message, error) => app.log.warn({ err: error }, message),
    log: (message) => app.log.info(message),
    heartbeatMs: config.searchHeartbeatMs,
  });
  // Alerts on new data (issue 17): main.ts starts the polling check.
  registerAlertRoutes(app, db, app.searchService, {
    pollMs: config.alertPollMs,
    publicUrl: config.publicUrl ?? `http://localhost:${config.port}`,
    sendMail: (mail) => mailer.send(mail),
    log: { info: (message) => app.log.info(message), error: (message, error) => app.log.error({ err: error }, message) },
  });
  // Assay, reference and target values in memory (SEARCH_BITMAPS): charts and Activities filters
  // on them are counted without joins; main.ts reads them at start.
  const dictionaries = config.searchBitmaps ? new KbDictionaryCache(db) : null;
  app.decorate('kbDictionaries', dictionaries);
  const results = registerResultsRoutes(app, db, chemEngine, dictionaries);
  registerChartRoutes(app, db, results, dictionaries);
  registerAnalyzerRoutes(app, db, results, chemEngine);
  app.decorate(
    'prediction',
    registerPredictionRoutes(app, { db, engine: chemEngine, modelDir: config.predictionModelDir, log: (message) => app.log.info(message) }),
  );
  const files = new FileStore(db);
  const datasets = new DatasetService(db, files);
  const exportSettings = { ...config.exports, currentBackgroundFromRows: () => settings.exportBackgroundFromRows() };
  const exports = new ExportService(
    db,
    results,
    files,
    (smiles) => chemEngine.molblocks(smiles),
    exportSettings,
    (error, jobId) => app.log.error({ err: error, jobId }, 'export failed'),
  );
  const runner = new ExportJobRunner(db, exports, config.exports, (error) => app.log.error({ err: error }, 'export loop failed'));
  registerExportRoutes(app, { exports, runner, files, datasets });
  registerLeafletRoutes(app, { db, exports, runner, publicUrl: config.publicUrl ?? `http://localhost:${config.port}` });
  registerDatasetRoutes(app, datasets);
  registerSarRoutes(app, {
    db,
    results,
    engine: chemEngine,
    exports,
    runner,
    databaseKind: database.kind,
    heartbeatMs: config.searchHeartbeatMs,
  });
  registerDynamicQueryRoutes(app, { db, exports, runner });
  app.addHook('onClose', async () => runner.stop());
  registerLookupRoutes(app, db);
  registerTreeRoutes(app, db);
  registerUploadRoutes(app, db);
  registerSuperAdminRoutes(app, {
    db,
    kind: database.kind,
    sessions,
    settings,
    mailer,
    mail: { smtpConfigured: config.mail.smtpUrl !== undefined, from: config.mail.from },
    serverName: config.serverName,
    engine: chemEngine,
    fillFingerprints: (onProgress) => fillMissingFingerprints(db, { onProgress }),
    log: (message) => app.log.error(message),
  });
  registerReleaseRoutes(app, database, config.kbImportDir, {
    refreshStructureIndex: async () => {
      if (chemEngine.status().state === 'idle') return;
      await chemEngine.refresh();
      // Target prediction reads the new actives and backgrounds now, not at the first user's query.
      void app.prediction
        .warm()
        .catch((error: unknown) => app.log.error({ err: error }, 'preparing target prediction after the load failed'));
    },
    log: (message) => app.log.error(message),
  });
  app.decorate('readiness', new StartupReadiness());
  registerHealthRoutes(app, database.kind, config.serverName, datasetSizes(database), () => database.failure(), app.readiness);

  registerWebApp(app, config.webDist);
  return app;
}

import crypto from 'node:crypto';
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
import { registerSessionRoutes } from './modules/sessions/session-routes.ts';
import { registerAuthRoutes } from './modules/auth/auth-routes.ts';
import { registerMfaRoutes } from './modules/auth/mfa-routes.ts';
import { registerDashboardRoutes } from './modules/dashboard/dashboard-routes.ts';
import { registerAdminRoutes } from './modules/admin/admin-routes.ts';
import { registerAdminAccountRoutes } from './modules/admin/admin-account-routes.ts';
import { registerTrackerRoutes } from './modules/trackers/tracker-routes.ts';
import { registerUsageRoutes } from './modules/usage/usage-routes.ts';
import { registerHealthRoutes } from './modules/health/health-routes.ts';
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
import { registerDatasetRoutes } from './modules/datasets/dataset-routes.ts';
import { registerChartRoutes } from './modules/charts/chart-routes.ts';
import { loadsState } from './modules/knowledge-base/kb-loads.ts';
import { registerSarRoutes } from './modules/sar/sar-routes.ts';
import { registerSheetRoutes } from './modules/sheet/sheet-routes.ts';
import { registerDynamicQueryRoutes } from './modules/dynamic-query/dq-routes.ts';
import { registerAnalyzerRoutes } from './modules/analyzers/analyzer-routes.ts';
import { registerPredictionRoutes } from './modules/prediction/prediction-routes.ts';
import { registerSuperAdminRoutes } from './modules/superadmin/superadmin-routes.ts';
import { registerAlertRoutes } from './modules/alerts/alert-routes.ts';
import { registerReleaseRoutes } from './modules/knowledge-base/releases/release-routes.ts';
import { registerWorkspaceRoutes } from './modules/workspace/workspace-routes.ts';
import type { DatasetSize } from './modules/health/health-routes.ts';
import { buildServices, stopServicesOnClose } from './services.ts';
import type { AppServices } from './services.ts';

interface RegisteredRoute {
  method: string;
  url: string;
  access: ApiAccess | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route with its declared access: the access-matrix test and the docs read it. */
    registeredRoutes: RegisteredRoute[];
    /**
     * The services of this instance (services.ts), built once by buildApp: main.ts starts their
     * background work through it and tests inspect them. Routes get theirs as arguments instead.
     */
    services: AppServices;
  }
}

export interface BuildAppOptions {
  config: AppConfig;
  database: DatabaseHandle;
  /** Pino options or false; tests pass false. */
  logger?: boolean | object;
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

  // The composition root: every service is built once here and handed to the routes that use it;
  // no route registration builds a long-lived service or looks one up on `app` (docs/architecture.md
  // "Start-up and composition"). main.ts and tests reach the same instances through `app.services`.
  const services = await buildServices(config, database, app.log);
  app.decorate('services', services);
  const db = database.db;
  registerAuthHook(app, services.tokens, services.sessions);
  registerTextGuard(app);
  // Read per request by registerEndpoint (request.server.admission), so set before any endpoint.
  app.decorate('admission', services.admission);
  // Shutdown: Fastify runs onClose hooks one at a time, last registered first. These two run last,
  // after the structure engine closes (the chemistry routes' hook) and after stopServicesOnClose.
  app.addHook('onClose', async () => services.admission.close());
  // Mail written after an answer is not lost when the server stops.
  app.addHook('onClose', async () => services.auth.flushMail());

  // Routes in their historical order: registeredRoutes (the access matrix, the docs) keeps it.
  registerAuthRoutes(app, services.auth);
  registerFirstAdminRoutes(app, services.firstAdminSetup);
  registerMfaRoutes(app, services.mfa);
  registerSessionRoutes(app, db, services.sessions, services.tokens, services.search);
  registerDashboardRoutes(app, services.accounts);
  registerAdminRoutes(app, services.admin);
  registerAdminAccountRoutes(app, { db, auth: services.auth, sessions: services.sessions });
  registerTrackerRoutes(app, services.trackers);
  registerUsageRoutes(app, services.usage);
  registerChemistryRoutes(app, db, services.chemEngine, config.chemistry.searchTimeLimitSeconds * 1000);
  // After the chemistry routes' hook that closes the structure engine, so that these stop first.
  stopServicesOnClose(app, services);
  registerTargetRoutes(app, db);
  registerSearchRoutes(app, { db, search: services.search, saved: services.savedQueries, admission: services.admission });
  registerAlertRoutes(app, services.alerts);
  registerResultsRoutes(app, services.results);
  registerChartRoutes(app, services.charts);
  registerAnalyzerRoutes(app, services.analyzers);
  registerPredictionRoutes(app, { service: services.prediction, models: services.predictionModels });
  const { exports, exportJobs: runner, files, datasets } = services;
  registerExportRoutes(app, { exports, runner, files, datasets });
  registerLeafletRoutes(app, {
    leaflets: services.leaflets,
    measurements: services.measurements,
    searchSessions: services.search,
    exports,
    runner,
    publicUrl: config.publicUrl ?? `http://localhost:${config.port}`,
  });
  registerDatasetRoutes(app, datasets);
  registerSarRoutes(app, { sar: services.sar, cliffs: services.sarCliffs, pairs: services.sarPairs, exports, runner });
  registerSheetRoutes(app, { sheet: services.sheet, exports, runner });
  registerDynamicQueryRoutes(app, { service: services.dynamicQuery, exports, runner });
  registerWorkspaceRoutes(app, services.workspace);
  registerLookupRoutes(app, db);
  registerTreeRoutes(app, services.trees);
  registerUploadRoutes(app, services.uploads);
  registerSuperAdminRoutes(app, {
    db,
    kind: database.kind,
    sessions: services.sessions,
    settings: services.settings,
    mailer: services.mailer,
    mail: { smtpConfigured: config.mail.smtpUrl !== undefined, from: config.mail.from },
    serverName: config.serverName,
    engine: services.chemEngine,
    rebuild: services.derivedDataRebuild,
  });
  registerReleaseRoutes(app, db, config.kbImportDir, services.releaseImport);
  registerHealthRoutes(app, database.kind, config.serverName, datasetSizes(database), () => database.failure(), services.readiness);

  registerWebApp(app, config.webDist);
  return app;
}

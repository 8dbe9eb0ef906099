import crypto from 'node:crypto';
import path from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { AppConfig } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import { FileStore } from './db/file-store.ts';
import { Admission } from './http/admission.ts';
import { TokenService } from './http/tokens.ts';
import { AdminService } from './modules/admin/admin-service.ts';
import { AlertChecker } from './modules/alerts/alert-check.ts';
import { AlertService } from './modules/alerts/alert-service.ts';
import { AnalyzerService } from './modules/analyzers/analyzer-service.ts';
import { AuthService } from './modules/auth/auth-service.ts';
import { FirstAdminSetup } from './modules/auth/first-admin.ts';
import { LoginLimiter } from './modules/auth/login-limiter.ts';
import { Mailer } from './modules/auth/mailer.ts';
import { SecretBox } from './modules/auth/mfa-secret-box.ts';
import { MfaService } from './modules/auth/mfa-service.ts';
import { ChartService } from './modules/charts/chart-service.ts';
import type { ChemEngine } from './modules/chemistry/chem-engine.ts';
import { RdkitChemEngine } from './modules/chemistry/rdkit-engine.ts';
import { AccountService } from './modules/dashboard/account-service.ts';
import { DatasetService } from './modules/datasets/dataset-service.ts';
import { DEFAULT_DQ_SETTINGS, DynamicQueryService } from './modules/dynamic-query/dq-service.ts';
import { ExportJobRunner } from './modules/export/export-jobs.ts';
import { ExportService } from './modules/export/export-service.ts';
import { StartupReadiness } from './modules/health/readiness.ts';
import { fillMissingFingerprints } from './modules/knowledge-base/fill-fingerprints.ts';
import { KbDictionaryCache } from './modules/knowledge-base/kb-dictionaries.ts';
import { loadsState, structuresRevision } from './modules/knowledge-base/kb-loads.ts';
import { ReleaseImportRunner } from './modules/knowledge-base/releases/release-import.ts';
import { LeafletService } from './modules/leaflets/leaflet-service.ts';
import { MeasurementService } from './modules/leaflets/measurement-service.ts';
import { ModelRegistry } from './modules/prediction/model-registry.ts';
import { PredictionService } from './modules/prediction/prediction-service.ts';
import { ResultsService } from './modules/results/results-service.ts';
import { SarCliffs } from './modules/sar/sar-cliffs.ts';
import { SarPairs } from './modules/sar/sar-pairs.ts';
import { SarJobs } from './modules/sar/sar-progress.ts';
import { SarService } from './modules/sar/sar-service.ts';
import { CompoundSources } from './modules/workspace/compound-source.ts';
import { collectionMembers } from './modules/workspace/collection-members.ts';
import { CollectionUpload } from './modules/workspace/collection-upload.ts';
import { CollectionsService } from './modules/workspace/collections-service.ts';
import { WorkspaceHistory } from './modules/workspace/history.ts';
import { ResultSetsService } from './modules/workspace/result-sets-service.ts';
import { WorkspaceSharing } from './modules/workspace/workspace-sharing.ts';
import { SheetService } from './modules/sheet/sheet-service.ts';
import { SavedQueryService } from './modules/search/saved-queries.ts';
import { SearchService } from './modules/search/search-service.ts';
import { SessionRepository } from './modules/sessions/session-repository.ts';
import { AppSettings } from './modules/settings/app-settings.ts';
import { DerivedDataRebuild } from './modules/superadmin/dataset-state.ts';
import { TrackerService } from './modules/trackers/tracker-service.ts';
import { TreeService } from './modules/trees/tree-service.ts';
import { UploadService } from './modules/uploads/upload-service.ts';
import { UsageService } from './modules/usage/usage-service.ts';

/**
 * Every long-lived service of one server instance, built once by `buildServices` (the composition
 * root) and handed to the route registrations by app.ts. main.ts starts the background parts
 * through it (`app.services`), and tests reach the same instances the routes use.
 */
export interface AppServices {
  // HTTP: turns for heavy calls (registerEndpoint reads them per request), and start-up readiness.
  admission: Admission;
  readiness: StartupReadiness;
  tokens: TokenService;
  // Accounts, sessions and administration.
  sessions: SessionRepository;
  /** Run-time settings a super admin changes (login limits, export background threshold). */
  settings: AppSettings;
  mailer: Mailer;
  mfa: MfaService;
  auth: AuthService;
  /** The first super administrator's set-up token: main.ts prints it when one is needed. */
  firstAdminSetup: FirstAdminSetup;
  accounts: AccountService;
  admin: AdminService;
  trackers: TrackerService;
  usage: UsageService;
  // Search: the chemistry engine, look-ups, the search sessions and what reads their sets.
  /** Structure index, search and depiction; main.ts starts the index load. */
  chemEngine: ChemEngine;
  trees: TreeService;
  uploads: UploadService;
  /** Search sessions: results, charts, exports, leaflets and alerts read the sets it builds. */
  search: SearchService;
  savedQueries: SavedQueryService;
  alerts: AlertService;
  /** The alert check on new data; main.ts starts its polling (tests call `checkNow`). */
  alertChecker: AlertChecker;
  /** Assay, reference and target values in memory for charts and filters (null: SEARCH_BITMAPS=0). */
  kbDictionaries: KbDictionaryCache | null;
  results: ResultsService;
  charts: ChartService;
  analyzers: AnalyzerService;
  /** Target prediction: main.ts warms its actives and background once the structure index is ready. */
  prediction: PredictionService;
  predictionModels: ModelRegistry;
  sar: SarService;
  sarCliffs: SarCliffs;
  sarPairs: SarPairs;
  /** The compounds a collection or sheet names (ids, a results tab, a collection), with the workspace's access rule. */
  compoundSources: CompoundSources;
  /** The workspace (docs/workspace.md): collections, their uploads, saved result sets, sharing, history. */
  workspace: {
    collections: CollectionsService;
    upload: CollectionUpload;
    resultSets: ResultSetsService;
    sharing: WorkspaceSharing;
    history: WorkspaceHistory;
  };
  /** The compound × endpoint sheet (its columns kept in memory, per server). */
  sheet: SheetService;
  // Files, exports and what exports for others.
  files: FileStore;
  datasets: DatasetService;
  exports: ExportService;
  /** Background exports: main.ts starts them, tests drain them. */
  exportJobs: ExportJobRunner;
  leaflets: LeafletService;
  measurements: MeasurementService;
  dynamicQuery: DynamicQueryService;
  // Knowledge base: the jobs a super admin starts (tests wait for them).
  derivedDataRebuild: DerivedDataRebuild;
  releaseImport: ReleaseImportRunner;
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
 * Builds every service once, in dependency order. Constructors start nothing (worker threads,
 * polling and index loads begin on first use or when main.ts starts them), so tests that build an
 * app pay only for what they call. `log` is the app's logger: services report through it.
 */
export async function buildServices(config: AppConfig, database: DatabaseHandle, log: FastifyBaseLogger): Promise<AppServices> {
  const db = database.db;
  const publicUrl = config.publicUrl ?? `http://localhost:${config.port}`;
  const tokens = new TokenService(await tokenSecret(config, database));
  const sessions = new SessionRepository(db);
  const settings = new AppSettings(db, { loginLimits: config.loginLimits, exportBackgroundFromRows: config.exports.backgroundFromRows });
  const mailer = new Mailer(db, log, config.mail);
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

  // Worker threads start on first use (tests never pay for them); main.ts starts the index load.
  const chemEngine = new RdkitChemEngine(db, {
    ...(config.chemistry.workers > 0 ? { workers: config.chemistry.workers } : {}),
    shardSize: config.chemistry.shardSize,
    refreshIntervalMs: config.chemistry.refreshSeconds * 1000,
    requestTimeLimitMs: config.chemistry.requestTimeLimitMs,
    stepTimeLimitMs: config.chemistry.stepTimeLimitMs,
    workerNice: config.chemistry.workerNice,
    log: (message) => log.info(message),
    revision: () => structuresRevision(db),
    ...(config.searchColumnSnapshot
      ? {
          snapshot: {
            file: path.join(config.dataDir, 'cache', 'structure-index.bin'),
            version: async () => {
              const loads = await loadsState(db);
              return loads.loading ? null : `${loads.version} ${await structuresRevision(db)}`;
            },
            onError: (message: string, error: unknown) => log.warn({ err: error }, message),
          },
        }
      : {}),
  });
  const search = new SearchService(db, chemEngine, {
    activityCap: config.searchActivityCap,
    structureTimeLimitMs: config.chemistry.searchTimeLimitSeconds * 1000,
    // One server per PGlite data directory: a running search of any other instance is a dead one.
    singleProcess: database.kind === 'pglite',
    bitmapCounts: config.searchBitmaps,
    sets: config.searchSets,
    setsBudgetBytes: config.searchSetsBudgetBytes,
    databaseKind: database.kind,
    columnSnapshotFile: config.searchColumnSnapshot ? path.join(config.dataDir, 'cache', 'search-columns.bin') : null,
    onBitmapsError: (message, error) => log.warn({ err: error }, message),
    log: (message) => log.info(message),
    heartbeatMs: config.searchHeartbeatMs,
    // "In collection" rows: the workspace reads a collection's members with its access rule, for whom the search runs.
    collectionMembers: (userId, collectionId) => collectionMembers(db, userId, collectionId),
  });
  // Assay, reference and target values in memory (SEARCH_BITMAPS): charts and Activities filters
  // on them are counted without joins; main.ts reads them at start.
  const kbDictionaries = config.searchBitmaps ? new KbDictionaryCache(db) : null;
  const results = new ResultsService(db, search, chemEngine, kbDictionaries);
  const predictionModels = new ModelRegistry(config.predictionModelDir, (message) => log.info(message));
  const prediction = new PredictionService(db, chemEngine, predictionModels, (message) => log.info(message));

  const files = new FileStore(db);
  const datasets = new DatasetService(db, files);
  const exports = new ExportService(
    db,
    results,
    files,
    (smiles) => chemEngine.molblocks(smiles),
    { ...config.exports, currentBackgroundFromRows: () => settings.exportBackgroundFromRows() },
    (error, jobId) => log.error({ err: error, jobId }, 'export failed'),
  );
  const exportJobs = new ExportJobRunner(db, exports, config.exports, (error) => log.error({ err: error }, 'export loop failed'));
  const compoundSources = new CompoundSources(db, results, async () => (await search.columnsIfCurrent())?.allStructures ?? null);
  const sar = new SarService(
    db,
    results,
    chemEngine,
    exports,
    // A PostgreSQL server may be shared by several API servers: SAR progress and cancel go through it.
    new SarJobs({
      shared: database.kind === 'postgres' ? db : null,
      heartbeatMs: config.searchHeartbeatMs,
      onError: (error) => log.warn({ err: error }, 'SAR progress not shared'),
    }),
  );
  const workspaceSharing = new WorkspaceSharing(db);
  const collections = new CollectionsService(db, compoundSources, workspaceSharing);

  return {
    admission: new Admission(config.admission),
    readiness: new StartupReadiness(),
    tokens,
    sessions,
    settings,
    mailer,
    mfa,
    auth,
    firstAdminSetup: new FirstAdminSetup(db, config.demoAccounts),
    accounts: new AccountService(db),
    admin: new AdminService(db, database.kind),
    trackers: new TrackerService(db),
    usage: new UsageService(db, config.pendo),
    chemEngine,
    trees: new TreeService(db, {
      onRefreshError: (error) => log.error({ err: error }, 'tree count refresh failed; the trees keep their previous counts'),
    }),
    uploads: new UploadService(db),
    search,
    savedQueries: new SavedQueryService(db, search),
    alerts: new AlertService(db, search),
    // Alerts on new data (issue 17): main.ts starts the polling check.
    alertChecker: new AlertChecker(db, search, {
      pollMs: config.alertPollMs,
      publicUrl,
      sendMail: (mail) => mailer.send(mail),
      log: { info: (message) => log.info(message), error: (message, error) => log.error({ err: error }, message) },
    }),
    kbDictionaries,
    results,
    charts: new ChartService(db, results, kbDictionaries, (error) =>
      log.error({ err: error }, 'A chart counted in memory failed; it was answered in SQL'),
    ),
    analyzers: new AnalyzerService(db, results, chemEngine),
    prediction,
    predictionModels,
    sar,
    sarCliffs: new SarCliffs(sar, db, chemEngine),
    sarPairs: new SarPairs(sar, chemEngine, db),
    compoundSources,
    workspace: {
      collections,
      upload: new CollectionUpload(db, chemEngine, collections),
      resultSets: new ResultSetsService(db, workspaceSharing),
      sharing: workspaceSharing,
      history: new WorkspaceHistory(db),
    },
    sheet: new SheetService(db, compoundSources, exports, () => search.columnsIfCurrent()),
    files,
    datasets,
    exports,
    exportJobs,
    leaflets: new LeafletService(db),
    measurements: new MeasurementService(db),
    dynamicQuery: new DynamicQueryService(db, exports, DEFAULT_DQ_SETTINGS),
    derivedDataRebuild: new DerivedDataRebuild(
      db,
      chemEngine,
      (onProgress) => fillMissingFingerprints(db, { onProgress }),
      (message) => log.error(message),
    ),
    releaseImport: new ReleaseImportRunner(database, config.kbImportDir, {
      refreshStructureIndex: async () => {
        if (chemEngine.status().state === 'idle') return;
        await chemEngine.refresh();
        // Target prediction reads the new actives and backgrounds now, not at the first user's query.
        void prediction.warm().catch((error: unknown) => log.error({ err: error }, 'preparing target prediction after the load failed'));
      },
      log: (message) => log.error(message),
    }),
  };
}

/**
 * Stops the services' jobs and background work when the app closes. Fastify runs onClose hooks one
 * at a time, last registered first, so these are registered in the order the route registrations
 * used to add them: running imports and rebuilds are waited for first, the search sessions stopped
 * last. app.ts calls this right after the chemistry routes, whose own hook closes the structure
 * engine after all of these (the imports and rebuilds use it).
 */
export function stopServicesOnClose(app: FastifyInstance, services: AppServices): void {
  app.addHook('onClose', () => services.search.close());
  app.addHook('onClose', () => services.alertChecker.stop());
  app.addHook('onClose', async () => {
    await Promise.all([services.predictionModels.close(), services.prediction.close()]);
  });
  app.addHook('onClose', async () => services.sar.close());
  app.addHook('onClose', async () => services.exportJobs.stop());
  app.addHook('onClose', () => services.trees.idle());
  app.addHook('onClose', () => services.uploads.close());
  app.addHook('onClose', async () => services.derivedDataRebuild.settled());
  app.addHook('onClose', async () => services.releaseImport.settled());
}

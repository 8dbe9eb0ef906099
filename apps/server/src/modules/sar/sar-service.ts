import type { Kysely } from 'kysely';
import type {
  SarActivity,
  SarCoreInput,
  SarDifference,
  SarMeasure,
  SarCoresResponse,
  SarData,
  SarEndpoint,
  SarProgress,
  SarRow,
  SarTable,
  SetSarDataRequest,
  SuggestedCore,
} from '@kb/contracts/sar';
import { SAR_MAX_COMPOUNDS } from '@kb/contracts/sar';
import type { z } from 'zod';
import type {
  SarCoresRequestSchema,
  SarExportRequestSchema,
  SarOverlapRequestSchema,
  SarOverlapResponse,
  SarTableRequest,
} from '@kb/contracts/sar';
import type { Database } from '../../db/schema.ts';
import type { AuthContext } from '../../http/auth-hook.ts';
import { HttpError, badRequest, forbidden, notFound } from '../../http/errors.ts';
import { ERROR_CODES } from '@kb/contracts/errors';
import type { ChemEngine, ChemQuery } from '../chemistry/chem-engine.ts';
import { ChemInputError, ChemQueryRefused } from '../chemistry/chem-engine.ts';
import { chemInputMessage } from '../chemistry/chem-query.ts';
import { scaffoldsOf } from '../chemistry/scaffold-cache.ts';
import type { ResultsService } from '../results/results-service.ts';
import type { ResultSession } from '../results/result-sessions.ts';
import { TAB_MODELS } from '../results/tab-model.ts';
import type { ExportService } from '../export/export-service.ts';
import { freeWilson } from './analysis/free-wilson.ts';
import { SarJobs } from './sar-progress.ts';
import type { CompoundFacts, SarSetRow } from './sar-queries.ts';
import { compoundFacts, countStructures, endpointGroups, endpointMeasurements, readSarSet, writeSarSet } from './sar-queries.ts';
import type { CompoundValue, EndpointInfo } from './sar-values.ts';
import { compoundValues, endpointOption, isMolarGroup } from './sar-values.ts';
import { sarRow } from './sar-rows.ts';
import { sarExportRows } from './sar-export.ts';
import { overlapOf, refuseEmptyDifferences } from './sar-overlap.ts';

/**
 * The SAR view (docs/sar.md): the rows a user put into it from a results tab, studied against one
 * endpoint around one or more cores. Every call reads the caller's own ready search session (the
 * results' rules: 403 another user's, 409 running, 410 expired); the heavy chemistry runs in the
 * engine's worker pool with progress and cancel (sar-progress.ts).
 */

/** Suggested Murcko scaffolds (most frequent first). */
const TOP_SCAFFOLDS = 8;
/** The MCS's time limit (the engine searches an evenly spread sample of the set and clamps this to 1–5 s). */
const MCS_TIMEOUT_SECONDS = 5;
/** Predicted best combinations of the Free-Wilson analysis. */
const FREE_WILSON_BEST = 10;
/** SAR tables kept per process (export and repeated calls do not decompose again). */
const TABLE_CACHE_SIZE = 20;

const NARROW_HINT = 'Tick fewer rows, or filter the tab by target or activity type, then open the SAR view again.';

type CoresRequest = z.infer<typeof SarCoresRequestSchema>;
type ExportRequest = z.infer<typeof SarExportRequestSchema>;
type OverlapRequest = z.infer<typeof SarOverlapRequestSchema>;

/** An endpoint's compounds with their facts and values, in str_id order. */
export interface EndpointData {
  info: EndpointInfo;
  compounds: { facts: CompoundFacts; value: CompoundValue }[];
}

export class SarService {
  private readonly tables = new Map<string, SarTable>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly results: ResultsService,
    private readonly engine: ChemEngine,
    private readonly exports: ExportService,
    readonly jobs: SarJobs = new SarJobs(),
  ) {}

  // ------------------------------------------------------------ the SAR data of a session

  /** `api/results/setSarData`: the tab's rows (ticked or all as filtered) become the session's SAR set. */
  async setSarData(auth: AuthContext, request: SetSarDataRequest): Promise<SarData> {
    const { session, sets } = await this.results.sessionAndSets(auth, request.sessionid);
    const selection = request.selection ?? null;
    if (selection && !selection.selectAll && selection.selectedIds.length === 0) {
      throw badRequest('Tick at least one row to study in the SAR view, or open it with all rows of the tab.', { field: 'selection' });
    }
    const scope = await this.results.selectionScope(request.tab, session, selection, { strIdList: request.strIdList }, sets);
    const rows = { ...scope, strId: TAB_MODELS[request.tab].strId! };
    const set = await this.results.lockedSession(session, async (trx, fresh) => {
      const compounds = await countStructures(trx, rows);
      if (compounds > SAR_MAX_COMPOUNDS) {
        throw badRequest(
          `The SAR view holds at most ${SAR_MAX_COMPOUNDS.toLocaleString('en-US')} compounds; these rows have ${compounds.toLocaleString('en-US')}. ${NARROW_HINT}`,
          { compounds, max: SAR_MAX_COMPOUNDS },
        );
      }
      if (compounds === 0) throw badRequest('None of these rows has a structure to study. Choose other rows.', { field: 'selection' });
      return writeSarSet(trx, sets, fresh.id, request.tab, rows);
    });
    this.forgetTables(session.id);
    return this.answerData(set);
  }

  /** `api/sar/data/:sessionid`: the SAR data as set (404 before setSarData). */
  async data(auth: AuthContext, sessionId: string): Promise<SarData> {
    const { set } = await this.sarSet(auth, sessionId);
    return this.answerData(set);
  }

  private async answerData(set: SarSetRow): Promise<SarData> {
    const [groups, measured] = await Promise.all([
      endpointGroups(this.db, set.set_id, 'set'),
      endpointGroups(this.db, set.set_id, 'knowledgeBase'),
    ]);
    return {
      sessionid: set.session_id,
      tab: set.tab,
      compounds: set.compounds,
      activities: set.activities,
      createdAt: new Date(set.created_at).toISOString(),
      endpoints: groups.map((group) => endpointOption(group, 'set')),
      measuredEndpoints: measured.map((group) => endpointOption(group, 'knowledgeBase')),
    };
  }

  /**
   * Progress and cancel name a search session: another user's answers 403, as the search's own
   * progress and cancel do (jobs are kept per user, so nothing would leak, but the answer must not
   * pretend the session is idle). An unknown session is idle.
   */
  private async assertNotOthers(auth: AuthContext, sessionId: string): Promise<void> {
    const owner = await this.db.selectFrom('search_sessions').select('user_id').where('id', '=', sessionId).executeTakeFirst();
    if (owner && owner.user_id !== auth.userId) throw forbidden('This search session belongs to another user.');
  }

  /** The caller's SAR set of a search session (404 before setSarData). */
  async sarSet(auth: AuthContext, sessionId: string): Promise<{ session: ResultSession; set: SarSetRow }> {
    // The SAR set is its own rows: the search's sets need not be in the set tables for it.
    const session = await this.results.session(auth, sessionId, 'definition');
    const set = await readSarSet(this.db, session.set_id);
    if (!set) throw notFound('This search has no SAR data yet: open the SAR view from its Structures or Activities tab.');
    return { session, set };
  }

  /** The endpoint's values by compound (400 when none has one), without the compounds' facts. */
  async endpointValues(set: SarSetRow, endpoint: SarEndpoint): Promise<{ info: EndpointInfo; values: CompoundValue[] }> {
    const scope = endpoint.scope ?? 'set';
    const { targetName, rows } = await endpointMeasurements(this.db, set.set_id, { ...endpoint, scope });
    const molar = isMolarGroup({
      with_pchembl: rows.filter((row) => row.pchembl_value != null).length,
      units: [...new Set(rows.map((row) => row.standard_uom))],
    });
    const { info, values } = compoundValues(
      { targetId: endpoint.targetId, targetName: targetName ?? `Target ${endpoint.targetId}`, activityType: endpoint.activityType, scope },
      rows,
      molar,
    );
    if (!values.length) {
      throw badRequest(
        `No compound of this SAR view has a usable ${endpoint.activityType} value for ${targetName ?? `target ${endpoint.targetId}`}. Choose another endpoint.`,
        { field: 'endpoint' },
      );
    }
    return { info, values };
  }

  /** The endpoint's compounds with a value (400 when none has one). */
  async endpointData(set: SarSetRow, endpoint: SarEndpoint): Promise<EndpointData> {
    const { info, values } = await this.endpointValues(set, endpoint);
    const facts = new Map(
      (
        await compoundFacts(
          this.db,
          set.set_id,
          values.map((v) => v.strId),
        )
      ).map((f) => [f.str_id, f]),
    );
    return { info, compounds: values.flatMap((value) => (facts.has(value.strId) ? [{ facts: facts.get(value.strId)!, value }] : [])) };
  }

  /** `api/sar/overlap`: for each pair of endpoints, the first endpoint's compounds measured on both (what a difference column would hold). */
  async overlap(auth: AuthContext, request: OverlapRequest): Promise<SarOverlapResponse> {
    const { set } = await this.sarSet(auth, request.sessionid);
    const all = [request.endpoint, ...request.moreEndpoints];
    const measured = await Promise.all(
      all.map(async (endpoint) => new Set((await this.endpointValues(set, endpoint)).values.map((v) => v.strId))),
    );
    return overlapOf(measured);
  }

  // ------------------------------------------------------------ cores

  /**
   * Suggested cores: the most frequent Murcko scaffolds (kept per structure in the scaffold cache)
   * and the MCS of a sample, each with the compounds containing it, the most covering first.
   */
  async cores(auth: AuthContext, request: CoresRequest): Promise<SarCoresResponse> {
    const { set } = await this.sarSet(auth, request.sessionid);
    const facts = request.endpoint
      ? (await this.endpointData(set, request.endpoint)).compounds.map((c) => c.facts)
      : await compoundFacts(this.db, set.set_id, null);
    const smiles = facts.map((f) => f.smiles);
    return this.jobs.run(auth.userId, request.sessionid, 'cores', async (job) => {
      const options = { signal: job.signal, onProgress: job.progress };
      // The MCS (one worker, up to its time limit) runs while the other workers compute the
      // scaffolds and their coverage: the call waits for the longer of the two, not their sum.
      const pendingMcs =
        smiles.length >= 2 ? this.engine.mcs(smiles, { signal: job.signal, timeoutSeconds: MCS_TIMEOUT_SECONDS }) : Promise.resolve(null);
      pendingMcs.catch(() => undefined);
      const known = await scaffoldsOf(
        this.db,
        this.engine,
        facts.map((f) => f.str_id),
        options,
      );
      const frequency = new Map<string, number>();
      for (const fact of facts) {
        const scaffold = known.get(fact.str_id);
        if (scaffold) frequency.set(scaffold, (frequency.get(scaffold) ?? 0) + 1);
      }
      const top = [...frequency].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, TOP_SCAFFOLDS);
      const cores: SuggestedCore[] = [];
      for (const [text, own] of top) {
        // Coverage, not identity: a compound whose own scaffold is larger still fits this core. A
        // compound contains a scaffold exactly when its own scaffold does (rings and linkers are
        // all a scaffold has), so the distinct scaffolds are searched, not every compound.
        const others = [...frequency.keys()].filter((s) => s !== text);
        const hits = await this.engine.contains({ kind: 'smiles', text, desalt: false }, others, { signal: job.signal });
        cores.push({
          text,
          kind: 'smiles',
          source: 'scaffold',
          compounds: own + others.reduce((n, s, i) => n + (hits[i] ? frequency.get(s)! : 0), 0),
        });
      }
      const mcs = await pendingMcs;
      if (mcs?.smarts) {
        const hits = await this.engine.contains({ kind: 'smarts', text: mcs.smarts, desalt: false }, smiles, { signal: job.signal });
        cores.push({ text: mcs.smarts, kind: 'smarts', source: 'mcs', compounds: hits.filter(Boolean).length });
      }
      // Most covering first, as a chemist picks a core: a scaffold of few compounds above one of 646 misleads.
      cores.sort(
        (x, y) => y.compounds - x.compounds || (x.source === y.source ? x.text.localeCompare(y.text) : x.source === 'scaffold' ? -1 : 1),
      );
      return { compounds: smiles.length, cores, mcsTimedOut: mcs?.timedOut ?? false };
    });
  }

  // ------------------------------------------------------------ the SAR table

  /** The SAR table of an endpoint around the given cores (cached per session, endpoint and cores). */
  async table(auth: AuthContext, request: SarTableRequest): Promise<SarTable> {
    const { set } = await this.sarSet(auth, request.sessionid);
    const key = tableKey(set, request);
    const cached = this.tables.get(key);
    if (cached) {
      // Most recently used last: the oldest is dropped first.
      this.tables.delete(key);
      this.tables.set(key, cached);
      return cached;
    }
    const table = await this.computeTable(auth, set, request);
    this.tables.set(key, table);
    while (this.tables.size > TABLE_CACHE_SIZE) this.tables.delete(this.tables.keys().next().value!);
    return table;
  }

  private forgetTables(sessionId: string): void {
    for (const key of [...this.tables.keys()]) if (key.startsWith(`${sessionId}|`)) this.tables.delete(key);
  }

  private async computeTable(auth: AuthContext, set: SarSetRow, request: SarTableRequest): Promise<SarTable> {
    const started = Date.now();
    const cores = await this.checkedCores(request.cores);
    const data = await this.endpointData(set, request.endpoint);
    const more = await this.moreEndpointsData(set, request);
    const endpoints = [data.info, ...more.map((m) => m.info)];
    const differences = checkedDifferences(endpoints, request.differences ?? []);
    // Before any decomposition: an A − B that no compound can have is refused, not built empty.
    refuseEmptyDifferences(endpoints, differences, [
      new Set(data.compounds.map((c) => c.facts.str_id)),
      ...more.map((m) => new Set(m.values.keys())),
    ]);
    const smiles = data.compounds.map((c) => c.facts.smiles);
    const decomposition = await this.jobs.run(auth.userId, request.sessionid, 'decompose', (job) =>
      this.chemInput(request.cores, () => this.engine.decompose(cores, smiles, { signal: job.signal, onProgress: job.progress })),
    );
    const rows: SarRow[] = [];
    const unmatched: SarTable['unmatched'] = [];
    const reason = request.cores.length === 1 ? 'does not contain the core' : 'does not contain any of the cores';
    data.compounds.forEach(({ facts, value }, index) => {
      const decomposed = decomposition.rows[index];
      if (!decomposed) {
        unmatched.push({ strId: facts.str_id, smiles: facts.smiles, activity: value.activity, reason });
        return;
      }
      const values = [value.activity, ...more.map((m) => m.values.get(facts.str_id) ?? null)];
      rows.push(sarRow(facts, value, decomposed, data.info.molar, { values, differences: differences.map((d) => difference(values, d)) }));
    });
    // R1 of one core is not R1 of another: the fits read the first core's compounds only (the page says so).
    const fitOf = (measure: SarMeasure) => {
      const fit = freeWilson(
        rows.flatMap((row) => {
          const value = measureValue(row, measure);
          return row.core === 0 && value != null ? [{ strId: row.strId, rgroups: row.rgroups, value }] : [];
        }),
        { best: FREE_WILSON_BEST },
      );
      return { freeWilson: 'result' in fit ? fit.result : null, note: fit.note };
    };
    const first = fitOf({ kind: 'endpoint', index: 0 });
    const measures: SarMeasure[] = [
      ...more.map((_, i) => ({ kind: 'endpoint' as const, index: i + 1 })),
      ...differences.map((_, index) => ({ kind: 'difference' as const, index })),
    ];
    return {
      endpoint: data.info,
      endpoints,
      differences: differences.map((d) => ({ ...d, label: `${endpointLabel(endpoints[d.a]!)} − ${endpointLabel(endpoints[d.b]!)}` })),
      cores: decomposition.cores.map((smiles, index) => ({ smiles, compounds: rows.filter((row) => row.core === index).length })),
      labels: decomposition.labels,
      rows,
      unmatched,
      freeWilson: first.freeWilson,
      freeWilsonNote: first.note,
      fits: measures.map((measure) => ({ measure, ...fitOf(measure) })),
      durationMs: Date.now() - started,
    };
  }

  /** The values of each further endpoint by compound; the same endpoint twice, or one without values, is a 400 naming it. */
  private async moreEndpointsData(
    set: SarSetRow,
    request: SarTableRequest,
  ): Promise<{ info: EndpointInfo; values: Map<number, SarActivity> }[]> {
    const all = [request.endpoint, ...(request.moreEndpoints ?? [])];
    const seen = new Set<string>();
    for (const [index, endpoint] of all.entries()) {
      const key = endpointKey(endpoint);
      if (seen.has(key))
        throw badRequest(`Endpoint ${index + 1} is already in the table: choose each target · activity type once.`, {
          field: 'moreEndpoints',
        });
      seen.add(key);
    }
    return Promise.all(
      (request.moreEndpoints ?? []).map(async (endpoint) => {
        const { info, compounds } = await this.endpointData(set, endpoint);
        return { info, values: new Map(compounds.map((c) => [c.facts.str_id, c.value.activity])) };
      }),
    );
  }

  /** The engine's queries of the cores; one RDKit cannot read is a 400 with RDKit's message, naming which. */
  private async checkedCores(cores: readonly SarCoreInput[]): Promise<ChemQuery[]> {
    const queries = cores.map((core) => ({ kind: core.kind, text: core.kind === 'molfile' ? core.text : core.text.trim(), desalt: false }));
    for (const [index, query] of queries.entries()) {
      if (query.kind === 'molfile' && !/M {2}END/.test(query.text)) {
        throw badRequest(
          `Core ${index + 1} is not a molfile: a molfile has a header, a counts line (…V2000 or V3000), atom and bond blocks and ends with "M  END".`,
          { field: 'cores' },
        );
      }
      await this.chemInput([cores[index]!], () => this.engine.describe(query), cores.length > 1 ? index : null);
    }
    return queries;
  }

  /** Runs engine work on the given cores; RDKit refusing one is a 400 a chemist can act on. */
  private chemInput<T>(cores: readonly SarCoreInput[], work: () => Promise<T>, index: number | null = null): Promise<T> {
    return coreInput(cores[0]!, work, { index, field: 'cores' });
  }

  async progress(auth: AuthContext, sessionId: string): Promise<SarProgress> {
    await this.assertNotOthers(auth, sessionId);
    return this.jobs.progress(auth.userId, sessionId);
  }

  async cancel(auth: AuthContext, sessionId: string): Promise<{ message: string }> {
    await this.assertNotOthers(auth, sessionId);
    return {
      message: (await this.jobs.cancel(auth.userId, sessionId))
        ? 'The SAR work was cancelled.'
        : 'No SAR work was running for this search.',
    };
  }

  // ------------------------------------------------------------ virtual compounds and export

  /** A virtual compound: the core with R-groups joined on (the engine bounds its inputs and the compound they make). */
  async virtual(request: { core: string; rgroups: Record<string, string | null> }): Promise<{ smiles: string }> {
    let smiles: string;
    try {
      smiles = await this.engine.zip(request.core, request.rgroups);
    } catch (error) {
      // A limit (the core's, an R-group's, the joined compound's), a trap or the watchdog: the message is whole.
      if (error instanceof ChemQueryRefused) throw badRequest(error.message, { field: 'rgroups' });
      if (error instanceof ChemInputError)
        throw badRequest(`RDKit could not join these R-groups onto the core: ${error.message}`, { field: 'rgroups' });
      throw error;
    }
    // molzip leaves an attachment point open (a `*`) or the pieces apart (a `.`) when the labels of
    // the R-groups do not match the core's: that is not a compound, so it is refused, not drawn.
    if (smiles.includes('*') || smiles.includes('.')) {
      throw badRequest(
        `These R-groups do not fit the core's positions: joining them leaves ${smiles.includes('.') ? 'separate pieces' : 'an open attachment point'} (${smiles}). Each R-group must carry the label of one of the core's positions, e.g. [*:1].`,
        { field: 'rgroups' },
      );
    }
    return { smiles };
  }

  /** Starts the export of a SAR table through the export jobs (priced one credit per compound). */
  async export(auth: AuthContext, request: ExportRequest): Promise<{ jobId: number; background: boolean }> {
    const { session } = await this.sarSet(auth, request.sessionid);
    const table = await this.table(auth, request);
    if (!table.rows.length)
      throw badRequest('Nothing to export: no compound of this endpoint fits the core. Choose another core.', { field: 'cores' });
    if (request.expectedCredits !== undefined && request.expectedCredits !== table.rows.length) {
      const n = table.rows.length.toLocaleString('en-US');
      throw new HttpError(409, {
        message: `The SAR table changed since its price was shown: it now holds ${n} compounds (${n} credits). Check the new price and export again.`,
        code: ERROR_CODES.conflict,
        details: { rows: table.rows.length, credits: table.rows.length },
      });
    }
    const { columns, rows } = sarExportRows(table);
    return this.exports.createPrepared(auth, session, {
      source: 'sar',
      tab: 'structuretab',
      format: request.format,
      label: 'SAR table',
      columns,
      rows,
    });
  }

  close(): void {
    this.jobs.close();
  }
}

/** The cache key of a table: the session, the SAR set as written (a new setSarData changes it), the endpoint and cores. */
function tableKey(set: SarSetRow, request: SarTableRequest): string {
  const cores = request.cores.map((core) => `${core.kind}:${core.text}`).join('\u0000');
  const endpoints = [request.endpoint, ...(request.moreEndpoints ?? [])].map(endpointKey).join('\u0000');
  const differences = (request.differences ?? []).map((d) => `${d.a}-${d.b}`).join(',');
  return `${set.session_id}|${set.set_id}|${new Date(set.created_at).getTime()}|${endpoints}|${differences}|${cores}`;
}

function endpointKey(endpoint: SarEndpoint): string {
  return `${endpoint.scope ?? 'set'}:${endpoint.targetId}:${endpoint.activityType}`;
}

/** "IC50 on Epidermal growth factor receptor" — how a difference column names its endpoints. */
function endpointLabel(endpoint: EndpointInfo): string {
  return `${endpoint.activityType} on ${endpoint.targetName}`;
}

/**
 * The difference columns asked for, each between two endpoints of the table; a difference needs
 * two pActivity endpoints (a difference of percentages or of values in two units says nothing).
 */
function checkedDifferences(endpoints: readonly EndpointInfo[], asked: readonly SarDifference[]): SarDifference[] {
  const seen = new Set<string>();
  return asked.map(({ a, b }, index) => {
    const name = `Difference ${index + 1}`;
    if (a >= endpoints.length || b >= endpoints.length)
      throw badRequest(`${name} names endpoint ${Math.max(a, b) + 1}, and the table has ${endpoints.length}.`, { field: 'differences' });
    for (const side of [a, b]) {
      if (!endpoints[side]!.molar)
        throw badRequest(
          `${name}: ${endpointLabel(endpoints[side]!)} is not in molar units, so it has no pActivity to subtract. Differences are between pActivity endpoints.`,
          { field: 'differences' },
        );
    }
    if (seen.has(`${a}-${b}`)) throw badRequest(`${name} is already in the table.`, { field: 'differences' });
    seen.add(`${a}-${b}`);
    return { a, b };
  });
}

/** A − B of the two medians (without binary noise: 7.3 − 6.1 is 1.2, not 1.1999999999999993); null when either is missing. */
function difference(values: readonly (SarActivity | null)[], { a, b }: SarDifference): number | null {
  const x = values[a];
  const y = values[b];
  return x && y ? Math.round((x.value - y.value) * 1e6) / 1e6 : null;
}

/** A row's value of a measure: an endpoint's median or a difference. */
function measureValue(row: SarRow, measure: SarMeasure): number | null {
  return measure.kind === 'endpoint' ? (row.values[measure.index]?.value ?? null) : (row.differences[measure.index] ?? null);
}

/**
 * Engine work on a core (the SAR table's, the activity cliffs'): RDKit refusing it (a limit, or a
 * text it cannot read) is a 400 naming the core, and which one when there are several.
 */
export async function coreInput<T>(
  core: SarCoreInput,
  work: () => Promise<T>,
  options: { index?: number | null; field: string },
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof ChemInputError)) throw error;
    const message = chemInputMessage({ inputType: core.kind, value: core.text }, error.message);
    throw badRequest(options.index == null ? `Core: ${message}` : `Core ${options.index + 1}: ${message}`, { field: options.field });
  }
}

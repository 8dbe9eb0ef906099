import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import { ActivityUomLookupSchema, LookupQuerySchema } from '@kb/contracts/lookups';
import type { LookupResponse, LookupResult, lookupEndpoints } from '@kb/contracts/lookups';
import type { Database } from '../../db/schema.ts';
import { badRequest } from '../../http/errors.ts';
import { EXCLUDED_CLINICAL_PHASES, LOOKUP_FIELDS, fieldById, fieldId, kindId } from './lookup-fields.ts';
import type { LookupKind } from './lookup-fields.ts';
import { findStructuresById, findTermHits, loadEntries, unitsOfActivityType } from './lookup-queries.ts';
import type { Tier } from './lookup-queries.ts';
import { refreshLookupTerms } from './lookup-refresh.ts';
import { familySuggestions } from './lookup-families.ts';

type Db = Kysely<Database>;

/** The look-ups of the contract, by their key in `lookupEndpoints`. */
export type LookupName = keyof typeof lookupEndpoints;
export type TermLookupName = Exclude<LookupName, 'activityUom'>;
export type LookupInput = z.input<typeof LookupQuerySchema>;
export type ActivityUomInput = z.input<typeof ActivityUomLookupSchema>;

interface TermLookup {
  kind: LookupKind;
  /** Fields searched (default: all of the kind). */
  fields?: readonly string[];
  /** `value`: answer the matched value (a DOI, a patent number) as label, the item's label as detail. */
  labelFrom?: 'item' | 'value';
  /** Also match structure ids and InChIKeys (they are not in the look-up index). */
  structureIds?: boolean;
  /** Also offer target families (lookup-families.ts): they lead their tier. */
  families?: boolean;
}

/** What each look-up searches (spec §7 "Autocomplete"). */
export const TERM_LOOKUPS: Record<TermLookupName, TermLookup> = {
  target: { kind: 'target', families: true },
  targetByName: { kind: 'target', fields: ['name', 'synonym'], families: true },
  targetByPdbId: { kind: 'target', fields: ['pdb'] },
  targetByOfficialGeneName: { kind: 'target', fields: ['gene'] },
  targetByEntrezGeneId: { kind: 'target', fields: ['entrez'] },
  targetByUniprotId: { kind: 'target', fields: ['uniprot'] },
  structure: { kind: 'structure', structureIds: true },
  bibliography: { kind: 'document' },
  doiCustomSearch: { kind: 'document', fields: ['doi'], labelFrom: 'value' },
  patentCustomSearch: { kind: 'document', fields: ['patent'], labelFrom: 'value' },
  journalCustomSearch: { kind: 'journal' },
  companyByName: { kind: 'company' },
  activityType: { kind: 'activitytype' },
  activityMechanism: { kind: 'mechanism' },
  moleculeCategory: { kind: 'category' },
  clinicalPhase: { kind: 'clinicalphase' },
  indication: { kind: 'indication' },
  source: { kind: 'source' },
  strainGenus: { kind: 'genus' },
  strainSpecies: { kind: 'species' },
  strainStrain: { kind: 'strain' },
};

const EXCLUDED_PHASES = new Set(EXCLUDED_CLINICAL_PHASES.map((p) => p.toLowerCase()));

function parse<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw badRequest(`${issue?.message ?? 'Invalid look-up'}${issue?.path.length ? ` (${issue.path.join('.')})` : ''}`);
  }
  // PostgreSQL text cannot hold NUL; refuse it here rather than fail in the database.
  for (const value of Object.values(parsed.data as Record<string, unknown>)) {
    if (typeof value === 'string' && value.includes('\u0000')) throw badRequest('The search text contains a NUL character.');
  }
  return parsed.data;
}

/**
 * Answers one look-up of the contract (what its route answers, without the HTTP layer): bench and
 * tests call it directly. Builds the look-up tables first if they are missing (`ensureLookupTerms`).
 * Throws HttpError 400 on input the contract refuses.
 */
export async function runLookup(db: Db, name: 'activityUom', input: ActivityUomInput): Promise<LookupResponse>;
export async function runLookup(db: Db, name: TermLookupName, input: LookupInput): Promise<LookupResponse>;
export async function runLookup(db: Db, name: LookupName, input: LookupInput | ActivityUomInput): Promise<LookupResponse> {
  await ensureLookupTerms(db);
  if (name === 'activityUom') {
    const query = parse(ActivityUomLookupSchema, input);
    return { items: await unitLookup(db, query.activityType, query.term, query.limit) };
  }
  const query = parse(LookupQuerySchema, input);
  return { items: await termLookup(db, TERM_LOOKUPS[name], query.term, query.limit) };
}

async function termLookup(db: Db, lookup: TermLookup, term: string, limit: number): Promise<LookupResult[]> {
  const fields = lookup.fields ?? LOOKUP_FIELDS.filter((f) => f.kind === lookup.kind).map((f) => f.field);
  const scope = { kindId: kindId(lookup.kind), fieldIds: fields.map((f) => fieldId(lookup.kind, f)) };
  const [direct, hits, families] = await Promise.all([
    lookup.structureIds ? findStructuresById(db, term, limit) : [],
    findTermHits(db, scope, term, limit),
    lookup.families ? familySuggestions(db, term) : [],
  ]);
  const entries = await loadEntries(
    db,
    hits.map((h) => h.entryId),
  );

  const ranked: { tier: Tier; direct: boolean; item: LookupResult }[] = direct.map((d) => ({
    tier: d.tier,
    direct: true,
    item: { id: d.strId, label: d.label, detail: d.detail, matchedOn: d.matchedOn, count: d.weight },
  }));
  for (const family of families) ranked.push({ tier: family.tier, direct: true, item: family.item });
  for (const hit of hits) {
    const entry = entries.get(hit.entryId);
    if (!entry) continue;
    const byValue = lookup.labelFrom === 'value';
    ranked.push({
      tier: hit.tier,
      direct: false,
      item: {
        id: entry.item_id ?? entry.item_text ?? entry.value,
        label: byValue ? entry.value : entry.label,
        detail: byValue ? (entry.label === entry.value ? entry.detail : entry.label) : entry.detail,
        matchedOn: fieldById(entry.field_id).field,
        count: entry.weight,
      },
    });
  }
  // Identifier matches (structure id, InChIKey) lead their tier; each item once, at its best place.
  ranked.sort((a, b) => a.tier - b.tier || Number(b.direct) - Number(a.direct));
  const seen = new Set<string>();
  const items: LookupResult[] = [];
  for (const { item } of ranked) {
    const key = String(item.id);
    if (seen.has(key)) continue;
    if (lookup.kind === 'clinicalphase' && EXCLUDED_PHASES.has(item.label.trim().toLowerCase())) continue;
    seen.add(key);
    items.push(item);
    if (items.length >= limit) break;
  }
  return items;
}

/** Positions where a word starts: a letter or digit after anything else (as the look-up index cuts values). */
function wordStarts(text: string): number[] {
  return [...text.matchAll(/(?<![\p{L}\p{N}])[\p{L}\p{N}]/gu)].map((m) => m.index);
}

/** Units used with an activity type, most used first; an empty term lists them all. */
async function unitLookup(db: Db, activityType: string, term: string, limit: number): Promise<LookupResult[]> {
  const t = term.toLowerCase();
  const tierOf = (unit: string): Tier | null => {
    const u = unit.toLowerCase();
    if (t === '' || u === t) return 0;
    if (u.startsWith(t)) return 1;
    return wordStarts(u).some((p) => p > 0 && u.startsWith(t, p)) ? 2 : null;
  };
  const matched = (await unitsOfActivityType(db, activityType)).flatMap((u) => {
    const tier = tierOf(u.unit);
    return tier === null ? [] : [{ ...u, tier }];
  });
  matched.sort((a, b) => a.tier - b.tier || b.activities - a.activities || compareText(a.unit, b.unit));
  return matched.slice(0, limit).map((u) => ({ id: u.unit, label: u.unit, detail: null, matchedOn: 'unit', count: u.activities }));
}

const compareText = (a: string, b: string) => {
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  return la < lb ? -1 : la > lb ? 1 : a < b ? -1 : a > b ? 1 : 0;
};

type Log = Pick<FastifyBaseLogger, 'info'>;

const readiness = new WeakMap<Db, { ready: boolean; pending?: Promise<void> }>();

/**
 * Makes sure the look-up tables are built: on first use, when they are empty (or were built by a
 * different field list) and the knowledge base is not, builds them once (concurrent callers wait
 * for the same build). While the knowledge base is empty there is nothing to build.
 */
export async function ensureLookupTerms(db: Db, log?: Log): Promise<void> {
  let state = readiness.get(db);
  if (!state) {
    state = { ready: false };
    readiness.set(db, state);
  }
  if (state.ready) return;
  const current = state;
  current.pending ??= prepare(db, log)
    .then((ready) => {
      current.ready = ready;
    })
    .finally(() => {
      current.pending = undefined;
    });
  await current.pending;
}

async function prepare(db: Db, log: Log | undefined): Promise<boolean> {
  const [built, fields, knowledgeBase] = await Promise.all([
    db.selectFrom('lookup_entries').select('entry_id').limit(1).executeTakeFirst(),
    db.selectFrom('lookup_fields').select(['field_id', 'kind', 'field', 'words']).orderBy('field_id').execute(),
    sql<{ any: boolean }>`SELECT EXISTS (SELECT 1 FROM targets) OR EXISTS (SELECT 1 FROM structures) OR EXISTS (SELECT 1 FROM documents)
      OR EXISTS (SELECT 1 FROM taxonomy) OR EXISTS (SELECT 1 FROM activity_types) OR EXISTS (SELECT 1 FROM companies)
      OR EXISTS (SELECT 1 FROM indications) OR EXISTS (SELECT 1 FROM clinical_phases) AS any`.execute(db),
  ]);
  const sameFields =
    fields.length === LOOKUP_FIELDS.length &&
    fields.every((f, i) => f.kind === LOOKUP_FIELDS[i]?.kind && f.field === LOOKUP_FIELDS[i]?.field && f.words === LOOKUP_FIELDS[i]?.words);
  if (built && sameFields) return true;
  if (!knowledgeBase.rows[0]?.any) return false;
  const why = built ? 'their field list changed' : 'they are empty';
  log?.info(`Building the autocomplete look-up tables on first use (${why}); refreshLookupTerms rebuilds them after a seed or import.`);
  const summary = await refreshLookupTerms(db);
  log?.info(`Autocomplete look-up tables built: ${summary.entries} entries, ${summary.terms} terms in ${summary.seconds.toFixed(1)} s.`);
  return true;
}

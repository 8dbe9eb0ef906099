import { sql } from 'kysely';
import type { RawBuilder } from 'kysely';
import type { ActivityTerm, SearchRow, TargetTerm } from '@kb/contracts/search';
import { TREE_KEY_BY_VIEW } from '@kb/contracts/trees';
import { badRequest } from '../../http/errors.ts';
import { boundsPredicate, propertyBounds } from '../chemistry/property-predicate.ts';
import type { PropertyBound } from '../chemistry/property-predicate.ts';
import { treeSelectionMatch } from '../trees/tree-match.ts';
import type { StructureQueryResolver } from './structure-query.ts';
import type { Expr } from './expression.ts';
import { TargetTextError } from '../targets/target-text.ts';

/** The activities a row predicate reads: `a` with its assay `ay`. */
export const ACTIVITY_FROM = sql`activities a LEFT JOIN assays ay ON ay.assay_id = a.assay_id`;

/**
 * One search row as SQL (docs/search-semantics.md, "What each row matches"). Aliases: `a`
 * activities, `ay` its assay (LEFT JOIN), `cc` clinical compounds.
 */
export interface CompiledRow {
  /** Activity-level rows: a predicate on one activity. Null for structure-level rows. */
  activity: RawBuilder<boolean> | null;
  /** Structures the row matches directly, without an activity (a query selecting str_id). */
  direct: RawBuilder<unknown> | null;
  /** Rows about development compounds: a predicate on one clinical compound. */
  clinical: RawBuilder<boolean> | null;
  /**
   * The same activity predicate in the form `a.<column> IN (ids)`, when it has that form: the
   * bitmap engine then reads the few ids (targets, documents, assays) and finds their activities
   * in memory instead of reading every matching activity id from the database.
   */
  link?: ActivityLink;
  /**
   * The same activity predicate as tests of the activity's own fields (type, value, unit,
   * mechanism, degrader), which the bitmap engine evaluates in memory (bitmaps/activity-fields.ts).
   */
  fields?: ActivityFieldMatch;
  /**
   * A structure row's property bounds, which the bitmap engine tests in memory
   * (bitmaps/structure-properties.ts), with the row's other parts (structure query, id lists) as
   * SQL (null when there are none): `direct` is the same row rendered whole as SQL.
   */
  properties?: { bounds: PropertyBound[] | 'none'; others: RawBuilder<unknown> | null };
  /**
   * An assay row on assay types alone (`link` to the assays of these types): the bitmap engine
   * finds those assays from their type in memory (KbColumns `assayType`) instead of reading them.
   */
  assayTypes?: string[];
  /**
   * A structure row whose structure query the chemistry engine answered: its hits (str_ids) in
   * memory, which the bitmap engine intersects with the row's other parts — `lists` (the id lists
   * as SQL, null: none) and the property bounds (`properties`), or `others`, both as SQL (null:
   * neither) while the property columns are not read. `direct` renders the whole row over
   * `structure_hits`, which only the SQL path reads (after `StructureQueryResolver.writeHits`).
   */
  engine?: { hits: Float64Array; lists: RawBuilder<unknown> | null; others: RawBuilder<unknown> | null };
}

/** Which relations (std_act_prefix, NULL counting as '=') a value comparison admits: a censored '>10' never satisfies '<'. */
export type PrefixRule = 'notGreater' | 'notLess' | 'equal';

/** One comparison of an activity's value, computed once and rendered both as SQL and in memory. */
interface ValueTest {
  column: 'activity_value' | 'micro_molarvalue';
  op: '<' | '<=' | '>' | '>=' | '=' | 'R';
  /** In the column's unit (a concentration is scaled to µM). */
  min: number;
  max: number;
  prefixRule: PrefixRule;
}

/** One activity type term: lower-cased type, unit as written (when not a concentration), µM value required, value test. */
export interface ActivityTermMatch {
  type: string;
  uom: string | null;
  micro: boolean;
  value: ValueTest | null;
}

export type ActivityFieldMatch =
  | { kind: 'types'; terms: ActivityTermMatch[] }
  | { kind: 'mechanism'; mechanisms: string[] }
  | { kind: 'degrader'; types: string[]; ligases: string[] | null };

/** An activity predicate `a.<column> IN (ids)`; `ids` selects one column. */
interface ActivityLink {
  column: 'act_id' | 'target_id' | 'ref_id' | 'assay_id';
  ids: RawBuilder<unknown>;
}

/** A row whose activity predicate is `a.<column> IN (ids)`, with the link that says so. */
function linked(column: ActivityLink['column'], ids: Sql): Pick<CompiledRow, 'activity' | 'link'> {
  return { activity: sql<boolean>`${sql.ref(`a.${column}`)} IN (${ids})`, link: { column, ids } };
}

type Sql = RawBuilder<unknown>;
const lowerList = (values: readonly string[]) => values.map((v) => v.trim().toLowerCase());
const nonEmpty = <T>(list: readonly T[] | null | undefined): list is readonly T[] => !!list && list.length > 0;

function rowName(index: number, row: SearchRow): string {
  return `Row ${index + 1} (${row.selectedOption})`;
}

/** `col = ANY($1)` with a typed array parameter: one bound value however long the list. */
const anyBigint = (ids: readonly (number | string)[]) => sql`ANY(${ids.map((id) => Number(id))}::bigint[])`;
const anyText = (values: readonly string[]) => sql`ANY(${[...values]}::text[])`;

// ------------------------------------------------------------------ structure-level rows

async function compileStructureRow(
  row: Extract<SearchRow, { selectedOption: 'structure' }>,
  name: string,
  resolver: StructureQueryResolver,
  candidates: Float64Array | null,
): Promise<CompiledRow> {
  const resolved = row.structure ? await resolver.resolve(row.structure, { candidates }) : null;
  const sets: Sql[] = resolved ? [resolved.sql] : [];
  const lists: Sql[] = [];
  if (nonEmpty(row.strIds)) lists.push(sql`SELECT s.str_id FROM structures s WHERE s.str_id = ${anyBigint(row.strIds)}`);
  if (nonEmpty(row.casNumbers)) {
    const cas = lowerList(row.casNumbers);
    lists.push(sql`SELECT c.str_id FROM compounds c WHERE lower(c.cas_number) = ${anyText(cas)} AND c.str_id IS NOT NULL
      UNION SELECT c.str_id FROM compound_synonyms cs JOIN compounds c ON c.gvk_id = cs.gvk_id
      WHERE lower(cs.synonym) = ${anyText(cas)} AND c.str_id IS NOT NULL`);
  }
  const listed = lists.length ? sql.join(lists, sql` UNION `) : null;
  if (listed) sets.push(listed);
  const bounds = row.properties ? propertyBounds(row.properties) : [];
  const predicate = boundsPredicate(bounds);
  const inRange = predicate ? sql`SELECT s.str_id FROM structures s WHERE ${predicate}` : null;
  const others = intersect(sets);
  if (!predicate && !others) throw badRequest(`${name} has no value: enter a structure, a property range, structure ids or CAS numbers.`);
  // Every part given must hold (a query AND a property range AND the id list).
  const direct = intersect(inRange ? [...sets, inRange] : sets)!;
  const engine = resolved?.hits
    ? { engine: { hits: resolved.hits, lists: listed, others: intersect([listed, inRange].filter((part) => part !== null)) } }
    : {};
  return { activity: null, direct, clinical: null, ...(predicate ? { properties: { bounds, others } } : {}), ...engine };
}

/** The structures every one of `sets` holds (null for none). */
function intersect(sets: readonly Sql[]): Sql | null {
  if (sets.length <= 1) return sets[0] ?? null;
  return sql.join(
    sets.map((set) => sql`(${set})`),
    sql` INTERSECT `,
  );
}

function compileCategoryRow(row: Extract<SearchRow, { selectedOption: 'compoundcategories' }>, name: string): CompiledRow {
  if (!row.categories.length) throw badRequest(`${name} has no value: choose at least one compound category.`);
  return {
    activity: null,
    direct: sql`SELECT c.str_id FROM compounds c WHERE lower(c.compound_category) = ${anyText(lowerList(row.categories))} AND c.str_id IS NOT NULL`,
    clinical: null,
  };
}

// ------------------------------------------------------------------ clinical rows

/** Phases and statuses share one vocabulary in the builder ("Phase II", "Launched", "Withdrawn"). */
function compileClinicalPhaseRow(row: Extract<SearchRow, { selectedOption: 'clinicalphase' }>, name: string): CompiledRow {
  if (!row.phases.length) throw badRequest(`${name} has no value: choose a clinical phase or status.`);
  const names = lowerList(row.phases);
  const clinical = sql<boolean>`(cc.highest_phase_id IN (SELECT phase_id FROM clinical_phases WHERE lower(name) = ${anyText(names)})
    OR cc.status_id IN (SELECT status_id FROM clinical_statuses WHERE lower(name) = ${anyText(names)}))`;
  return { activity: null, direct: sql`SELECT cc.str_id FROM clinical_compounds cc WHERE ${clinical} AND cc.str_id IS NOT NULL`, clinical };
}

function indicationIds(row: Extract<SearchRow, { selectedOption: 'indication' }>): Sql {
  const roots: Sql[] = [];
  if (nonEmpty(row.indicationIds))
    roots.push(sql`SELECT indication_id FROM indications WHERE indication_id = ${anyBigint(row.indicationIds)}`);
  if (nonEmpty(row.indicationNames)) {
    const names = lowerList(row.indicationNames);
    roots.push(sql`SELECT indication_id FROM indications WHERE lower(name) = ${anyText(names)} OR lower(mesh_id) = ${anyText(names)}`);
  }
  // An indication means itself and everything under it in the tree.
  return sql`WITH RECURSIVE sel(id) AS (${sql.join(roots, sql` UNION `)}
    UNION SELECT i.indication_id FROM indications i JOIN sel ON i.parent_id = sel.id) SELECT id FROM sel`;
}

function compileIndicationRow(row: Extract<SearchRow, { selectedOption: 'indication' }>, name: string): CompiledRow {
  if (!nonEmpty(row.indicationIds) && !nonEmpty(row.indicationNames)) throw badRequest(`${name} has no value: choose an indication.`);
  const clinical = sql<boolean>`cc.clinical_compound_id IN (SELECT cci.clinical_compound_id FROM clinical_compound_indications cci
    WHERE cci.indication_id IN (${indicationIds(row)}))`;
  return { activity: null, direct: sql`SELECT cc.str_id FROM clinical_compounds cc WHERE ${clinical} AND cc.str_id IS NOT NULL`, clinical };
}

// ------------------------------------------------------------------ activity-level rows

/**
 * A Target row: activities on any of its terms' targets (terms are alternatives, the `|` of spec
 * §3). The terms are resolved first, by the one resolver the row's "stands for N targets" and the
 * uploads use (modules/targets, docs/search-semantics.md "Target text and families"), so the row
 * compiles to `a.target_id IN (those ids)`.
 */
async function compileTargetRow(
  row: Extract<SearchRow, { selectedOption: 'target' }>,
  name: string,
  targets: TargetTermResolver,
): Promise<CompiledRow> {
  if (!row.targets.length) throw badRequest(`${name} has no value: choose at least one target.`);
  let resolved: number[];
  try {
    resolved = await targets(row.targets);
  } catch (error) {
    if (error instanceof TargetTextError) throw badRequest(`${name}: ${error.message}`);
    throw error;
  }
  const ids = sql`SELECT t.target_id FROM targets t WHERE t.target_id = ${anyBigint(resolved)}`;
  const drugs = sql`SELECT cct.clinical_compound_id FROM clinical_compound_targets cct WHERE cct.target_id IN (${ids})`;
  return {
    ...linked('target_id', ids),
    // Development compounds acting on the target count even without a measured activity.
    direct: sql`SELECT cc.str_id FROM clinical_compounds cc WHERE cc.clinical_compound_id IN (${drugs}) AND cc.str_id IS NOT NULL`,
    clinical: null,
  };
}

const PREFIX_RULE: Record<ValueTest['op'], PrefixRule> = {
  '<': 'notGreater',
  '<=': 'notGreater',
  '>': 'notLess',
  '>=': 'notLess',
  '=': 'equal',
  R: 'equal',
};

const COMPARISON: Record<Exclude<ValueTest['op'], 'R'>, Sql> = { '<': sql`<`, '<=': sql`<=`, '>': sql`>`, '>=': sql`>=`, '=': sql`=` };

/** A term's value comparison, with a concentration unit's factor to µM (null: the value as reported). */
function valueTest(term: ActivityTerm, factor: number | null): ValueTest | null {
  if (term.prefix == null) return null;
  const scale = (v: number) => (factor == null ? v : v * factor);
  const min = scale(term.minValue ?? 0);
  const max = term.prefix === 'R' ? scale(term.maxValue ?? term.minValue ?? 0) : min;
  return {
    column: factor == null ? 'activity_value' : 'micro_molarvalue',
    op: term.prefix,
    min,
    max,
    prefixRule: PREFIX_RULE[term.prefix],
  };
}

/** Comparison of one activity with a term's prefix and value(s); censored values ('>10') never satisfy '<' and vice versa. */
function valueTestSql(test: ValueTest): Sql {
  const column = sql.ref(`a.${test.column}`);
  const compare = test.op === 'R' ? sql`${column} BETWEEN ${test.min} AND ${test.max}` : sql`${column} ${COMPARISON[test.op]} ${test.min}`;
  const prefix =
    test.prefixRule === 'equal'
      ? sql`coalesce(a.std_act_prefix, '=') = '='`
      : test.prefixRule === 'notGreater'
        ? sql`coalesce(a.std_act_prefix, '=') NOT IN ('>', '>=')`
        : sql`coalesce(a.std_act_prefix, '=') NOT IN ('<', '<=')`;
  return sql`${compare} AND ${prefix}`;
}

function activityTermMatch(term: ActivityTerm, factor: number | null): ActivityTermMatch {
  // A concentration unit compares on the µM-normalised value, so "IC50 < 10 nM" also finds 0.005 µM;
  // any other unit compares the value as reported in that unit.
  return {
    type: term.activityType.trim().toLowerCase(),
    uom: term.activityUom && factor == null ? term.activityUom : null,
    micro: Boolean(term.activityUom && factor != null),
    value: valueTest(term, term.activityUom ? factor : null),
  };
}

function activityTermSql(term: ActivityTermMatch): Sql {
  const parts: Sql[] = [sql`lower(a.std_activity_type) = ${term.type}`];
  if (term.uom !== null) parts.push(sql`a.standard_uom = ${term.uom}`);
  if (term.micro) parts.push(sql`a.micro_molarvalue IS NOT NULL`);
  if (term.value) parts.push(valueTestSql(term.value));
  return sql`(${sql.join(parts, sql` AND `)})`;
}

function compileActivityRow(
  row: Extract<SearchRow, { selectedOption: 'activitytypes' }>,
  unitFactors: ReadonlyMap<string, number>,
): CompiledRow {
  const terms = row.activities.map((term) =>
    activityTermMatch(term, term.activityUom ? (unitFactors.get(term.activityUom) ?? null) : null),
  );
  return {
    activity: sql<boolean>`(${sql.join(terms.map(activityTermSql), sql` OR `)})`,
    direct: null,
    clinical: null,
    fields: { kind: 'types', terms },
  };
}

function bibliographyRefs(row: Extract<SearchRow, { selectedOption: 'bibliography' }>): Sql | null {
  const identity: Sql[] = [];
  if (nonEmpty(row.refIds)) identity.push(sql`SELECT ref_id FROM documents WHERE ref_id = ${anyBigint(row.refIds)}`);
  if (nonEmpty(row.pubmedIds)) identity.push(sql`SELECT ref_id FROM documents WHERE pubmed_id = ${anyBigint(row.pubmedIds)}`);
  if (nonEmpty(row.dois)) identity.push(sql`SELECT ref_id FROM documents WHERE lower(doi) = ${anyText(lowerList(row.dois))}`);
  if (nonEmpty(row.authors)) identity.push(sql`SELECT ref_id FROM document_authors WHERE lower(name) = ${anyText(lowerList(row.authors))}`);
  for (const patent of row.patents ?? []) {
    const parts: Sql[] = [sql`ref_type = 'patent'`];
    const number = patent.patentNo?.replace(/\s+/g, '').toUpperCase();
    // "US7148228" and country "US" + "7148228" name the same patent.
    if (number)
      parts.push(
        sql`(upper(replace(patent_no, ' ', '')) = ${number} OR upper(coalesce(country_code, '') || replace(patent_no, ' ', '')) = ${number})`,
      );
    if (patent.countryCode) parts.push(sql`upper(country_code) = ${patent.countryCode.toUpperCase()}`);
    if (patent.year != null) parts.push(sql`year = ${patent.year}`);
    if (parts.length > 1) identity.push(sql`SELECT ref_id FROM documents WHERE ${sql.join(parts, sql` AND `)}`);
  }
  for (const journal of row.journals ?? []) {
    const parts: Sql[] = [];
    if (journal.journalName) parts.push(sql`lower(journal_patent_name) = ${journal.journalName.toLowerCase()}`);
    if (journal.year != null) parts.push(sql`year = ${journal.year}`);
    if (journal.volume) parts.push(sql`volume = ${journal.volume}`);
    if (journal.issue) parts.push(sql`issue = ${journal.issue}`);
    if (journal.pageNo) parts.push(sql`start_page = ${journal.pageNo}`);
    if (parts.length) identity.push(sql`SELECT ref_id FROM documents WHERE ref_type <> 'patent' AND ${sql.join(parts, sql` AND `)}`);
  }
  const filters: Sql[] = [];
  if (row.yearRange?.fromYear != null) filters.push(sql`d.year >= ${row.yearRange.fromYear}`);
  if (row.yearRange?.toYear != null) filters.push(sql`d.year <= ${row.yearRange.toYear}`);
  if (nonEmpty(row.companies))
    filters.push(sql`d.ref_id IN (SELECT dc.ref_id FROM document_companies dc JOIN companies co ON co.company_id = dc.company_id
      WHERE lower(co.name) = ${anyText(lowerList(row.companies))})`);
  if (nonEmpty(row.sources)) {
    const kinds = row.sources.map((s) => (s === 'J' ? 'journal' : s === 'P' ? 'patent' : 'other'));
    filters.push(sql`(CASE WHEN d.ref_type IN ('journal', 'patent') THEN d.ref_type ELSE 'other' END) = ${anyText(kinds)}`);
  }
  if (!identity.length && !filters.length) return null;
  const from = identity.length ? sql`d.ref_id IN (${sql.join(identity, sql` UNION `)})` : sql`TRUE`;
  return sql`SELECT d.ref_id FROM documents d WHERE ${from}${filters.length ? sql` AND ${sql.join(filters, sql` AND `)}` : sql``}`;
}

function compileBibliographyRow(row: Extract<SearchRow, { selectedOption: 'bibliography' }>, name: string): CompiledRow {
  const refs = bibliographyRefs(row);
  if (!refs)
    throw badRequest(`${name} has no value: enter a document, PubMed id, DOI, patent, journal, author, year range, company or source.`);
  return {
    ...linked('ref_id', refs),
    // Compounds a document reports count even when it reports no activity for them.
    direct: sql`SELECT c.str_id FROM compounds c WHERE c.ref_id IN (${refs}) AND c.str_id IS NOT NULL`,
    clinical: null,
  };
}

function compileCompanyRow(row: Extract<SearchRow, { selectedOption: 'company' }>, name: string): CompiledRow {
  const ids: Sql[] = [];
  if (nonEmpty(row.companyIds)) ids.push(sql`SELECT company_id FROM companies WHERE company_id = ${anyBigint(row.companyIds)}`);
  if (nonEmpty(row.companyNames))
    ids.push(sql`SELECT company_id FROM companies WHERE lower(name) = ${anyText(lowerList(row.companyNames))}`);
  if (!ids.length) throw badRequest(`${name} has no value: choose a company.`);
  const companies = sql.join(ids, sql` UNION `);
  const clinical = sql<boolean>`cc.clinical_compound_id IN (SELECT ccc.clinical_compound_id FROM clinical_compound_companies ccc WHERE ccc.company_id IN (${companies}))`;
  return {
    ...linked('ref_id', sql`SELECT dc.ref_id FROM document_companies dc WHERE dc.company_id IN (${companies})`),
    direct: sql`SELECT cc.str_id FROM clinical_compounds cc WHERE ${clinical} AND cc.str_id IS NOT NULL`,
    clinical: null,
  };
}

function compileSourceRow(row: Extract<SearchRow, { selectedOption: 'source' }>, name: string): CompiledRow {
  const roots: Sql[] = [];
  if (nonEmpty(row.taxonomyIds)) roots.push(sql`SELECT taxonomy_id FROM taxonomy WHERE taxonomy_id = ${anyBigint(row.taxonomyIds)}`);
  for (const strain of row.strains ?? []) {
    const parts: Sql[] = [];
    if (strain.genus) parts.push(sql`lower(genus) = ${strain.genus.toLowerCase()}`);
    if (strain.species) parts.push(sql`lower(species) = ${strain.species.toLowerCase()}`);
    if (strain.strainType) parts.push(sql`lower(strain) = ${strain.strainType.toLowerCase()}`);
    if (parts.length) roots.push(sql`SELECT taxonomy_id FROM taxonomy WHERE ${sql.join(parts, sql` AND `)}`);
  }
  if (!roots.length) throw badRequest(`${name} has no value: choose a source or enter a genus, species or strain.`);
  const taxa = sql`WITH RECURSIVE sel(id) AS (${sql.join(roots, sql` UNION `)}
    UNION SELECT t.taxonomy_id FROM taxonomy t JOIN sel ON t.parent_id = sel.id) SELECT id FROM sel`;
  // `ay.taxonomy_id IN (taxa)` on the activity's assay, said as "the activity's assay is one of these".
  return { ...linked('assay_id', sql`SELECT sa.assay_id FROM assays sa WHERE sa.taxonomy_id IN (${taxa})`), direct: null, clinical: null };
}

function compileAssayRow(row: Extract<SearchRow, { selectedOption: 'assay' }>, name: string): CompiledRow {
  const parts: Sql[] = [];
  if (nonEmpty(row.assayTypes)) parts.push(sql`sa.assay_type = ${anyText(row.assayTypes)}`);
  if (nonEmpty(row.methodNames)) parts.push(sql`lower(sa.assay_method_name) = ${anyText(lowerList(row.methodNames))}`);
  if (nonEmpty(row.assayIds)) parts.push(sql`sa.assay_id = ${anyBigint(row.assayIds)}`);
  if (!parts.length) throw badRequest(`${name} has no value: choose an assay type, method or assay.`);
  // Conditions on the activity's assay, said as "the activity's assay is one of these".
  const onTypesAlone = parts.length === 1 && nonEmpty(row.assayTypes);
  return {
    ...linked('assay_id', sql`SELECT sa.assay_id FROM assays sa WHERE ${sql.join(parts, sql` AND `)}`),
    direct: null,
    clinical: null,
    ...(onTypesAlone ? { assayTypes: [...row.assayTypes!] } : {}),
  };
}

function compileTreeRow(row: Extract<SearchRow, { selectedOption: 'treeview' }>): CompiledRow {
  const match = treeSelectionMatch(TREE_KEY_BY_VIEW[row.tree], row.nodeIds.map(String));
  return { activity: match.activity ?? null, direct: (match.structures as Sql | undefined) ?? null, clinical: match.clinical ?? null };
}

/**
 * Rows picked in a results tab (new search by selection). Structures, references and clinical
 * compounds also match directly (a structure without activities stays in); activities and assays
 * bring exactly those activities.
 */
function compileSelectionRow(row: Extract<SearchRow, { selectedOption: 'selection' }>): CompiledRow {
  const ids = anyBigint(row.ids);
  switch (row.entity) {
    case 'structure':
      return structureIdsRow(row.ids);
    case 'activity':
      return { ...linked('act_id', sql`SELECT unnest(${row.ids.map(Number)}::bigint[])`), direct: null, clinical: null };
    case 'assay':
      return { ...linked('assay_id', sql`SELECT unnest(${row.ids.map(Number)}::bigint[])`), direct: null, clinical: null };
    case 'reference':
      return {
        ...linked('ref_id', sql`SELECT unnest(${row.ids.map(Number)}::bigint[])`),
        direct: sql`SELECT c.str_id FROM compounds c WHERE c.ref_id = ${ids} AND c.str_id IS NOT NULL`,
        clinical: null,
      };
    case 'clinicalcompound': {
      const clinical = sql<boolean>`cc.clinical_compound_id = ${ids}`;
      return {
        activity: null,
        direct: sql`SELECT cc.str_id FROM clinical_compounds cc WHERE ${clinical} AND cc.str_id IS NOT NULL`,
        clinical,
      };
    }
  }
}

/**
 * An "In collection" row: the collection's structures, matched directly like a selection of
 * structures, so it combines with every other row (AND / OR / NOT) as that does and the bitmap
 * engine reads it the same way. The members are read when the search runs, for the caller (or the
 * owner of a background run); a collection that is not there for them is refused with one message
 * whether it exists or not, so ids cannot be probed. An empty collection matches nothing.
 */
async function compileCollectionRow(
  row: Extract<SearchRow, { selectedOption: 'collection' }>,
  name: string,
  collections: CollectionResolver | undefined,
): Promise<CompiledRow> {
  if (!collections) throw badRequest(`${name}: searching by collection is not available here.`);
  const members = await collections(row.collectionId);
  if (!members) throw badRequest(collectionNotShared(name), { field: 'collectionId' });
  return structureIdsRow(members);
}

/** A row of structures given by id (ticked in a tab, or a collection's): matched directly, unknown ids matching nothing. */
function structureIdsRow(strIds: readonly number[]): CompiledRow {
  return { activity: null, direct: sql`SELECT s2.str_id FROM structures s2 WHERE s2.str_id = ${anyBigint(strIds)}`, clinical: null };
}

/** The one answer for a collection that does not exist and one that is not shared with the caller. */
function collectionNotShared(rowName: string): string {
  return `${rowName}: this collection does not exist or is not shared with you.`;
}

/**
 * The structure ids of a collection for the user the search runs for (the caller, or the owner of
 * an alert or a recovered session); null when it does not exist or is not shared with them.
 */
type CollectionResolver = (collectionId: number) => Promise<number[] | null>;

/** The target ids a Target row's terms stand for together (modules/targets `resolveTargetIds`). */
type TargetTermResolver = (terms: readonly TargetTerm[]) => Promise<number[]>;

/** Compiled rows with their expression, and its shape found once when the plan is made (search-plan.ts). */
export interface RowsPlan {
  expr: Expr;
  rows: CompiledRow[];
  /** Whether the expression negates a row (NOT searches judge structures as a whole). */
  negated: boolean;
}

export interface CompileContext {
  structures: StructureQueryResolver;
  /**
   * The structures a search's other rows leave, for a last structure row joined by AND or NOT
   * (compileCriteria): null when they cannot be had cheaply (the engine then searches everything).
   */
  structuresOf?: (plan: RowsPlan) => Promise<Float64Array | null>;
  targets: TargetTermResolver;
  /** µM factor per concentration unit (units.to_micromolar). */
  unitFactors: ReadonlyMap<string, number>;
  /** "In collection" rows: the members, read with the access of the user the search runs for (unset: such rows are refused). */
  collections?: CollectionResolver;
}

export async function compileRow(
  row: SearchRow,
  index: number,
  ctx: CompileContext,
  candidates: Float64Array | null = null,
): Promise<CompiledRow> {
  const name = rowName(index, row);
  switch (row.selectedOption) {
    case 'structure':
      return compileStructureRow(row, name, ctx.structures, candidates);
    case 'compoundcategories':
      return compileCategoryRow(row, name);
    case 'clinicalphase':
      return compileClinicalPhaseRow(row, name);
    case 'indication':
      return compileIndicationRow(row, name);
    case 'target':
      return compileTargetRow(row, name, ctx.targets);
    case 'activitytypes':
      return compileActivityRow(row, ctx.unitFactors);
    case 'bibliography':
      return compileBibliographyRow(row, name);
    case 'company':
      return compileCompanyRow(row, name);
    case 'source':
      return compileSourceRow(row, name);
    case 'assay':
      return compileAssayRow(row, name);
    case 'degrader': {
      const ligases = nonEmpty(row.ligases) ? lowerList(row.ligases) : null;
      const parts: Sql[] = [sql`a.degrader = ${anyText(row.degraderTypes)}`];
      if (ligases) parts.push(sql`lower(a.ligase_name) = ${anyText(ligases)}`);
      return {
        activity: sql<boolean>`(${sql.join(parts, sql` AND `)})`,
        direct: null,
        clinical: null,
        fields: { kind: 'degrader', types: [...row.degraderTypes], ligases },
      };
    }
    case 'activitymechanism':
      if (!row.mechanisms.length) throw badRequest(`${name} has no value: choose a mechanism.`);
      return {
        activity: sql<boolean>`lower(a.activity_mechanism) = ${anyText(lowerList(row.mechanisms))}`,
        fields: { kind: 'mechanism', mechanisms: lowerList(row.mechanisms) },
        // Development compounds with that action type in their mechanism of action (ChEMBL drug_mechanism), as the target row does.
        direct: sql`SELECT cc.str_id FROM clinical_compounds cc WHERE cc.str_id IS NOT NULL AND cc.clinical_compound_id IN
          (SELECT cct.clinical_compound_id FROM clinical_compound_targets cct WHERE lower(cct.action_type) = ${anyText(lowerList(row.mechanisms))})`,
        clinical: null,
      };
    case 'selection':
      return compileSelectionRow(row);
    case 'collection':
      return compileCollectionRow(row, name, ctx.collections);
    case 'treeview':
      return compileTreeRow(row);
  }
}

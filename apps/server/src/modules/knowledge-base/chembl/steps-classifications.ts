import { sql } from 'kysely';
import { compoundsByMolregno } from './lookups.ts';
import { hasColumn, int, selectList, str } from './sqlite-source.ts';
import type { SqlRow } from './sqlite-source.ts';
import { add, insertNew, keysOf, keysetStep, skip, wholeTableStep } from './step.ts';
import type { Db, ImportContext, Step, StepReport } from './step.ts';

/*
 * Target cross-references (component_xref: PDB and Entrez ids for the target search categories) and
 * the WHO ATC classification of drugs (docs/data-model.md "Mapping from ChEMBL").
 */

/** xref_src_db of PDB entries in ChEMBL. */
const PDB_SOURCE = 'PDBe';
/**
 * Names an NCBI Gene (Entrez) cross-reference could carry. ChEMBL's documented component_xref
 * sources (PDBe, EnsemblGene, GoComponent/Function/Process, InterPro, Pfam, Reactome, UniProt,
 * IntAct ...) have none, so real releases usually leave entrez_gene_id empty; a file that does carry
 * one (older or locally enriched releases) is mapped rather than ignored.
 */
const ENTREZ_SOURCES = ['entrezgene', 'entrez', 'ncbi gene', 'ncbigene', 'geneid'];

const XREF_WHERE = `(x.xref_src_db = '${PDB_SOURCE}' OR lower(x.xref_src_db) IN (${ENTREZ_SOURCES.map((s) => `'${s}'`).join(', ')}))`;

/** component_id -> tids, read from the file (a component can belong to several targets). */
function tidsByComponent(ctx: ImportContext, componentIds: number[]): Map<number, number[]> {
  const result = new Map<number, number[]>();
  if (componentIds.length === 0) return result;
  const rows = ctx.file.db
    .prepare(`SELECT component_id, tid FROM target_components WHERE component_id IN (${componentIds.map(() => '?').join(', ')})`)
    .all(...componentIds) as SqlRow[];
  for (const r of rows) {
    const component = int(r.component_id) as number;
    result.set(component, [...(result.get(component) ?? []), int(r.tid) as number]);
  }
  return result;
}

interface XrefPairs {
  tids: number[];
  ids: string[];
}

/** Adds PDB ids to targets.pdb_ids (set union, upper case: the search compares upper case). */
async function addPdbIds(trx: Db, pairs: XrefPairs): Promise<number> {
  if (pairs.tids.length === 0) return 0;
  const result = await sql`
    UPDATE targets t SET pdb_ids = ARRAY(SELECT DISTINCT x FROM unnest(t.pdb_ids || n.ids) AS x ORDER BY x)
    FROM (SELECT p.tid, array_agg(DISTINCT p.id) AS ids FROM unnest(${pairs.tids}::bigint[], ${pairs.ids}::text[]) AS p(tid, id) GROUP BY p.tid) n
    WHERE t.chembl_tid = n.tid AND NOT (n.ids <@ t.pdb_ids)`.execute(trx);
  return Number(result.numAffectedRows ?? 0);
}

/** Sets entrez_gene_id where still empty (a target keeps the first gene id it was given). */
async function setEntrezIds(trx: Db, pairs: XrefPairs): Promise<number> {
  if (pairs.tids.length === 0) return 0;
  const result = await sql`
    UPDATE targets t SET entrez_gene_id = n.gene
    FROM (SELECT p.tid, min(p.id::bigint) AS gene FROM unnest(${pairs.tids}::bigint[], ${pairs.ids}::text[]) AS p(tid, id) GROUP BY p.tid) n
    WHERE t.chembl_tid = n.tid AND t.entrez_gene_id IS NULL`.execute(trx);
  return Number(result.numAffectedRows ?? 0);
}

async function loadXrefs(trx: Db, ctx: ImportContext, report: StepReport, rows: SqlRow[]): Promise<void> {
  const tids = tidsByComponent(ctx, keysOf(rows, 'component_id'));
  const known = new Set(
    (
      await trx
        .selectFrom('targets')
        .select('chembl_tid')
        .where('chembl_tid', 'in', [...new Set([...tids.values()].flat()), -1])
        .execute()
    ).map((t) => Number(t.chembl_tid)),
  );
  const pdb: XrefPairs = { tids: [], ids: [] };
  const entrez: XrefPairs = { tids: [], ids: [] };
  for (const r of rows) {
    const id = str(r.xref_id);
    const isPdb = str(r.xref_src_db) === PDB_SOURCE;
    const targets = (tids.get(int(r.component_id) ?? -1) ?? []).filter((tid) => known.has(tid));
    if (id === null) skip(report, 'no xref_id');
    else if (!isPdb && !/^\d+$/.test(id)) skip(report, 'Entrez gene id not a number');
    else if (targets.length === 0) skip(report, 'component of no target in the file');
    else {
      const into = isPdb ? pdb : entrez;
      for (const tid of targets) {
        into.tids.push(tid);
        into.ids.push(isPdb ? id.toUpperCase() : id);
      }
      add(report.info, isPdb ? 'PDB ids' : 'Entrez gene ids');
    }
  }
  add(report.loaded, 'targets (PDB ids added)', await addPdbIds(trx, pdb));
  add(report.loaded, 'targets (Entrez gene id set)', await setEntrezIds(trx, entrez));
}

/** component_xref (PDBe; Entrez where present) -> targets.pdb_ids / targets.entrez_gene_id. */
export const componentXrefStep = (): Step =>
  keysetStep({
    name: 'component_xref',
    source: 'component_xref (PDBe, Entrez), target_components',
    target: 'targets.pdb_ids, targets.entrez_gene_id',
    requires: ['component_xref', 'target_components'],
    key: 'compxref_id',
    query: (ctx, missing) => ({
      sql:
        `SELECT ${selectList(ctx.file, 'component_xref', 'x', ['compxref_id', 'component_id', 'xref_src_db', 'xref_id'], missing)} ` +
        `FROM component_xref x WHERE ${hasColumn(ctx.file, 'component_xref', 'xref_src_db') ? XREF_WHERE : '0'} AND x.compxref_id > ? ORDER BY x.compxref_id LIMIT ?`,
      keyParams: 1,
      countSql: `SELECT count(*) FROM component_xref x WHERE ${hasColumn(ctx.file, 'component_xref', 'xref_src_db') ? XREF_WHERE : '0'}`,
    }),
    prepare: async (ctx, report, rows) => (trx) => loadXrefs(trx, ctx, report, rows),
  });

// ------------------------------------------------------------------ ATC

const ATC_COLUMNS = [
  'level1',
  'level1_description',
  'level2',
  'level2_description',
  'level3',
  'level3_description',
  'level4',
  'level4_description',
  'level5',
  'who_name',
] as const;

interface AtcNode {
  code: string;
  parent_code: string | null;
  level: number;
  name: string;
}

/** The five levels of each atc_classification row as tree nodes, each code once, parents first. */
function atcNodes(rows: SqlRow[]): AtcNode[][] {
  const levels: Map<string, AtcNode>[] = [new Map(), new Map(), new Map(), new Map(), new Map()];
  for (const r of rows) {
    let parent: string | null = null;
    for (let level = 1; level <= 5; level++) {
      const code = str(r[`level${level}`]);
      if (code === null) break;
      // Level 5 is named by who_name (the substance); the others by their description.
      const name = str(level === 5 ? r.who_name : r[`level${level}_description`]) ?? code;
      if (!levels[level - 1]!.has(code)) levels[level - 1]!.set(code, { code, parent_code: parent, level, name });
      parent = code;
    }
  }
  return levels.map((m) => [...m.values()]);
}

/** atc_classification -> atc_classes (tree of five levels). */
export const atcClassesStep = (): Step =>
  wholeTableStep({
    name: 'atc_classification',
    source: 'atc_classification',
    target: 'atc_classes',
    requires: ['atc_classification'],
    query: (ctx, missing) =>
      `SELECT ${selectList(ctx.file, 'atc_classification', 'c', ATC_COLUMNS, missing)} FROM atc_classification c ORDER BY c.level5`,
    prepare: async (_ctx, report, rows) => async (trx) => {
      for (const nodes of atcNodes(rows)) await insertNew(trx, report, 'atc_classes', nodes);
    },
  });

async function loadMoleculeAtc(trx: Db, report: StepReport, rows: SqlRow[]): Promise<void> {
  const compounds = await compoundsByMolregno(trx, keysOf(rows, 'molregno'));
  const codes = [...new Set(rows.map((r) => str(r.level5)).filter((c): c is string => c !== null))];
  const known = new Set(
    codes.length === 0 ? [] : (await trx.selectFrom('atc_classes').select('code').where('code', 'in', codes).execute()).map((c) => c.code),
  );
  const mapped = rows.flatMap((r) => {
    const compound = compounds.get(int(r.molregno) ?? -1);
    const code = str(r.level5);
    if (compound === undefined) return skip(report, 'molecule not in the file');
    if (code === null || !known.has(code)) return skip(report, 'ATC code not in atc_classification');
    return [{ gvk_id: compound.gvk_id, atc_code: code, chembl_mol_atc_id: int(r.mol_atc_id) }];
  });
  await insertNew(trx, report, 'compound_atc', mapped);
}

/** molecule_atc_classification -> compound_atc. */
export const moleculeAtcStep = (): Step =>
  keysetStep({
    name: 'molecule_atc_classification',
    source: 'molecule_atc_classification',
    target: 'compound_atc',
    requires: ['molecule_atc_classification'],
    key: 'mol_atc_id',
    query: (ctx, missing) => ({
      sql:
        `SELECT ${selectList(ctx.file, 'molecule_atc_classification', 'm', ['mol_atc_id', 'level5', 'molregno'], missing)} ` +
        'FROM molecule_atc_classification m WHERE m.mol_atc_id > ? ORDER BY m.mol_atc_id LIMIT ?',
      keyParams: 1,
      countSql: 'SELECT count(*) FROM molecule_atc_classification',
    }),
    prepare: async (_ctx, report, rows) => (trx) => loadMoleculeAtc(trx, report, rows),
  });

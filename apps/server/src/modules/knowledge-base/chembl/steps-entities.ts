import { insertBatched } from '../bulk.ts';
import { documentsByChemblId, targetsByTid } from './lookups.ts';
import { assayType, citation, enzymeCellAssay, patentCountry, refType, splitAuthors } from './mapping.ts';
import { hasColumn, hasTable, int, str } from './sqlite-source.ts';
import type { ChemblFile, SqlRow } from './sqlite-source.ts';
import { add, keysOf, keysetStep, tableKeysetQuery } from './step.ts';
import { upsertKeyed } from './release.ts';
import type { Db, ImportContext, Step, StepReport } from './step.ts';

const DOC_COLUMNS = [
  'doc_id',
  'chembl_id',
  'journal',
  'year',
  'volume',
  'issue',
  'first_page',
  'last_page',
  'pubmed_id',
  'doi',
  'title',
  'doc_type',
  'authors',
  'abstract',
  'patent_id',
  'src_id',
] as const;

function mapDocument(ctx: ImportContext, r: SqlRow) {
  const type = refType(r);
  return {
    ref_type: type,
    title: str(r.title),
    reference: citation(r),
    journal_patent_name: str(r.journal),
    year: int(r.year),
    volume: str(r.volume),
    issue: str(r.issue),
    start_page: str(r.first_page),
    end_page: str(r.last_page),
    pubmed_id: int(r.pubmed_id),
    doi: str(r.doi),
    patent_no: str(r.patent_id),
    country_code: type === 'patent' ? patentCountry(r.patent_id) : null,
    abstract: str(r.abstract),
    data_source_id: ctx.sourceIds.get(int(r.src_id) ?? -1) ?? ctx.chemblSourceId,
    chembl_id: str(r.chembl_id),
    chembl_doc_id: int(r.doc_id),
  };
}

/** docs -> documents + document_authors (authors in their printed order). */
export const documentsStep = (): Step =>
  keysetStep({
    name: 'docs',
    source: 'docs',
    target: 'documents, document_authors',
    requires: ['docs'],
    key: 'doc_id',
    query: tableKeysetQuery('docs', 'd', 'doc_id', DOC_COLUMNS),
    prepare: async (ctx, report, rows) => async (trx) => {
      const mapped = rows.map((r) => mapDocument(ctx, r));
      await upsertKeyed(trx, ctx.release, report, 'documents', mapped);
      const refIds = await documentsByChemblId(trx, keysOf(rows, 'doc_id'));
      const authors = rows.flatMap((r) => {
        const refId = refIds.get(int(r.doc_id) ?? -1);
        return refId === undefined ? [] : splitAuthors(r.authors).map((name, i) => ({ ref_id: refId, position: i + 1, name }));
      });
      add(report.loaded, 'document_authors', await insertBatched(trx, 'document_authors', authors, { onConflictDoNothing: true }));
    },
  });

interface Component {
  tid: number;
  componentId: number;
  accession: string | null;
}

/** Components of a batch of targets, first component first (its accession/gene name the target's). */
function readComponents(file: ChemblFile, tids: number[]): Map<number, Component[]> {
  const byTid = new Map<number, Component[]>();
  if (!hasTable(file, 'target_components') || !hasTable(file, 'component_sequences')) return byTid;
  const rows = file.db
    .prepare(
      'SELECT tc.tid AS tid, cs.component_id AS component_id, cs.accession AS accession FROM target_components tc ' +
        'JOIN component_sequences cs ON cs.component_id = tc.component_id WHERE tc.tid IN (SELECT value FROM json_each(?)) ' +
        'ORDER BY tc.tid, cs.component_id',
    )
    .all(JSON.stringify(tids)) as SqlRow[];
  for (const r of rows) {
    const tid = int(r.tid) as number;
    byTid.set(tid, [...(byTid.get(tid) ?? []), { tid, componentId: int(r.component_id) as number, accession: str(r.accession) }]);
  }
  return byTid;
}

function readComponentSynonyms(file: ChemblFile, componentIds: number[]): Map<number, { synonym: string; type: string }[]> {
  const byComponent = new Map<number, { synonym: string; type: string }[]>();
  if (!hasTable(file, 'component_synonyms') || componentIds.length === 0) return byComponent;
  const order = hasColumn(file, 'component_synonyms', 'compsyn_id') ? 'compsyn_id' : 'rowid';
  const rows = file.db
    .prepare(
      `SELECT component_id, component_synonym, syn_type FROM component_synonyms WHERE component_id IN (SELECT value FROM json_each(?)) ORDER BY ${order}`,
    )
    .all(JSON.stringify(componentIds)) as SqlRow[];
  for (const r of rows) {
    const synonym = str(r.component_synonym);
    if (!synonym) continue;
    const id = int(r.component_id) as number;
    const type = (str(r.syn_type) ?? 'synonym').toLowerCase().replaceAll('_', ' ');
    byComponent.set(id, [...(byComponent.get(id) ?? []), { synonym, type }]);
  }
  return byComponent;
}

/** component_class -> the deepest of our classes per component. */
async function readComponentClasses(trx: Db, file: ChemblFile, componentIds: number[]): Promise<Map<number, number>> {
  const result = new Map<number, number>();
  if (!hasTable(file, 'component_class') || componentIds.length === 0) return result;
  const rows = file.db
    .prepare('SELECT component_id, protein_class_id FROM component_class WHERE component_id IN (SELECT value FROM json_each(?))')
    .all(JSON.stringify(componentIds)) as SqlRow[];
  const chemblClassIds = keysOf(rows, 'protein_class_id');
  if (chemblClassIds.length === 0) return result;
  const classes = await trx
    .selectFrom('target_classes')
    .select(['chembl_class_id', 'class_id', 'level'])
    .where('chembl_class_id', 'in', chemblClassIds)
    .execute();
  const byChembl = new Map(classes.map((c) => [Number(c.chembl_class_id), c]));
  const level = new Map<number, number>();
  for (const r of rows) {
    const cls = byChembl.get(int(r.protein_class_id) ?? -1);
    const id = int(r.component_id) as number;
    if (cls && cls.level >= (level.get(id) ?? -1)) {
      result.set(id, cls.class_id);
      level.set(id, cls.level);
    }
  }
  return result;
}

const TARGET_COLUMNS = ['tid', 'target_type', 'pref_name', 'tax_id', 'organism', 'chembl_id'] as const;

async function loadTargets(trx: Db, ctx: ImportContext, report: StepReport, rows: SqlRow[]): Promise<void> {
  const components = readComponents(ctx.file, keysOf(rows, 'tid'));
  const componentIds = [...components.values()].flat().map((c) => c.componentId);
  const synonyms = readComponentSynonyms(ctx.file, componentIds);
  const classes = await readComponentClasses(trx, ctx.file, componentIds);
  const mapped = rows.map((r) => {
    const first = components.get(int(r.tid) as number)?.[0];
    const gene = first ? (synonyms.get(first.componentId)?.find((s) => s.type === 'gene symbol')?.synonym ?? null) : null;
    return {
      name: str(r.pref_name) ?? str(r.chembl_id) ?? `ChEMBL target ${int(r.tid)}`,
      target_type: str(r.target_type) ?? 'UNCHECKED',
      gene_symbol: gene,
      uniprot_id: first?.accession ?? null,
      organism: str(r.organism),
      tax_id: int(r.tax_id),
      class_id: first ? (classes.get(first.componentId) ?? null) : null,
      data_source_id: ctx.chemblSourceId,
      chembl_id: str(r.chembl_id),
      chembl_tid: int(r.tid),
    };
  });
  await upsertKeyed(trx, ctx.release, report, 'targets', mapped);
  add(report.info, 'targets with a UniProt accession', mapped.filter((t) => t.uniprot_id !== null).length);
  const targetIds = await targetsByTid(trx, keysOf(rows, 'tid'));
  const targetSynonyms = [...components.entries()].flatMap(([tid, list]) => {
    const targetId = targetIds.get(tid);
    if (targetId === undefined) return [];
    return list.flatMap((c) => [
      ...(c.accession ? [{ target_id: targetId, synonym: c.accession, syn_type: 'UniProt accession' }] : []),
      ...(synonyms.get(c.componentId) ?? []).map((s) => ({ target_id: targetId, synonym: s.synonym, syn_type: s.type })),
    ]);
  });
  add(report.loaded, 'target_synonyms', await insertBatched(trx, 'target_synonyms', targetSynonyms, { onConflictDoNothing: true }));
}

/** target_dictionary (+ target_components, component_sequences, component_synonyms, component_class) -> targets. */
export const targetsStep = (): Step =>
  keysetStep({
    name: 'target_dictionary',
    source: 'target_dictionary, target_components, component_sequences, component_synonyms, component_class',
    target: 'targets, target_synonyms',
    requires: ['target_dictionary'],
    key: 'tid',
    query: (ctx, missing) => {
      for (const t of ['target_components', 'component_sequences', 'component_synonyms', 'component_class']) {
        if (!hasTable(ctx.file, t)) missing.push(`${t} (whole table)`);
      }
      return tableKeysetQuery('target_dictionary', 't', 'tid', TARGET_COLUMNS)(ctx, missing);
    },
    prepare: async (ctx, report, rows) => (trx) => loadTargets(trx, ctx, report, rows),
  });

const ASSAY_COLUMNS = [
  'assay_id',
  'doc_id',
  'tid',
  'description',
  'assay_type',
  'assay_test_type',
  'assay_organism',
  'assay_strain',
  'assay_tissue',
  'assay_cell_type',
  'assay_subcellular_fraction',
  'confidence_score',
  'src_id',
  'chembl_id',
  'bao_format',
] as const;

async function loadAssays(trx: Db, ctx: ImportContext, report: StepReport, rows: SqlRow[]): Promise<void> {
  const refIds = await documentsByChemblId(trx, keysOf(rows, 'doc_id'));
  const targetIds = await targetsByTid(trx, keysOf(rows, 'tid'));
  const mapped = rows.map((r) => {
    const bao = str(r.bao_format);
    const tissue = str(r.assay_tissue);
    return {
      ref_id: refIds.get(int(r.doc_id) ?? -1) ?? null,
      target_id: targetIds.get(int(r.tid) ?? -1) ?? null,
      data_source_id: ctx.sourceIds.get(int(r.src_id) ?? -1) ?? ctx.chemblSourceId,
      description: str(r.description),
      assay_type: assayType(r.assay_type),
      enzyme_cell_assay: enzymeCellAssay(bao) ?? str(r.assay_test_type)?.toLowerCase() ?? null,
      cells_cellline_organ: str(r.assay_cell_type) ?? tissue ?? str(r.assay_subcellular_fraction),
      organism: str(r.assay_organism),
      strain: str(r.assay_strain),
      tissue,
      bao_format: bao ? (ctx.baoLabels.get(bao) ?? bao) : null,
      confidence_score: int(r.confidence_score),
      chembl_id: str(r.chembl_id),
      chembl_assay_id: int(r.assay_id),
    };
  });
  add(
    report.info,
    'document not in the file (assay kept without reference)',
    mapped.filter((a, i) => a.ref_id === null && int(rows[i]?.doc_id) !== null).length,
  );
  add(
    report.info,
    'target not in the file (assay kept without target)',
    mapped.filter((a, i) => a.target_id === null && int(rows[i]?.tid) !== null).length,
  );
  await upsertKeyed(trx, ctx.release, report, 'assays', mapped);
}

/** assays (+ bioassay_ontology labels) -> assays. */
export const assaysStep = (): Step =>
  keysetStep({
    name: 'assays',
    source: 'assays, bioassay_ontology',
    target: 'assays',
    requires: ['assays'],
    key: 'assay_id',
    batchRows: 10_000,
    query: tableKeysetQuery('assays', 'a', 'assay_id', ASSAY_COLUMNS),
    prepare: async (ctx, report, rows) => (trx) => loadAssays(trx, ctx, report, rows),
  });

/** bioassay_ontology is a label dictionary for assays.bao_format: read into memory, not a table of ours. */
export function readBaoLabels(file: ChemblFile): Map<string, string> {
  if (!hasTable(file, 'bioassay_ontology')) return new Map();
  try {
    const rows = file.db.prepare('SELECT bao_id, label FROM bioassay_ontology').all() as SqlRow[];
    return new Map(rows.filter((r) => str(r.bao_id) && str(r.label)).map((r) => [str(r.bao_id) as string, str(r.label) as string]));
  } catch {
    return new Map();
  }
}

import type { Insertable } from 'kysely';
import type { AssaysTable, DocumentsTable } from '../../../db/kb-schema.ts';
import { INITIALS, JOURNALS, PATENT_OFFICES, SURNAMES } from './catalog.ts';
import { TARGETS } from './catalog-targets.ts';
import type { DemoScaffold } from './catalog.ts';
import type { Rng } from './random.ts';
import type { Vocabulary } from './vocabulary.ts';

/**
 * A demo series' documents and assays: the paper or patent that reports it, and the assays it is
 * measured in (primary, off-target and panel, cell, ADME, safety, in vivo). series.ts draws the
 * compounds and their measurements in these assays.
 */

/** What a series' rows are drawn with: its random stream, the vocabulary, its place and the next activity id. */
export interface Ctx {
  rng: Rng;
  vocab: Vocabulary;
  chunk: number;
  seriesNo: number;
  nextAct: () => number;
}

export interface SeriesAssay {
  id: number;
  kind:
    | 'primary'
    | 'offtarget'
    | 'panel'
    | 'cell'
    | 'degradation'
    | 'dmax'
    | 'papp'
    | 'solubility'
    | 'clint'
    | 'herg'
    | 'cc50'
    | 'logd'
    | 'invivo';
  gene: string | null;
  type: string;
}

export function documentFor(
  ctx: Ctx,
  refId: number,
  scaffold: DemoScaffold,
  gene: string,
): { doc: Insertable<DocumentsTable>; authors: string[] } {
  const { rng } = ctx;
  const year = rng.int(2000, 2024);
  const authors = Array.from({ length: rng.int(3, 8) }, () => `${rng.pick(SURNAMES)} ${rng.pick(INITIALS)}`);
  const title = `[DEMO] Discovery of ${scaffold.name} ${scaffold.degrader ? 'degraders' : 'inhibitors'} of ${gene}: series ${ctx.chunk}.${ctx.seriesNo}`;
  if (rng.chance(0.3)) {
    const office = rng.pick(PATENT_OFFICES);
    const number = `${office.country}${year}${String(refId % 1_000_000).padStart(6, '0')}`;
    return {
      doc: {
        ref_id: refId,
        ref_type: 'patent',
        title,
        journal_patent_name: office.name,
        year,
        patent_no: number,
        country_code: office.country,
        application_type: rng.pick(office.applicationTypes),
        reference: `${number} (DEMO patent, ${year})`,
        data_source_id: ctx.vocab.dataSourceId,
      },
      authors,
    };
  }
  const journal = rng.pick(JOURNALS);
  const volume = String(year - 1957);
  const start = rng.int(1, 9000);
  return {
    doc: {
      ref_id: refId,
      ref_type: 'journal',
      title,
      journal_patent_name: journal.name,
      year,
      volume,
      issue: String(rng.int(1, 24)),
      start_page: String(start),
      end_page: String(start + rng.int(5, 20)),
      issn_no: journal.issn,
      // 10.5555 is the DOI test prefix and 9xxxxxxx PubMed ids are unassigned: demo references never resolve.
      doi: `10.5555/demo.${refId}`,
      pubmed_id: 90_000_000 + refId,
      reference: `${journal.name} ${year}, ${volume}, ${start}`,
      data_source_id: ctx.vocab.dataSourceId,
    },
    authors,
  };
}

export function assayRow(ctx: Ctx, a: SeriesAssay, refId: number, scaffold: DemoScaffold): Insertable<AssaysTable> {
  const { rng, vocab } = ctx;
  const target = a.gene ? TARGETS.find((t) => t.gene === a.gene) : undefined;
  const base: Insertable<AssaysTable> = {
    assay_id: a.id,
    ref_id: refId,
    target_id: a.gene ? (vocab.targetIdByGene.get(a.gene) ?? null) : null,
    data_source_id: vocab.dataSourceId,
    common_name: a.gene,
    organism: 'Homo sapiens',
    assay_type: 'binding',
    buffer: 'HEPES',
    buffer_conc: 50,
    buffer_uom: 'mM',
    buffer_prefix: '=',
    ph: 7.4,
    temperature: 25,
    temperature_uom: 'C',
    temperature_prefix: '=',
    incubation_time: 60,
    incubation_time_uom: 'min',
    incubation_time_prefix: '=',
    assay_position: a.kind === 'primary' ? 'primary' : 'secondary',
    confidence_score: 9,
  };
  const cell = (name: string) => {
    const strain = vocab.strains.get(name);
    return { cells_cellline_organ: name, taxonomy_id: strain?.id ?? null, strain: name, enzyme_cell_assay: 'cell' };
  };
  const isGpcr = target?.classPath.includes('Monoamine receptor') ?? false;
  switch (a.kind) {
    case 'primary':
    case 'offtarget':
      return {
        ...base,
        assay_type: 'binding',
        enzyme_cell_assay: 'enzyme',
        description: `${isGpcr ? 'Displacement of radioligand from' : 'Inhibition of'} human ${target?.name} (${a.gene})`,
        assay_method_name: isGpcr ? 'Radioligand binding' : 'HTRF',
        target_profile: a.kind === 'primary' ? 'primary target' : 'selectivity',
        ...(isGpcr
          ? { radio_ligand: '[3H]-spiperone', radio_ligand_conc: 0.5, radio_ligand_uom: 'nM', radio_ligand_prefix: '=' }
          : { substrate: 'ATP', substrate_conc: 10, substrate_uom: 'uM', substrate_prefix: '=' }),
        in_presence_of: 'BSA',
        in_presence_of_conc: 0.1,
        in_presence_of_uom: '%',
        in_presence_of_prefix: '=',
        ...(a.gene === 'EGFR' && rng.chance(0.4)
          ? { mutant: 'T790M', wild_type: false, residue_name: 'THR', residue_position: 790, residue_change: 'T790M' }
          : { wild_type: true }),
      };
    case 'panel':
      return {
        ...base,
        assay_type: 'binding',
        enzyme_cell_assay: 'enzyme',
        assay_method_name: 'Mobility shift',
        target_profile: 'panel',
        description: `Inhibition of ${a.gene} at 1 uM (selectivity panel)`,
      };
    case 'cell':
      return {
        ...base,
        ...cell(rng.pick(['A431', 'HCT116', 'MCF-7', 'K562'])),
        assay_type: 'functional',
        assay_method_name: 'CellTiter-Glo',
        temperature: 37,
        incubation_time: 72,
        incubation_time_uom: 'h',
        description: `Antiproliferative activity (${a.gene}-dependent cells)`,
      };
    case 'degradation':
    case 'dmax':
      return {
        ...base,
        ...cell('HEK293'),
        assay_type: 'functional',
        assay_method_name: 'HiBiT lysate luminescence',
        temperature: 37,
        incubation_time: 24,
        incubation_time_uom: 'h',
        description: `Degradation of ${a.gene} via ${scaffold.degrader?.ligase} (${a.type})`,
        co_administered: a.kind === 'dmax' ? 'MG-132 control' : null,
      };
    case 'papp':
      return {
        ...base,
        ...cell('Caco-2'),
        target_id: null,
        common_name: null,
        assay_type: 'adme',
        assay_method_name: 'Caco-2 monolayer',
        temperature: 37,
        pk_endpoint_id: vocab.endpointIdByName.get('Caco-2 Papp') ?? null,
        description: 'Apparent permeability A to B in Caco-2 cells',
      };
    case 'solubility':
      return {
        ...base,
        target_id: null,
        common_name: null,
        assay_type: 'physicochemical',
        assay_method_name: 'Nephelometry',
        buffer: 'PBS',
        buffer_conc: 10,
        pk_endpoint_id: vocab.endpointIdByName.get('Kinetic solubility') ?? null,
        description: 'Kinetic solubility in PBS pH 7.4',
      };
    case 'clint':
      return {
        ...base,
        target_id: null,
        common_name: null,
        assay_type: 'adme',
        enzyme_cell_assay: 'tissue',
        tissue: 'liver microsomes',
        cells_cellline_organ: 'Liver',
        assay_method_name: 'LC-MS/MS',
        temperature: 37,
        pk_endpoint_id: vocab.endpointIdByName.get('Intrinsic clearance') ?? null,
        description: 'Intrinsic clearance in human liver microsomes',
      };
    case 'herg':
      return {
        ...base,
        ...cell('HEK293'),
        assay_type: 'toxicity',
        assay_method_name: 'Automated patch clamp',
        tox_endpoint_id: vocab.endpointIdByName.get('hERG inhibition') ?? null,
        description: 'Inhibition of hERG current in HEK293 cells',
      };
    case 'cc50':
      return {
        ...base,
        ...cell('HepG2'),
        target_id: null,
        common_name: null,
        assay_type: 'toxicity',
        assay_method_name: 'CellTiter-Glo',
        tox_endpoint_id: vocab.endpointIdByName.get('CC50') ?? null,
        description: 'Cytotoxicity in HepG2 cells',
      };
    case 'logd':
      return {
        ...base,
        target_id: null,
        common_name: null,
        assay_type: 'physicochemical',
        assay_method_name: 'Shake-flask',
        buffer: 'PBS',
        description: 'LogD octanol/PBS pH 7.4',
      };
    case 'invivo': {
      const rat = vocab.strains.get('Sprague-Dawley');
      return {
        ...base,
        target_id: null,
        common_name: null,
        assay_type: 'adme',
        enzyme_cell_assay: 'in vivo',
        organism: 'Rattus norvegicus',
        strain: 'Sprague-Dawley',
        taxonomy_id: rat?.id ?? null,
        cells_cellline_organ: 'Plasma',
        assay_method_name: 'LC-MS/MS',
        temperature: null,
        pk_endpoint_id:
          vocab.endpointIdByName.get(a.type === 'CL' ? 'Plasma clearance' : a.type === 'F' ? 'Bioavailability' : 'Half-life') ?? null,
        description: `Pharmacokinetics in rat: ${a.type}`,
      };
    }
  }
}

export function seriesAssays(ctx: Ctx, firstId: number, scaffold: DemoScaffold, gene: string): SeriesAssay[] {
  const { rng } = ctx;
  let id = firstId;
  const list: SeriesAssay[] = [];
  const add = (kind: SeriesAssay['kind'], g: string | null, type: string) => list.push({ id: id++, kind, gene: g, type });
  const isGpcr = TARGETS.find((t) => t.gene === gene)?.classPath.includes('Monoamine receptor') ?? false;
  if (scaffold.degrader) {
    add('degradation', gene, 'DC50');
    add('dmax', gene, 'Dmax');
  }
  add('primary', gene, isGpcr ? 'Ki' : 'IC50');
  const others = TARGETS.filter((t) => t.gene !== gene && !['KCNH2', 'CYP3A4'].includes(t.gene)).map((t) => t.gene);
  for (const g of rng.sample(others, 2)) add('offtarget', g, rng.chance(0.5) ? 'Ki' : 'Kd');
  for (const g of rng.sample(others, 5)) add('panel', g, 'Inhibition');
  if (rng.chance(0.7)) add('cell', gene, isGpcr ? 'EC50' : 'IC50');
  if (rng.chance(0.5)) {
    add('papp', null, 'Papp');
    add('clint', null, 'CLint');
    add('solubility', null, 'Solubility');
  }
  if (rng.chance(0.5)) {
    add('herg', 'KCNH2', 'IC50');
    add('cc50', null, 'CC50');
  }
  if (rng.chance(0.4)) add('logd', null, 'LogD');
  if (rng.chance(0.3)) for (const t of ['CL', 'T1/2', 'F']) add('invivo', null, t);
  return list;
}

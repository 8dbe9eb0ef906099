import type { Insertable } from 'kysely';
import type {
  ActivitiesTable,
  AssaysTable,
  ClinicalCompoundsTable,
  CompoundsTable,
  DocumentsTable,
  StructuresTable,
} from '../../../db/kb-schema.ts';
import type { ComputedStructure } from '../chem/chem-pool.ts';
import { SCAFFOLDS, SUBSTITUENTS } from './catalog.ts';
import type { DemoScaffold } from './catalog.ts';
import { analogueAt, comboSpace } from './molecules.ts';
import type { Analogue } from './molecules.ts';
import { Rng, hashSeed, keyedNormal } from './random.ts';
import type { Vocabulary } from './vocabulary.ts';
import { assayRow, documentFor, seriesAssays } from './series-assays.ts';
import type { Ctx, SeriesAssay } from './series-assays.ts';

/** Fixed chunk geometry: ids are derived from the chunk number, so chunks load in any order. */
const SERIES_PER_CHUNK = 40;
const COMPOUNDS_PER_SERIES = 25;
export const STR_PER_CHUNK = SERIES_PER_CHUNK * COMPOUNDS_PER_SERIES;
const ACT_PER_CHUNK = 40_000;
const ASSAYS_PER_SERIES = 24;
const ASSAYS_PER_CHUNK = SERIES_PER_CHUNK * ASSAYS_PER_SERIES;

/** Degrader scaffolds have small spaces; when a series would run past it, it borrows the top of a big one. */
const BIG_SCAFFOLDS = SCAFFOLDS.map((s, i) => ({ s, i }))
  .filter(({ s }) => !s.degrader)
  .map(({ i }) => i);

function seriesPlan(globalSeries: number): { scaffoldIndex: number; firstN: number } {
  const scaffoldIndex = globalSeries % SCAFFOLDS.length;
  const ordinal = Math.floor(globalSeries / SCAFFOLDS.length);
  const scaffold = SCAFFOLDS[scaffoldIndex] as DemoScaffold;
  const fits = Math.floor(comboSpace(scaffold) / COMPOUNDS_PER_SERIES);
  if (ordinal < fits) return { scaffoldIndex, firstN: ordinal * COMPOUNDS_PER_SERIES };
  const overflow = ordinal - fits;
  const lane = (scaffoldIndex * 7 + (overflow % 6)) % BIG_SCAFFOLDS.length;
  const borrowed = BIG_SCAFFOLDS[lane] as number;
  // Interleave the degrader scaffolds that may share a lane, counting series down from the top.
  const degraderRank = scaffoldIndex - BIG_SCAFFOLDS.length;
  const fromTop = Math.floor(overflow / 6) * (SCAFFOLDS.length - BIG_SCAFFOLDS.length) + degraderRank + 1;
  return { scaffoldIndex: borrowed, firstN: comboSpace(SCAFFOLDS[borrowed] as DemoScaffold) - fromTop * COMPOUNDS_PER_SERIES };
}

/** The analogues (SMILES) of one chunk, in load order; RDKit computes them before `buildChunk`. */
export function chunkAnalogues(chunk: number): Analogue[] {
  const out: Analogue[] = [];
  for (let k = 0; k < SERIES_PER_CHUNK; k++) {
    const { scaffoldIndex, firstN } = seriesPlan(chunk * SERIES_PER_CHUNK + k);
    for (let c = 0; c < COMPOUNDS_PER_SERIES; c++) out.push(analogueAt(scaffoldIndex, firstN + c));
  }
  return out;
}

export interface ChunkRows {
  documents: Insertable<DocumentsTable>[];
  authors: { ref_id: number; position: number; name: string }[];
  documentCompanies: { ref_id: number; company_id: number }[];
  structures: Insertable<StructuresTable>[];
  compounds: Insertable<CompoundsTable>[];
  assays: Insertable<AssaysTable>[];
  activities: Insertable<ActivitiesTable>[];
  clinical: Insertable<ClinicalCompoundsTable>[];
  clinicalTargets: { clinical_compound_id: number; target_id: number; action_type: string; mechanism: string }[];
  clinicalIndications: { clinical_compound_id: number; indication_id: number; phase_id: number }[];
  clinicalCompanies: { clinical_compound_id: number; company_id: number }[];
}

/** Expected potency: scaffold/target baseline + one additive contribution per substituent (Free–Wilson). */
export function sarPotency(scaffoldIndex: number, gene: string, r: number[], linker: number | null): number {
  let p = 6.2 + 0.5 * keyedNormal('base', scaffoldIndex, gene);
  r.forEach((sub, slot) => {
    p += 0.45 * keyedNormal('sar', scaffoldIndex, gene, slot, sub);
  });
  if (linker !== null) p += 0.4 * keyedNormal('linker', scaffoldIndex, gene, linker);
  return p;
}

const round = (v: number, digits = 3): number => Number(v.toPrecision(digits));
const CENSOR_P = 4.5; // 30 uM: the top concentration tested

interface Measured {
  type: string;
  prefix: string;
  value: number;
  uom: string | null;
  pchembl: number | null;
  param: string | null;
}

function concentration(type: string, p: number): Measured {
  if (p < CENSOR_P) return { type, prefix: '>', value: 30_000, uom: 'nM', pchembl: null, param: null };
  return { type, prefix: '=', value: round(10 ** (9 - p)), uom: 'nM', pchembl: round(p, 3), param: null };
}

/** Measures one compound in one assay: SAR potency for target assays, property-driven ADME/tox. */
function measure(a: SeriesAssay, an: Analogue, props: ComputedStructure, rng: Rng): Measured | null {
  const noise = () => 0.25 * rng.normal();
  const logp = props.logp_calc;
  switch (a.kind) {
    case 'primary':
    case 'offtarget':
      return concentration(
        a.type,
        sarPotency(an.scaffoldIndex, a.gene ?? '', an.r, an.linker) - (a.kind === 'offtarget' ? 1.2 : 0) + noise(),
      );
    case 'cell':
      return concentration(a.type, sarPotency(an.scaffoldIndex, a.gene ?? '', an.r, an.linker) - 0.7 + 0.1 * logp + noise());
    case 'degradation':
      return concentration('DC50', sarPotency(an.scaffoldIndex, a.gene ?? '', an.r, an.linker) + 0.3 + noise());
    case 'panel':
    case 'dmax': {
      const p = sarPotency(an.scaffoldIndex, a.gene ?? '', an.r, an.linker) - (a.kind === 'panel' ? 1.5 : 0) + noise();
      const pct = Math.min(100, Math.max(0, 100 / (1 + 10 ** (6 - p)) + 4 * rng.normal()));
      return {
        type: a.type,
        prefix: '=',
        value: round(pct, 3),
        uom: '%',
        pchembl: null,
        param: a.kind === 'panel' ? '@ 1 uM' : 'at 1 uM, 24 h',
      };
    }
    case 'papp':
      return {
        type: 'Papp',
        prefix: '=',
        value: round(10 ** (1.3 + 0.15 * logp - 0.008 * props.psa + noise())),
        uom: '10^-6 cm/s',
        pchembl: null,
        param: 'A to B',
      };
    case 'clint':
      return { type: 'CLint', prefix: '=', value: round(10 ** (0.6 + 0.3 * logp + noise())), uom: 'uL/min/mg', pchembl: null, param: null };
    case 'solubility': {
      const s = 10 ** (2.6 - 0.55 * logp + noise());
      return s > 200
        ? { type: 'Solubility', prefix: '>', value: 200, uom: 'uM', pchembl: null, param: 'pH 7.4' }
        : { type: 'Solubility', prefix: '=', value: round(s), uom: 'uM', pchembl: null, param: 'pH 7.4' };
    }
    case 'herg':
      return concentration('IC50', 4.1 + 0.45 * logp + noise());
    case 'cc50':
      return concentration('CC50', 3.8 + 0.3 * logp + noise());
    case 'logd':
      return { type: 'LogD', prefix: '=', value: round(logp - 0.6 + noise(), 3), uom: null, pchembl: null, param: 'pH 7.4' };
    case 'invivo':
      if (a.type === 'CL')
        return {
          type: 'CL',
          prefix: '=',
          value: round(10 ** (0.8 + 0.15 * logp + noise())),
          uom: 'mL/min/kg',
          pchembl: null,
          param: 'i.v.',
        };
      if (a.type === 'F')
        return {
          type: 'F',
          prefix: '=',
          value: round(Math.min(100, Math.max(1, 60 - 0.25 * props.psa + 20 * rng.normal()))),
          uom: '%',
          pchembl: null,
          param: 'p.o.',
        };
      return { type: 'T1/2', prefix: '=', value: round(10 ** (0.2 + 0.1 * logp + noise())), uom: 'h', pchembl: null, param: 'p.o.' };
  }
}

/**
 * Builds every row of one chunk from the analogues and their RDKit properties. Pure and
 * deterministic for (seed, chunk): the basis of resumable, order-independent L loads.
 */
export function buildChunk(
  seed: number,
  chunk: number,
  analogues: Analogue[],
  props: (ComputedStructure | null)[],
  vocab: Vocabulary,
): ChunkRows {
  const rows: ChunkRows = {
    documents: [],
    authors: [],
    documentCompanies: [],
    structures: [],
    compounds: [],
    assays: [],
    activities: [],
    clinical: [],
    clinicalTargets: [],
    clinicalIndications: [],
    clinicalCompanies: [],
  };
  let act = chunk * ACT_PER_CHUNK;
  const strByCanonical = new Map<string, number>();
  for (let k = 0; k < SERIES_PER_CHUNK; k++) {
    const rng = new Rng(hashSeed(seed, chunk, k));
    const ctx: Ctx = { rng, vocab, chunk, seriesNo: k, nextAct: () => ++act };
    const first = analogues[k * COMPOUNDS_PER_SERIES] as Analogue;
    const scaffold = first.scaffold;
    const gene = rng.pick(scaffold.targets);
    const refId = chunk * SERIES_PER_CHUNK + k + 1;
    const { doc, authors } = documentFor(ctx, refId, scaffold, gene);
    rows.documents.push(doc);
    authors.forEach((name, i) => rows.authors.push({ ref_id: refId, position: i + 1, name }));
    const company = rng.pick(vocab.companyIds);
    rows.documentCompanies.push({ ref_id: refId, company_id: company });
    const assays = seriesAssays(ctx, chunk * ASSAYS_PER_CHUNK + k * ASSAYS_PER_SERIES + 1, scaffold, gene);
    for (const a of assays) rows.assays.push(assayRow(ctx, a, refId, scaffold));
    const inSeries: { strId: number; gvkId: number; an: Analogue }[] = [];
    for (let c = 0; c < COMPOUNDS_PER_SERIES; c++) {
      const idx = k * COMPOUNDS_PER_SERIES + c;
      const an = analogues[idx] as Analogue;
      const p = props[idx];
      if (!p) continue;
      let strId = strByCanonical.get(p.canonical_smiles);
      if (strId === undefined) {
        strId = chunk * STR_PER_CHUNK + idx + 1;
        strByCanonical.set(p.canonical_smiles, strId);
        rows.structures.push({ str_id: strId, smiles: an.smiles, ...p, logd_calc: null, pka_value: null, solubility: null });
      }
      const gvkId = chunk * STR_PER_CHUNK + idx + 1;
      const label = `${c + 1}${'abcdefgh'[rng.int(0, 7)]}`;
      rows.compounds.push({
        gvk_id: gvkId,
        str_id: strId,
        name: `DEMO-${scaffold.code}-${gvkId}`,
        ref_id: refId,
        data_source_id: vocab.dataSourceId,
        compound_category: scaffold.degrader ? `${scaffold.degrader.kind} degrader` : 'synthetic small molecule',
      });
      inSeries.push({ strId, gvkId, an });
      for (const a of assays) {
        // ADME/tox and in vivo data exist only for the compounds a team profiled further.
        if (['papp', 'clint', 'solubility', 'herg', 'cc50', 'logd'].includes(a.kind) && !rng.chance(0.6)) continue;
        if (a.kind === 'invivo' && c >= 3) continue;
        const m = measure(a, an, p, rng);
        if (!m) continue;
        const published = doc.ref_type === 'journal' && m.uom === 'nM' && rng.chance(0.3);
        rows.activities.push({
          act_id: ctx.nextAct(),
          str_id: strId,
          gvk_id: gvkId,
          assay_id: a.id,
          ref_id: refId,
          target_id: a.gene ? (vocab.targetIdByGene.get(a.gene) ?? null) : null,
          data_source_id: vocab.dataSourceId,
          ligase_name: scaffold.degrader?.ligase ?? null,
          degrader: scaffold.degrader?.kind ?? null,
          std_activity_type: m.type,
          std_act_prefix: m.prefix,
          activity_value: m.value,
          standard_uom: m.uom,
          micro_molarvalue: m.uom === 'nM' ? m.value / 1000 : m.uom === 'uM' ? m.value : null,
          pchembl_value: m.pchembl,
          activity_remarks: m.prefix === '>' ? 'inactive at highest concentration tested' : null,
          activity_mechanism: a.kind === 'primary' || a.kind === 'cell' ? scaffold.mechanism : null,
          parameter: m.param,
          activity_type: m.type,
          activity_prefix: m.prefix,
          activity: published ? m.value / 1000 : m.value,
          activity_uom: published ? 'uM' : m.uom,
          measured: 'measured',
          sd: m.pchembl !== null && rng.chance(0.3) ? round(m.value * 0.2 * rng.next(), 2) : null,
          roa: a.kind === 'invivo' ? (m.param === 'i.v.' ? 'intravenous' : 'oral') : null,
          dose: a.kind === 'invivo' ? (m.param === 'i.v.' ? 1 : 10) : null,
          dose_prefix: a.kind === 'invivo' ? '=' : null,
          dose_uom: a.kind === 'invivo' ? 'mg/kg' : null,
          compound_name_reference: label,
          endpoint_id: vocab.endpointIdByName.get(m.type === 'Inhibition' ? 'Percent inhibition' : m.type) ?? null,
        });
      }
    }
    addDevelopmentCompound(rows, ctx, refId, scaffold, gene, company, inSeries);
  }
  return rows;
}

/** About one series in five yields a development candidate: its most potent analogue. */
function addDevelopmentCompound(
  rows: ChunkRows,
  ctx: Ctx,
  refId: number,
  scaffold: DemoScaffold,
  gene: string,
  company: number,
  inSeries: { strId: number; gvkId: number; an: Analogue }[],
): void {
  const { rng, vocab } = ctx;
  if (!rng.chance(0.2) || inSeries.length === 0) return;
  const best = inSeries.reduce((a, b) =>
    sarPotency(b.an.scaffoldIndex, gene, b.an.r, b.an.linker) > sarPotency(a.an.scaffoldIndex, gene, a.an.r, a.an.linker) ? b : a,
  );
  const phase = rng.pick([
    'Preclinical',
    'Preclinical',
    'Phase I',
    'Phase I',
    'Phase II',
    'Phase II',
    'Phase III',
    'Launched',
    'Withdrawn',
  ]);
  const status = phase === 'Withdrawn' ? 'Withdrawn' : rng.pick(['Active', 'Active', 'Discontinued', 'No development reported']);
  const year = 2005 + rng.int(0, 19);
  const id = refId;
  const r1 = SUBSTITUENTS[best.an.r[0] ?? 0];
  rows.clinical.push({
    clinical_compound_id: id,
    str_id: best.strId,
    gvk_id: best.gvkId,
    drug_name: `DEMO-${scaffold.code}${String(id).padStart(5, '0')}`,
    highest_phase_id: vocab.phaseIdByName.get(phase) ?? null,
    status_id: vocab.statusIdByName.get(status) ?? null,
    approval_year: phase === 'Launched' || phase === 'Withdrawn' ? year : null,
    mode_of_action: `${gene} ${scaffold.mechanism.toLowerCase()}`,
    drug_dose: `${rng.pick([5, 10, 25, 50, 100, 200])} mg ${rng.pick(['once daily', 'twice daily'])}`,
    remarks: `[DEMO] Optimised from ${scaffold.name} series (R1 = ${r1})`,
    last_significant_update: `${year}-${String(rng.int(1, 12)).padStart(2, '0')}-15`,
    reason_with_drawn: phase === 'Withdrawn' ? 'Hepatotoxicity signals in post-marketing surveillance' : null,
    reason_with_drawn_category: phase === 'Withdrawn' ? 'Safety' : null,
    data_source_id: vocab.dataSourceId,
  });
  const targetId = vocab.targetIdByGene.get(gene);
  if (targetId !== undefined)
    rows.clinicalTargets.push({
      clinical_compound_id: id,
      target_id: targetId,
      action_type: scaffold.mechanism,
      mechanism: `${gene} ${scaffold.mechanism.toLowerCase()}`,
    });
  const phaseId = vocab.phaseIdByName.get(phase) ?? 1;
  for (const ind of (vocab.indicationIdsByGene.get(gene) ?? []).slice(0, 2))
    rows.clinicalIndications.push({ clinical_compound_id: id, indication_id: ind, phase_id: phaseId });
  rows.clinicalCompanies.push({ clinical_compound_id: id, company_id: company });
}

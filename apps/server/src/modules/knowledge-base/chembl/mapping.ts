import type { AssayType } from '../../../db/kb-schema.ts';
import { UNITS } from '../lookup-vocabulary.ts';
import { num, str } from './sqlite-source.ts';
import type { SqlRow } from './sqlite-source.ts';

/** Pure ChEMBL -> knowledge-base value mappings (docs/data-model.md, "Mapping from ChEMBL"). */

const ASSAY_TYPES: Record<string, AssayType> = {
  B: 'binding',
  F: 'functional',
  A: 'adme',
  T: 'toxicity',
  P: 'physicochemical',
  U: 'unassigned',
};

export function assayType(code: unknown): AssayType {
  return ASSAY_TYPES[str(code)?.toUpperCase() ?? ''] ?? 'unassigned';
}

/** BAO format -> our coarse "enzyme / cell" column (BAO ids are stable across releases). */
const ENZYME_CELL: Record<string, string> = {
  BAO_0000357: 'enzyme', // single protein format
  BAO_0000224: 'enzyme', // protein format
  BAO_0000219: 'cell', // cell-based format
  BAO_0000221: 'tissue', // tissue-based format
  BAO_0000218: 'in vivo', // organism-based format
  BAO_0000249: 'cell-free', // cell-free format
  BAO_0000251: 'cell-free', // subcellular format
};

export function enzymeCellAssay(baoFormat: unknown): string | null {
  return ENZYME_CELL[str(baoFormat) ?? ''] ?? null;
}

/** ChEMBL doc_type (PUBLICATION, PATENT, BOOK, DATASET); older/partial files leave it NULL. */
export function refType(doc: SqlRow): string {
  const type = str(doc.doc_type)?.toUpperCase();
  if (type === 'PUBLICATION') return 'journal';
  if (type === 'PATENT') return 'patent';
  if (type === 'BOOK') return 'book';
  if (type === 'DATASET') return 'dataset';
  if (str(doc.patent_id)) return 'patent';
  if (str(doc.journal)) return 'journal';
  return 'other';
}

/** "J Med Chem (2004) 47(3):663-672" from whichever parts the release gives. */
export function citation(doc: SqlRow): string | null {
  const journal = str(doc.journal);
  const patent = str(doc.patent_id);
  if (!journal && patent) return patent;
  if (!journal) return null;
  const year = str(doc.year);
  const volume = str(doc.volume);
  const issue = str(doc.issue);
  const first = str(doc.first_page);
  const last = str(doc.last_page);
  let text = journal;
  if (year) text += ` (${year})`;
  if (volume) text += ` ${volume}${issue ? `(${issue})` : ''}`;
  if (first) text += `:${first}${last && last !== first ? `-${last}` : ''}`;
  return text;
}

/** ChEMBL authors: "Mao C, Sudbeck EA, Uckun FM." -> ["Mao C", "Sudbeck EA", "Uckun FM"]. */
export function splitAuthors(authors: unknown): string[] {
  const text = str(authors);
  if (!text) return [];
  return text
    .split(/\s*[,;]\s*/)
    .map((a) => a.replace(/\.$/, '').trim())
    .filter((a) => a !== '');
}

/** "US-2005-0123456-A1" / "US20050123456" -> "US". */
export function patentCountry(patentId: unknown): string | null {
  return /^([A-Z]{2})/.exec(str(patentId) ?? '')?.[1] ?? null;
}

/** Concentration units to µM: ours plus spellings ChEMBL uses. */
const TO_MICROMOLAR = new Map<string, number>([
  ...UNITS.filter((u) => u.toMicromolar !== null).map((u) => [u.unit, u.toMicromolar as number] as const),
  ['µM', 1],
  ['fM', 1e-9],
  ['nmol/L', 0.001],
  ['umol/L', 1],
  ['mmol/L', 1000],
  ['mol/L', 1e6],
]);

export function micromolarFactor(unit: unknown): number | null {
  return TO_MICROMOLAR.get(str(unit) ?? '') ?? null;
}

/** ChEMBL max_phase (4, 3, 2, 1, 0.5 early phase 1, -1 unknown) -> our clinical_phases.name. */
export function phaseName(maxPhase: number | null): string | null {
  if (maxPhase === null) return null;
  if (maxPhase >= 4) return 'Launched';
  if (maxPhase >= 3) return 'Phase III';
  if (maxPhase >= 2) return 'Phase II';
  if (maxPhase > 0) return 'Phase I';
  if (maxPhase < 0) return 'Clinical Phase Unknown';
  return null;
}

/** "Small molecule" -> "small molecule" (our compound_category vocabulary is lower case). */
export function compoundCategory(moleculeType: unknown, naturalProduct: unknown): string | null {
  if (Number(naturalProduct) === 1) return 'natural product';
  return str(moleculeType)?.toLowerCase() ?? null;
}

/** An activity's std_* fields (ChEMBL standard ones, or published ones where those are empty). */
export interface StandardFields {
  type: string | null;
  relation: string | null;
  value: number | null;
  units: string | null;
  micromolar: number | null;
  /** FALSE when a published type, relation or value/units stands in for an empty standard one. */
  standardised: boolean;
  /** The value was turned into µM from another unit (nM, pM, mol/L ...): the data-quality report counts it. */
  converted: boolean;
}

/**
 * ChEMBL leaves standard_type/relation/value/units empty when it could not standardise an
 * activity; the published type, relation and value/units are used then, field by field (value and
 * units always as one pair: never a standard value with a published unit), and the row is marked
 * as not standardised. Without this such rows are not found by their type at all.
 */
export function standardFields(r: SqlRow): StandardFields {
  const standardType = str(r.standard_type);
  const standardRelation = str(r.standard_relation);
  const standardValue = num(r.standard_value);
  const type = standardType ?? str(r.type);
  const relation = standardRelation ?? str(r.relation);
  const publishedValue = standardValue === null ? num(r.value) : null;
  const value = standardValue ?? publishedValue;
  // Without any value (a text result such as "inactive") the unit still says what was measured.
  const standardUnits = str(r.standard_units);
  const units = standardValue !== null ? standardUnits : publishedValue !== null ? str(r.units) : (standardUnits ?? str(r.units));
  const factor = micromolarFactor(units);
  return {
    type,
    relation,
    value,
    units,
    micromolar: value === null || factor === null ? null : value * factor,
    standardised: type === standardType && relation === standardRelation && publishedValue === null && units === standardUnits,
    converted: value !== null && factor !== null && factor !== 1,
  };
}

import type { SheetEndpoint } from '@kb/contracts/sheet';
import { SHEET_MAX_SUGGESTIONS } from '@kb/contracts/sheet';
import type { KbColumns } from '../search/search-service.ts';
import type { EndpointGroup, FactsRow, MeasurementRow } from './sheet-queries.ts';

/**
 * The sheet's reads from the knowledge base's columns in memory (the search's bitmap engine,
 * search/bitmaps/kb-columns.ts) instead of the database: a compound's activities are one slice of
 * `byStructure`, and their type, target, assay, value, unit, relation and pChEMBL are array reads.
 * 100,000 compounds have about a million activities; PostgreSQL probed them in 2 s at M (two
 * connections), here they are walked in tens of milliseconds (docs/benchmarks.md "The compound sheet").
 *
 * The answers are those of the SQL in sheet-queries.ts (sheet.api.test.ts compares them): the same
 * usable measurements (a type, and a value or a pChEMBL), in the same order (str_id, then act_id:
 * positions ascend with act_id), with types matched without case as the columns hold them lower-cased.
 */

/** Group keys: the target or assay id times this, plus the type's code (codes are Uint16). */
const TYPE_SPAN = 65_536;

/** One pass over every activity of the compounds that has a type and a value: `visit(activity position, str_id)`. */
function forUsable(columns: KbColumns, strIds: readonly number[], visit: (act: number, strId: number) => void): void {
  const { byStructure } = columns;
  const { type, value, pchembl } = columns.fields;
  for (const strId of strIds) {
    const [from, to] = slice(byStructure, strId);
    for (let i = from; i < to; i++) {
      const act = byStructure.ids[i]!;
      if (type[act] === 0 || (Number.isNaN(value[act]!) && Number.isNaN(pchembl[act]!))) continue;
      visit(act, strId);
    }
  }
}

function slice(index: KbColumns['byStructure'], parent: number): [number, number] {
  return parent + 1 < index.start.length ? [index.start[parent]!, index.start[parent + 1]!] : [0, 0];
}

interface Tally {
  key: number;
  typeCode: number;
  compounds: number;
  activities: number;
  withPchembl: number;
  units: Set<number>;
  /** One activity of the group (its position), whose type is read from the database as written. */
  sample: number;
  lastStr: number;
}

/**
 * Target × type (or assay × type) of the compounds' usable measurements: how many compounds and
 * measurements each has, the most compounds first (ties: most measurements, then key and type),
 * the first SHEET_MAX_SUGGESTIONS, as sheet-queries.ts `sqlGroups` counts them.
 */
export function memoryGroups(columns: KbColumns, strIds: readonly number[], kind: SheetEndpoint['kind']): EndpointGroup[] {
  const tallies = new Map<number, Tally>();
  const keys = kind === 'target' ? columns.actTarget : columns.actAssay;
  const { type, uom, pchembl } = columns.fields;
  forUsable(columns, strIds, (act, strId) => {
    const key = keys[act]!;
    if (key <= 0) return;
    const code = key * TYPE_SPAN + type[act]!;
    let tally = tallies.get(code);
    if (!tally) {
      tally = { key, typeCode: type[act]!, compounds: 0, activities: 0, withPchembl: 0, units: new Set(), sample: act, lastStr: -1 };
      tallies.set(code, tally);
    }
    if (tally.lastStr !== strId) {
      tally.compounds++;
      tally.lastStr = strId;
    }
    tally.activities++;
    if (!Number.isNaN(pchembl[act]!)) tally.withPchembl++;
    tally.units.add(uom[act]!);
  });
  return [...tallies.values()]
    .sort(
      (a, b) =>
        b.compounds - a.compounds ||
        b.activities - a.activities ||
        a.key - b.key ||
        // Code-point order, as the SQL's `COLLATE "C"`.
        (typeName(columns, a.typeCode) < typeName(columns, b.typeCode) ? -1 : 1),
    )
    .slice(0, SHEET_MAX_SUGGESTIONS)
    .map((tally) => ({
      key: tally.key,
      typeKey: typeName(columns, tally.typeCode),
      sampleActId: columns.actIds[tally.sample]!,
      compounds: tally.compounds,
      activities: tally.activities,
      with_pchembl: tally.withPchembl,
      units: [...tally.units].map((code) => columns.fields.uoms.names[code] ?? null),
    }));
}

function typeName(columns: KbColumns, code: number): string {
  return columns.fields.types.names[code] ?? '';
}

/**
 * Every usable measurement of the compounds on each endpoint, as `endpointMeasurements` reads
 * them from the database (str_id order, then act_id).
 */
export function memoryMeasurements(columns: KbColumns, strIds: readonly number[], endpoints: readonly SheetEndpoint[]): MeasurementRow[][] {
  const { actTarget, actAssay } = columns;
  const { type, value, pchembl, uom, uoms, prefix, prefixes } = columns.fields;
  const byTarget = new Map<number, number[]>();
  const byAssay = new Map<number, number[]>();
  const wanted = new Uint8Array(TYPE_SPAN);
  endpoints.forEach((endpoint, i) => {
    const code = columns.fields.types.find(endpoint.activityType.toLowerCase());
    if (code === undefined) return; // No activity of that type anywhere: an empty column.
    wanted[code] = 1;
    const [index, id] = endpoint.kind === 'target' ? [byTarget, endpoint.targetId] : [byAssay, endpoint.assayId];
    const key = id * TYPE_SPAN + code;
    index.set(key, [...(index.get(key) ?? []), i]);
  });
  const out: MeasurementRow[][] = endpoints.map(() => []);
  forUsable(columns, strIds, (act, strId) => {
    const code = type[act]!;
    if (!wanted[code]) return;
    const matched = [byTarget.get(actTarget[act]! * TYPE_SPAN + code), byAssay.get(actAssay[act]! * TYPE_SPAN + code)];
    if (!matched[0] && !matched[1]) return;
    const measurement: MeasurementRow = {
      str_id: strId,
      pchembl: Number.isNaN(pchembl[act]!) ? null : pchembl[act]!,
      value: Number.isNaN(value[act]!) ? null : value[act]!,
      units: uoms.names[uom[act]!] ?? null,
      relation: prefixes.names[prefix[act]!] ?? null,
    };
    for (const list of matched) for (const endpoint of list ?? []) out[endpoint]!.push(measurement);
  });
  return out;
}

/** The structure property each of the sheet's facts is read from. */
const FACT_COLUMNS = {
  mw: 'mol_weight',
  clogp: 'logp_calc',
  psa: 'psa',
  hbd: 'hb_donors',
  hba: 'hb_acceptor',
  rotb: 'rot_bonds',
  heavy_atoms: 'heavy_atoms',
} as const satisfies Record<Exclude<keyof FactsRow, 'str_id'>, string>;

/**
 * The compounds' properties from the structure property columns, by position (null while those
 * columns are still being read: the database is read instead).
 */
export function memoryFacts(columns: KbColumns, strIds: readonly number[]): FactsRow[] | null {
  const loaded = columns.properties.loaded;
  if (!loaded) return null;
  const arrays = Object.entries(FACT_COLUMNS).map(([field, column]) => [field, loaded.get(column)] as const);
  if (arrays.some(([, array]) => !array)) return null;
  return strIds.map((strId) => {
    const row: Record<string, number | null> = { str_id: strId };
    for (const [field, array] of arrays) {
      const value = strId < array!.length ? array![strId]! : Number.NaN;
      row[field] = Number.isNaN(value) ? null : value;
    }
    return row as unknown as FactsRow;
  });
}

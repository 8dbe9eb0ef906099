import type { SarActivity, SarEndpoint, SarEndpointOption, SarMeasure, SarRow, SarTable, SarTableEndpoint } from '@kb/contracts/sar';
import { NO_NUMBER } from '../../../app/format/number-format.ts';

/**
 * The pure parts of the SAR view: how values read, the colour scale, the R-group matrix and the
 * core highlight. Kept out of the components so the unit tests pin them down.
 */

/** An endpoint as the picker keys it (the same target and type read from the rows or from every measurement are two endpoints). */
export function endpointValue(endpoint: SarEndpoint): string {
  return `${endpoint.scope ?? 'set'}|${endpoint.targetId}|${endpoint.activityType}`;
}

export function parseEndpointValue(value: string, options: readonly SarEndpointOption[]): SarEndpointOption | null {
  return options.find((option) => endpointValue(option) === value) ?? null;
}

export function sameEndpoint(a: SarEndpoint | null, b: SarEndpoint | null): boolean {
  return a !== null && b !== null && endpointValue(a) === endpointValue(b);
}

/** The endpoint a request names (the picker's options carry counts the server does not need). */
export function endpointOf(option: SarEndpoint): SarEndpoint {
  return { targetId: option.targetId, activityType: option.activityType, scope: option.scope ?? 'set' };
}

/** Endpoints are lettered A, B, C, D in the table's headers and the difference columns. */
export function endpointLetter(index: number): string {
  return String.fromCharCode(65 + index);
}

/** "IC50 · Epidermal growth factor receptor", and where its values come from when not the rows. */
export function endpointName(endpoint: Pick<SarTableEndpoint, 'activityType' | 'targetName' | 'scope'>): string {
  return `${endpoint.activityType} · ${endpoint.targetName}${endpoint.scope === 'knowledgeBase' ? ' (all measurements)' : ''}`;
}

/** A row's value of a measure: an endpoint's median or a difference column; null where it has none. */
export function measureValue(row: SarRow, measure: SarMeasure): number | null {
  if (measure.kind === 'endpoint') return measure.index === 0 ? row.activity.value : (row.values[measure.index]?.value ?? null);
  return row.differences[measure.index] ?? null;
}

/** "A: pActivity" or "A − B" — the short header of a measure. */
export function measureShortLabel(table: SarTable, measure: SarMeasure): string {
  if (measure.kind === 'difference') {
    const d = table.differences[measure.index]!;
    return `${endpointLetter(d.a)} − ${endpointLetter(d.b)}`;
  }
  const endpoint = table.endpoints[measure.index] ?? table.endpoint;
  return table.endpoints.length > 1
    ? `${endpointLetter(measure.index)}: ${endpoint.molar ? 'pActivity' : endpoint.unit}`
    : endpoint.molar
      ? 'pActivity'
      : endpoint.unit;
}

/** The measures a table offers the matrix and the Free-Wilson fit: each endpoint, then each difference. */
export function tableMeasures(table: SarTable): { measure: SarMeasure; label: string }[] {
  return [
    ...table.endpoints.map((endpoint, index) => ({
      measure: { kind: 'endpoint' as const, index },
      label: `${table.endpoints.length > 1 ? `${endpointLetter(index)}: ` : ''}${endpointName(endpoint)}`,
    })),
    ...table.differences.map((d, index) => ({
      measure: { kind: 'difference' as const, index },
      label: `${endpointLetter(d.a)} − ${endpointLetter(d.b)}: difference in pActivity`,
    })),
  ];
}

export function sameMeasure(a: SarMeasure, b: SarMeasure): boolean {
  return a.kind === b.kind && a.index === b.index;
}

/** A measure the table has (else its first endpoint): a stored choice may name a column a rebuilt table no longer has. */
export function measureOf(table: SarTable, wanted: SarMeasure | null): SarMeasure {
  const exists = wanted && (wanted.kind === 'endpoint' ? wanted.index < table.endpoints.length : wanted.index < table.differences.length);
  return exists ? wanted : { kind: 'endpoint', index: 0 };
}

/** A value of the SAR view with two decimals, so a column of them lines up ("6.00", not "6"). */
export function sarValue(value: number): string {
  return Number.isFinite(value) ? value.toFixed(2) : NO_NUMBER;
}

/** A change in value, signed: "+0.23", "−0.10". */
export function signedValue(value: number): string {
  return `${value >= 0 ? '+' : '−'}${sarValue(Math.abs(value))}`;
}

/** "7.20", or with several measurements "7.20 (n=3, 6.90–7.50)". */
export function activityText(activity: SarActivity): string {
  const value = sarValue(activity.value);
  if (activity.n <= 1) return value;
  return `${value} (n=${activity.n}, ${sarValue(activity.min)}–${sarValue(activity.max)})`;
}

export interface ValueRange {
  min: number;
  max: number;
}

/** The span of values the colour scale runs over (null for no values). */
export function valueRange(values: readonly number[]): ValueRange | null {
  const finite = values.filter((value) => Number.isFinite(value));
  if (finite.length === 0) return null;
  return { min: Math.min(...finite), max: Math.max(...finite) };
}

/**
 * Stops of the colour scale, low to high: viridis, which is perceptually uniform and reads for
 * colour-blind users too (a red→green scale does not). For pActivity, high = more active = yellow.
 */
const SCALE: readonly [number, number, number][] = [
  [68, 1, 84],
  [59, 82, 139],
  [33, 145, 140],
  [94, 201, 98],
  [253, 231, 37],
];

/** Where a value sits on the scale, 0…1 (the middle when every value is the same). */
export function scalePosition(value: number, range: ValueRange): number {
  if (range.max <= range.min) return 0.5;
  return Math.min(1, Math.max(0, (value - range.min) / (range.max - range.min)));
}

function mix(t: number): [number, number, number] {
  const scaled = t * (SCALE.length - 1);
  const index = Math.min(SCALE.length - 2, Math.floor(scaled));
  const within = scaled - index;
  const from = SCALE[index]!;
  const to = SCALE[index + 1]!;
  return [0, 1, 2].map((channel) => Math.round(from[channel]! + (to[channel]! - from[channel]!) * within)) as [number, number, number];
}

/** The background of a value, and a text colour that stays readable on it. */
export function activityColour(value: number, range: ValueRange): { background: string; color: string } {
  const [r, g, b] = mix(scalePosition(value, range));
  // Relative luminance (sRGB weights): dark text on the light (yellow/green) end.
  const luminance = (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
  return { background: `rgb(${r}, ${g}, ${b})`, color: luminance > 0.5 ? '#111' : '#fff' };
}

/** The CSS gradient of the legend. */
export function scaleGradient(): string {
  return `linear-gradient(to right, ${SCALE.map(([r, g, b]) => `rgb(${r}, ${g}, ${b})`).join(', ')})`;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The key of a missing R-group (hydrogen) in the matrix. */
export const HYDROGEN = 'H';

function groupOf(row: SarRow, label: string): string {
  return row.rgroups[label] ?? HYDROGEN;
}

/** The two R positions with the most distinct groups (ties: the earlier label). */
export function defaultAxes(rows: readonly SarRow[], labels: readonly string[]): [string, string] | null {
  if (labels.length < 2) return null;
  const ranked = labels
    .map((label, index) => ({ label, index, distinct: new Set(rows.map((row) => groupOf(row, label))).size }))
    .sort((a, b) => b.distinct - a.distinct || a.index - b.index);
  return [ranked[0]!.label, ranked[1]!.label];
}

interface MatrixCell {
  rows: SarRow[];
  /** Median of the compounds' values (null: an unmade combination). */
  value: number | null;
}

export interface RGroupMatrix {
  /** R-groups along the rows (y) and columns (x), most compounds first. */
  y: string[];
  x: string[];
  cell: (y: string, x: string) => MatrixCell;
}

function byFrequency(rows: readonly SarRow[], label: string): string[] {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(groupOf(row, label), (counts.get(groupOf(row, label)) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([group]) => group);
}

/**
 * Rows × columns of two R positions. Compounds decomposed on another core than `core` are left
 * out (their R positions mean something else). A cell holds every compound with that pair of
 * groups, whatever its other positions.
 */
export function buildMatrix(
  rows: readonly SarRow[],
  yLabel: string,
  xLabel: string,
  core = 0,
  measure: SarMeasure = { kind: 'endpoint', index: 0 },
): RGroupMatrix {
  const onCore = rows.filter((row) => row.core === core && measureValue(row, measure) !== null);
  const cells = new Map<string, SarRow[]>();
  for (const row of onCore) {
    const key = `${groupOf(row, yLabel)}\u0000${groupOf(row, xLabel)}`;
    cells.set(key, [...(cells.get(key) ?? []), row]);
  }
  return {
    y: byFrequency(onCore, yLabel),
    x: byFrequency(onCore, xLabel),
    cell: (y, x) => {
      const found = cells.get(`${y}\u0000${x}`) ?? [];
      return { rows: found, value: found.length ? median(found.map((row) => measureValue(row, measure)!)) : null };
    },
  };
}

/** An R-group of the matrix as the virtual-compound call takes it (hydrogen: null). */
export function rgroupValue(group: string): string | null {
  return group === HYDROGEN ? null : group;
}

/**
 * A labelled core (`c1ccc([*:1])cc1`) without its attachment points, as a SMARTS to highlight in
 * a compound: dummy atoms would match only where a group is attached, and a hydrogen at an R
 * position would then hide the whole core.
 */
export function coreHighlight(core: string): string {
  const dummy = String.raw`(?:\[\*(?::\d+)?\]|\[\d+\*\]|\*)`;
  return core
    .replace(new RegExp(String.raw`\([-=#:~]?${dummy}\)`, 'g'), '')
    .replace(new RegExp(String.raw`[-=#:~]?${dummy}[-=#:~]?`, 'g'), '')
    .replace(/\(\)/g, '')
    .replace(/^\.+|\.+$/g, '');
}

/** The highlight of a core the user picked or typed, when it can be one (a molfile cannot travel in a URL). */
export function pickedCoreHighlight(core: { kind: string; text: string } | undefined): { kind: 'smiles' | 'smarts'; text: string } | null {
  if (!core || core.kind === 'molfile') return null;
  return { kind: 'smarts', text: coreHighlight(core.text) };
}

/**
 * AG Grid comparator of a number column: numbers in order, a blank (no value: not measured there,
 * no difference) last whichever way the column is sorted — AG Grid reverses the comparator for a
 * descending sort, so a blank compares as the smallest then.
 */
export function blanksLast(
  a: number | null | undefined,
  b: number | null | undefined,
  _nodeA: unknown,
  _nodeB: unknown,
  descending: boolean,
): number {
  const blankA = a == null || Number.isNaN(a);
  const blankB = b == null || Number.isNaN(b);
  if (blankA && blankB) return 0;
  if (blankA) return descending ? -1 : 1;
  if (blankB) return descending ? 1 : -1;
  return a - b;
}

/**
 * The table's footnote: what the endpoints' notes share, said once, then what is each endpoint's
 * own (its counts of values left out), lettered when there are several — two near-identical notes
 * with different counts read as a contradiction.
 */
export function tableFootnote(endpoints: readonly Pick<SarTableEndpoint, 'note'>[]): string {
  const sentences = endpoints.map((e) => (e.note ?? '').split(/(?<=\.)\s+(?=[A-Z0-9])/).filter(Boolean));
  const shared = (sentences[0] ?? []).filter((s) => sentences.every((list) => list.includes(s)));
  const own = sentences.flatMap((list, index) => {
    const rest = list.filter((s) => !shared.includes(s));
    return rest.length ? [endpoints.length > 1 ? `${endpointLetter(index)}: ${rest.join(' ')}` : rest.join(' ')] : [];
  });
  return [...shared, ...own].join(' ');
}

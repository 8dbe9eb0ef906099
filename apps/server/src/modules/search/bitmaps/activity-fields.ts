import { sql } from 'kysely';
import { RoaringBitmap32 } from './roaring.ts';
import type { ActivityFieldMatch, ActivityTermMatch, PrefixRule } from '../row-compiler.ts';
import { Vocabulary } from '../../../db/column-read.ts';
import type { ColumnArray, ColumnSpec } from '../../../db/column-read.ts';
import type { ReverseIndex } from './reverse-index.ts';
import { childrenOf, reverseIndex } from './reverse-index.ts';

/**
 * The fields of every activity that search rows test, in memory (issue 18): activity type, value
 * as reported and in µM, unit, relation, mechanism, degrader type and ligase. With them, activity
 * type, mechanism and degrader rows are evaluated here instead of reading every matching activity
 * id from the database (at L a type such as IC50 is millions of ids). The comparisons are those of
 * the SQL the same row compiles to (row-compiler.ts): strings lower-cased by PostgreSQL where the
 * SQL lower-cases them, values as the same doubles, NULL never matching.
 */
export interface ActivityFields {
  /** lower(std_activity_type), coded; and type → its activities. */
  type: Uint16Array;
  types: Vocabulary;
  byType: ReverseIndex;
  uom: Uint16Array;
  uoms: Vocabulary;
  /** std_act_prefix as stored (NULL counts as '='). */
  prefix: Uint16Array;
  prefixes: Vocabulary;
  /** activity_value and micro_molarvalue (NaN = NULL). */
  value: Float64Array;
  micro: Float64Array;
  /** lower(activity_mechanism), degrader, lower(ligase_name). */
  mechanism: Uint16Array;
  mechanisms: Vocabulary;
  degrader: Uint16Array;
  degraders: Vocabulary;
  ligase: Uint16Array;
  ligases: Vocabulary;
  /**
   * pchembl_value (NaN = NULL). No search row tests it: the compound sheet aggregates it in memory
   * (modules/sheet/sheet-memory.ts) instead of reading a million activities per 100,000 compounds.
   */
  pchembl: Float64Array;
}

/** The columns to read for the fields (read with the activities' links, so positions agree), and how to assemble them. */
export function activityFieldColumns(): { specs: ColumnSpec[]; assemble: (arrays: ColumnArray[]) => ActivityFields } {
  const [types, uoms, prefixes, mechanisms, degraders, ligases] = Array.from({ length: 6 }, () => new Vocabulary()) as [
    Vocabulary,
    Vocabulary,
    Vocabulary,
    Vocabulary,
    Vocabulary,
    Vocabulary,
  ];
  const specs: ColumnSpec[] = [
    { kind: 'string', expr: sql`lower(std_activity_type)`, vocabulary: types },
    { kind: 'string', expr: sql.ref('standard_uom'), vocabulary: uoms },
    { kind: 'string', expr: sql.ref('std_act_prefix'), vocabulary: prefixes },
    { kind: 'float', expr: sql.ref('activity_value') },
    { kind: 'float', expr: sql.ref('micro_molarvalue') },
    { kind: 'string', expr: sql`lower(activity_mechanism)`, vocabulary: mechanisms },
    { kind: 'string', expr: sql.ref('degrader'), vocabulary: degraders },
    { kind: 'string', expr: sql`lower(ligase_name)`, vocabulary: ligases },
    { kind: 'float', expr: sql.ref('pchembl_value') },
  ];
  const assemble = (arrays: ColumnArray[]): ActivityFields => {
    const [type, uom, prefix, value, micro, mechanism, degrader, ligase, pchembl] = arrays;
    return {
      type: type as Uint16Array,
      types,
      byType: reverseIndex(type as Uint16Array),
      uom: uom as Uint16Array,
      uoms,
      prefix: prefix as Uint16Array,
      prefixes,
      value: value as Float64Array,
      micro: micro as Float64Array,
      mechanism: mechanism as Uint16Array,
      mechanisms,
      degrader: degrader as Uint16Array,
      degraders,
      ligase: ligase as Uint16Array,
      ligases,
      pchembl: pchembl as Float64Array,
    };
  };
  return { specs, assemble };
}

/** Flags over a vocabulary's codes: which of them are among `values`. */
export function flagsOf(vocabulary: Vocabulary, values: readonly string[]): Uint8Array {
  const flags = new Uint8Array(vocabulary.names.length);
  for (const value of values) {
    const code = vocabulary.find(value);
    if (code !== undefined) flags[code] = 1;
  }
  return flags;
}

/** Whether a relation passes a term's rule, per prefix code (NULL counts as '='). */
function prefixFlags(prefixes: Vocabulary, rule: PrefixRule): Uint8Array {
  return Uint8Array.from(prefixes.names, (name) => {
    const prefix = name ?? '=';
    if (rule === 'equal') return prefix === '=' ? 1 : 0;
    if (rule === 'notGreater') return prefix === '>' || prefix === '>=' ? 0 : 1;
    return prefix === '<' || prefix === '<=' ? 0 : 1;
  });
}

/** The activities of one term, ascending (a type's list is in id order). */
function termActivities(fields: ActivityFields, term: ActivityTermMatch): Uint32Array {
  const code = fields.types.find(term.type);
  if (code === undefined) return new Uint32Array(0);
  const uom = term.uom === null ? 0 : fields.uoms.find(term.uom);
  if (uom === undefined) return new Uint32Array(0);
  const test = term.value;
  const values = test?.column === 'micro_molarvalue' ? fields.micro : fields.value;
  const allowed = test ? prefixFlags(fields.prefixes, test.prefixRule) : null;
  const min = test?.min ?? 0;
  const max = test?.max ?? 0;
  const candidates = childrenOf(fields.byType, code);
  // At most every activity of the type: a typed buffer, not an array of millions of numbers.
  const out = new Uint32Array(candidates.length);
  let n = 0;
  for (const act of candidates) {
    if (uom !== 0 && fields.uom[act] !== uom) continue;
    if (term.micro && Number.isNaN(fields.micro[act]!)) continue;
    if (test) {
      const v = values[act]!;
      // NaN (NULL) fails every comparison, as SQL's unknown does.
      const pass =
        test.op === '<'
          ? v < min
          : test.op === '<='
            ? v <= min
            : test.op === '>'
              ? v > min
              : test.op === '>='
                ? v >= min
                : test.op === '='
                  ? v === min
                  : v >= min && v <= max;
      if (!pass || allowed![fields.prefix[act]!] !== 1) continue;
    }
    out[n++] = act;
  }
  return out.subarray(0, n);
}

/** Rows whose coded field is flagged (two scans of the column, tens of ms each over the activities at L: count, then fill). */
export function scan(column: Uint16Array, flags: Uint8Array, also?: (act: number) => boolean): RoaringBitmap32 {
  let n = 0;
  for (let act = 0; act < column.length; act++) n += flags[column[act]!]!;
  const out = new Uint32Array(n);
  let k = 0;
  for (let act = 0; act < column.length && k < n; act++) if (flags[column[act]!] === 1 && (!also || also(act))) out[k++] = act;
  return new RoaringBitmap32(out.subarray(0, k));
}

/** The activities an activity-field row holds for. */
export function matchActivityFields(fields: ActivityFields, match: ActivityFieldMatch): RoaringBitmap32 {
  switch (match.kind) {
    case 'types': {
      const out = new RoaringBitmap32();
      for (const term of match.terms) out.addMany(termActivities(fields, term));
      return out;
    }
    case 'mechanism':
      return scan(fields.mechanism, flagsOf(fields.mechanisms, match.mechanisms));
    case 'degrader': {
      const ligases = match.ligases ? flagsOf(fields.ligases, match.ligases) : null;
      return scan(
        fields.degrader,
        flagsOf(fields.degraders, match.types),
        ligases ? (act) => ligases[fields.ligase[act]!] === 1 : undefined,
      );
    }
  }
}

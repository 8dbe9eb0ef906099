import type { SarRow } from '@kb/contracts/sar';
import type { CompoundFacts } from './sar-queries.ts';
import type { CompoundValue } from './sar-values.ts';

/** Ligand efficiency factor: 2.303·R·T at 298 K in kcal/mol, per pActivity unit (Hopkins 2004). */
const LE_FACTOR = 1.37;

/**
 * Heavy atoms of a SMILES when the structure row has none stored: bracket atoms other than
 * hydrogen, and the organic-subset atoms outside brackets (two-letter Cl and Br first).
 */
function heavyAtomsOfSmiles(smiles: string): number {
  let count = 0;
  const outside = smiles.replace(/\[([^\]]*)\]/g, (_, atom: string) => {
    if (!/^\d*H(?![a-z])/.test(atom)) count++;
    return ' ';
  });
  count += (outside.match(/Cl|Br|[BCNOPSFI]|[bcnops]/g) ?? []).length;
  return count;
}

/** A decomposed compound's row: its R-groups, value, and the efficiencies of a molar endpoint. */
export function sarRow(
  facts: CompoundFacts,
  value: CompoundValue,
  decomposed: { core: number; rgroups: Record<string, string | null> },
  molar: boolean,
  columns: Pick<SarRow, 'values' | 'differences'> = { values: [value.activity], differences: [] },
): SarRow {
  const heavyAtoms = facts.heavy_atoms ?? heavyAtomsOfSmiles(facts.smiles);
  const p = value.activity.value;
  const clogp = facts.clogp == null ? null : Number(facts.clogp);
  return {
    strId: facts.str_id,
    smiles: facts.smiles,
    core: decomposed.core,
    rgroups: decomposed.rgroups,
    activity: value.activity,
    mw: facts.mw == null ? null : Number(facts.mw),
    clogp,
    heavyAtoms,
    le: molar && heavyAtoms > 0 ? round((LE_FACTOR * p) / heavyAtoms, 3) : null,
    lipe: molar && clogp != null ? round(p - clogp, 2) : null,
    ...columns,
  };
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

import { chemblId, key } from './keys.ts';
import { pick, STREAM, unit } from './random.ts';
import type { ReleasePlan } from './release-plan.ts';
import type { Structure, StructureStream } from './structures.ts';
import type { Row, Subset } from './subset.ts';
import type { ReleaseWriter } from './writer.ts';

/** molecule_dictionary columns that describe a molecule's kind without naming a real one (no names, phases, approvals). */
const DESCRIPTIVE = ['molecule_type', 'structure_type', 'chirality', 'inorganic_flag', 'polymer_flag', 'natural_product'] as const;

/** Molecule indices handled per structure request: keeps both RDKit workers busy between awaits. */
const BATCH = 5_000;
/** Molecules between progress lines (a full-size run enumerates for tens of minutes). */
const PROGRESS = 100_000;

/** Whether molecule `index` has no structure at all (peptide, mixture, missing SMILES): the subset's share. */
export function withoutStructure(subset: Subset, plan: ReleasePlan, index: number): boolean {
  return unit(plan.seed, STREAM.noStructure, index) < subset.noStructureShare;
}

function dictionaryRow(subset: Subset, plan: ReleasePlan, index: number, hasStructure: boolean): Row {
  const pool = hasStructure ? subset.moleculesWithStructure : subset.moleculesWithoutStructure;
  const template = pool.length > 0 ? (pool[pick(plan.seed, STREAM.moleculeTemplate, index, pool.length)] as Row) : {};
  const row: Row = { molregno: key(index), chembl_id: chemblId('molecule', index) };
  for (const column of DESCRIPTIVE) row[column] = template[column] ?? null;
  return row;
}

export interface MoleculeCounts {
  molecules: number;
  withStructure: number;
  retired: number;
}

/**
 * molecule_dictionary (every molecule), compound_structures (those with a structure) and
 * molecule_hierarchy (each molecule its own parent, as ChEMBL lists parents). Molecules are taken
 * in key order and structures in sequence order, retired ones included, so molecule N has the same
 * structure in every release.
 */
export async function writeMolecules(
  subset: Subset,
  plan: ReleasePlan,
  stream: StructureStream,
  writer: ReleaseWriter,
  log: (message: string) => void,
): Promise<MoleculeCounts> {
  const counts: MoleculeCounts = { molecules: 0, withStructure: 0, retired: 0 };
  const total = plan.counts.molecules;
  for (let start = 0; start < total; start += BATCH) {
    const end = Math.min(total, start + BATCH);
    if (start > 0 && start % PROGRESS === 0) log(`molecules: ${start} of ${total}`);
    const needs: boolean[] = [];
    for (let k = start; k < end; k++) needs.push(!withoutStructure(subset, plan, k));
    const structures = await stream.take(needs.filter(Boolean).length);
    let next = 0;
    for (let k = start; k < end; k++) {
      const structure = needs[k - start] ? (structures[next++] as Structure) : null;
      if (plan.retired('molecules', k)) {
        counts.retired++;
        continue;
      }
      writer.table('molecule_dictionary').add(dictionaryRow(subset, plan, k, structure !== null));
      writer.table('molecule_hierarchy').add({ molregno: key(k), parent_molregno: key(k), active_molregno: key(k) });
      counts.molecules++;
      if (structure === null) continue;
      writer.table('compound_structures').add({
        molregno: key(k),
        canonical_smiles: structure.smiles,
        standard_inchi: structure.inchi,
        standard_inchi_key: structure.inchikey,
      });
      counts.withStructure++;
    }
  }
  return counts;
}

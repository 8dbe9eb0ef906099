import { sql } from 'kysely';
import type { RawBuilder } from 'kysely';
import type { StructureQuery } from '@kb/contracts/search';
import { badRequest } from '../../http/errors.ts';
import { ChemPool } from '../knowledge-base/chem/chem-pool.ts';

/** Turns the structure part of a structure row into a query selecting the matching str_ids. */
export interface StructureQueryResolver {
  resolve(query: StructureQuery): Promise<RawBuilder<unknown>>;
}

const INCHIKEY = /^[A-Z]{14}-[A-Z]{10}-[A-Z]$/;
const INCHIKEY_SKELETON = /^[A-Z]{14}$/;

/**
 * Exact look-ups answered by SQL indexes: name (compound names and synonyms), InChIKey (full key,
 * or its first block = same skeleton), and exact SMILES / molfile through RDKit canonicalisation.
 * Substructure, similarity and SMARTS need the fingerprint engine (structure-search issue).
 */
export class SqlStructureQueryResolver implements StructureQueryResolver {
  private pool: ChemPool | null = null;

  async resolve(query: StructureQuery): Promise<RawBuilder<unknown>> {
    const value = query.value.trim();
    if (query.inputType === 'name') return this.byName(value, query);
    if (query.inputType === 'inchikey') return this.byInchiKey(value.toUpperCase(), query.category);
    if (query.inputType === 'smarts' || query.category !== 'exact') {
      throw badRequest(
        `${query.category === 'similarity' ? 'Similarity' : query.inputType === 'smarts' ? 'SMARTS' : 'Substructure'} search is not available on this server yet; choose "exact" to find this structure itself.`,
      );
    }
    return this.exact(value, query.feature === 'desalted', query.inputType);
  }

  private byName(name: string, query: StructureQuery): RawBuilder<unknown> {
    if (query.category !== 'exact') throw badRequest('Search by name finds the named compound itself: use the category "exact".');
    const lower = name.toLowerCase();
    return sql`SELECT c.str_id FROM compounds c WHERE lower(c.name) = ${lower} AND c.str_id IS NOT NULL
      UNION SELECT c.str_id FROM compound_synonyms cs JOIN compounds c ON c.gvk_id = cs.gvk_id WHERE lower(cs.synonym) = ${lower} AND c.str_id IS NOT NULL`;
  }

  /** Exact: the whole key. Substructure / similarity: the skeleton, i.e. the key's first block. */
  private byInchiKey(key: string, category: StructureQuery['category']): RawBuilder<unknown> {
    if (INCHIKEY.test(key) && category === 'exact') return sql`SELECT str_id FROM structures WHERE inchikey = ${key}`;
    const skeleton = key.slice(0, 14);
    if (INCHIKEY.test(key) || INCHIKEY_SKELETON.test(key)) return sql`SELECT str_id FROM structures WHERE inchikey LIKE ${`${skeleton}-%`}`;
    throw badRequest(`"${key}" is not an InChIKey: expected 14 letters, a dash, 10 letters, a dash and one letter (or just the first 14 letters).`);
  }

  private async exact(value: string, desalted: boolean, inputType: 'smiles' | 'molfile'): Promise<RawBuilder<unknown>> {
    this.pool ??= new ChemPool(1);
    const [parsed] = await this.pool.compute([value], { inchi: false, fingerprints: false });
    if (!parsed) {
      throw badRequest(
        inputType === 'smiles'
          ? `RDKit could not read the SMILES "${value.slice(0, 80)}": check brackets, ring-closure digits and atom symbols.`
          : 'RDKit could not read the molfile: check the counts line and the atom and bond blocks.',
      );
    }
    let canonical = parsed.canonical_smiles;
    if (desalted && canonical.includes('.')) {
      // Desalted: the largest fragment is the compound; counter-ions and solvents are dropped.
      const fragments = canonical.split('.');
      const computed = await this.pool.compute(fragments, { inchi: false, fingerprints: false });
      let best = 0;
      computed.forEach((fragment, i) => {
        if (fragment && fragment.heavy_atoms > (computed[best]?.heavy_atoms ?? -1)) best = i;
      });
      canonical = computed[best]?.canonical_smiles ?? canonical;
    }
    return sql`SELECT str_id FROM structures WHERE md5(canonical_smiles) = md5(${canonical})`;
  }

  async close(): Promise<void> {
    await this.pool?.close();
    this.pool = null;
  }
}

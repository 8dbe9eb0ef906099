import { HIGHLIGHT_MAX_CHARS } from '@kb/contracts/chemistry';
import type { ResultsSession, StructureHighlight } from '@kb/contracts/results';
import type { SearchCriteria, StructureQuery } from '@kb/contracts/search';
import type { ChemEngine } from '../chemistry/chem-engine.ts';
import { ChemInputError } from '../chemistry/chem-engine.ts';

/**
 * What a search's structure rows mean for its results grids (docs/results.md "Similarity and
 * substructure searches"): a similarity row scored every structure it found, so the tabs show that
 * score and sort by it; a substructure row's query is what the grids and leaflets highlight.
 */

/** The structure queries of rows that add rows to the results (a row after a NOT removes them: nothing of it is shown). */
function positiveStructureQueries(criteria: SearchCriteria | null): StructureQuery[] {
  if (!criteria) return [];
  return criteria.rows.flatMap((row, index) => {
    const negated = index > 0 && criteria.rows[index - 1]?.operator === 'NOT';
    return row.selectedOption === 'structure' && row.structure && !negated ? [row.structure] : [];
  });
}

/** Whether a similarity row scored the search's structures (search_structures.similarity is set). */
export function hasSimilarityRow(criteria: SearchCriteria | null): boolean {
  return positiveStructureQueries(criteria).some((query) => query.category === 'similarity');
}

/** The first substructure query that can be drawn as a highlight (names and InChIKeys cannot). */
export function substructureQuery(criteria: SearchCriteria | null): StructureQuery | null {
  const drawable = new Set<StructureQuery['inputType']>(['smiles', 'smarts', 'molfile']);
  return positiveStructureQueries(criteria).find((query) => query.category === 'substructure' && drawable.has(query.inputType)) ?? null;
}

/**
 * The highlight of a substructure query: SMARTS as typed; a SMILES or molfile as RDKit's SMILES of
 * it (the depiction's highlight takes SMILES or SMARTS; a molfile drawn in the editor is read here
 * once). A query RDKit cannot read highlights nothing rather than failing the results page.
 */
async function highlightOf(engine: ChemEngine, query: StructureQuery): Promise<StructureHighlight | null> {
  // A highlight too long for a picture's URL would make every drawing of the grid a 400: draw none.
  const drawable = (highlight: StructureHighlight): StructureHighlight | null =>
    highlight.text.length <= HIGHLIGHT_MAX_CHARS ? highlight : null;
  if (query.inputType === 'smarts') return drawable({ kind: 'smarts', text: query.value });
  if (query.inputType === 'smiles' && query.value.length <= HIGHLIGHT_MAX_CHARS) return { kind: 'smiles', text: query.value.trim() };
  try {
    const described = await engine.describe({
      kind: query.inputType === 'molfile' ? 'molfile' : 'smiles',
      text: query.value,
      desalt: query.feature === 'desalted',
    });
    return described.smiles ? drawable({ kind: 'smiles', text: described.smiles }) : null;
  } catch (error) {
    if (error instanceof ChemInputError) return null;
    throw error;
  }
}

export async function structureQueryOf(engine: ChemEngine, criteria: SearchCriteria | null): Promise<ResultsSession['structureQuery']> {
  const substructure = substructureQuery(criteria);
  return { similarity: hasSimilarityRow(criteria), highlight: substructure ? await highlightOf(engine, substructure) : null };
}

import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { RelatedTarget } from '@kb/contracts/prediction';
import { CHEMBL_ID_SYNONYM } from '@kb/contracts/targets';
import type { Database } from '../../db/schema.ts';
import type { ActiveSet } from './similarity-ensemble.ts';

/** Related knowledge-base targets listed per model-only target at most. */
const RELATED_MAX = 5;
const ACCESSION_SYNONYM = 'UniProt accession';

interface TargetRecord {
  targetId: number;
  chemblId: string | null;
  name: string;
  organism: string | null;
  geneSymbol: string | null;
  accessions: string[];
}

/**
 * How the model's targets that have no actives here relate to the knowledge base's targets that do
 * (docs/prediction.md "The model's own targets"): the same UniProt accession in another record
 * ("same protein"); a protein that is a component of a complex, fusion or family, or the other way
 * round ("component": ABL1 and Bcr/Abl, PSMB5 and the 26S proteasome); the same gene symbol or name
 * in another organism ("orthologue"). The model's target is found by its ChEMBL id among every
 * target record of the knowledge base, with or without actives (a ChEMBL import holds them all).
 */
export class TargetRelations {
  private constructor(
    private readonly byChemblId: Map<string, TargetRecord>,
    /** Targets with actives: by accession, and by lower-case gene symbol or name. */
    private readonly activeByAccession: Map<string, TargetRecord[]>,
    private readonly activeByName: Map<string, TargetRecord[]>,
    private readonly activesOf: Map<number, number>,
  ) {}

  static async read(db: Kysely<Database>, set: ActiveSet): Promise<TargetRelations> {
    const { rows } = await sql<{
      target_id: string | number;
      chembl_id: string | null;
      name: string;
      organism: string | null;
      gene_symbol: string | null;
      accessions: string[] | null;
    }>`SELECT t.target_id, t.name, t.organism, t.gene_symbol,
        coalesce(t.chembl_id, (SELECT min(s.synonym) FROM target_synonyms s WHERE s.target_id = t.target_id AND s.syn_type = ${CHEMBL_ID_SYNONYM})) AS chembl_id,
        array_remove(array_append(array(SELECT DISTINCT upper(s.synonym) FROM target_synonyms s WHERE s.target_id = t.target_id AND s.syn_type = ${ACCESSION_SYNONYM}), upper(t.uniprot_id)), NULL) AS accessions
      FROM targets t`.execute(db);
    const activesOf = new Map<number, number>();
    set.targets.forEach((target, index) => {
      if (set.activesPerTarget[index]! > 0) activesOf.set(target.targetId, set.activesPerTarget[index]!);
    });
    const byChemblId = new Map<string, TargetRecord>();
    const activeByAccession = new Map<string, TargetRecord[]>();
    const activeByName = new Map<string, TargetRecord[]>();
    const push = (map: Map<string, TargetRecord[]>, key: string, record: TargetRecord) => {
      const list = map.get(key) ?? [];
      list.push(record);
      map.set(key, list);
    };
    for (const row of rows) {
      const record: TargetRecord = {
        targetId: Number(row.target_id),
        chemblId: row.chembl_id,
        name: row.name,
        organism: row.organism,
        geneSymbol: row.gene_symbol,
        accessions: [...new Set(row.accessions ?? [])],
      };
      if (record.chemblId && !byChemblId.has(record.chemblId)) byChemblId.set(record.chemblId, record);
      if (!activesOf.has(record.targetId)) continue;
      for (const accession of record.accessions) push(activeByAccession, accession, record);
      for (const name of namesOf(record)) push(activeByName, name, record);
    }
    return new TargetRelations(byChemblId, activeByAccession, activeByName, activesOf);
  }

  /** The knowledge base's record of a model target (null: not held), and its related targets with actives. */
  describe(chemblId: string): { name: string | null; organism: string | null; related: RelatedTarget[] } {
    const record = this.byChemblId.get(chemblId);
    if (!record) return { name: null, organism: null, related: [] };
    const related = new Map<number, RelatedTarget>();
    const add = (other: TargetRecord, relation: RelatedTarget['relation']) => {
      if (other.targetId === record.targetId || related.has(other.targetId)) return;
      related.set(other.targetId, {
        targetId: other.targetId,
        chemblId: other.chemblId,
        name: other.name,
        organism: other.organism,
        relation,
        actives: this.activesOf.get(other.targetId) ?? 0,
      });
    };
    for (const accession of record.accessions)
      for (const other of this.activeByAccession.get(accession) ?? [])
        add(other, record.accessions.length === 1 && other.accessions.length === 1 ? 'same protein' : 'component');
    for (const name of namesOf(record))
      for (const other of this.activeByName.get(name) ?? []) if (other.organism !== record.organism) add(other, 'orthologue');
    const order = { 'same protein': 0, component: 1, orthologue: 2 } as const;
    return {
      name: record.name,
      organism: record.organism,
      related: [...related.values()]
        .sort((a, b) => order[a.relation] - order[b.relation] || b.actives - a.actives || a.targetId - b.targetId)
        .slice(0, RELATED_MAX),
    };
  }
}

/** Gene symbol and name, lower case (a protein's name is the same across organisms in ChEMBL). */
function namesOf(record: TargetRecord): string[] {
  return [record.geneSymbol, record.name].filter((name): name is string => !!name).map((name) => `n:${name.trim().toLowerCase()}`);
}

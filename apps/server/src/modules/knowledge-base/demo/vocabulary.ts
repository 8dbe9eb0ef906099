import { sql } from 'kysely';
import { CHEMBL_ID_SYNONYM } from '@kb/contracts/targets';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { endpointMap, ensurePath, seedLookups } from '../lookup-vocabulary.ts';
import { COMPANIES, INDICATIONS, TAXONOMY } from './catalog.ts';
import { TARGETS } from './catalog-targets.ts';

const DEMO_SOURCE_NAME = 'DEMO synthetic knowledge base';

/** Ids of the vocabulary rows the series generator refers to. */
export interface Vocabulary {
  dataSourceId: number;
  targetIdByGene: Map<string, number>;
  endpointIdByName: Map<string, number>;
  companyIds: number[];
  /** Strain/cell-line taxonomy nodes: name -> id, with organism. */
  strains: Map<string, { id: number; organism: string }>;
  indicationIdsByGene: Map<string, number[]>;
  phaseIdByName: Map<string, number>;
  statusIdByName: Map<string, number>;
}

type Db = Kysely<Database>;

async function seedTargets(db: Db, dataSourceId: number): Promise<void> {
  for (const t of TARGETS) {
    const classId = await ensurePath(
      db,
      t.classPath,
      async (parent, name) =>
        (
          await db
            .selectFrom('target_classes')
            .select('class_id')
            .where('name', '=', name)
            .where(sql<boolean>`coalesce(parent_id, 0) = ${parent ?? 0}`)
            .executeTakeFirst()
        )?.class_id,
      async (parent, name, level) =>
        (await db.insertInto('target_classes').values({ parent_id: parent, name, level }).returning('class_id').executeTakeFirstOrThrow())
          .class_id,
    );
    const row = await db
      .insertInto('targets')
      .values({
        name: t.name,
        gene_symbol: t.gene,
        uniprot_id: t.uniprot,
        entrez_gene_id: t.entrez,
        pdb_ids: t.pdb,
        organism: 'Homo sapiens',
        tax_id: 9606,
        class_id: classId,
        data_source_id: dataSourceId,
      })
      .returning('target_id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('target_synonyms')
      .values([
        { target_id: row.target_id, synonym: t.gene, syn_type: 'gene symbol' },
        { target_id: row.target_id, synonym: t.uniprot, syn_type: 'UniProt accession' },
        // Not the chembl_id column: that is a ChEMBL import's key, and an import over demo data must not collide with it.
        { target_id: row.target_id, synonym: t.chembl, syn_type: CHEMBL_ID_SYNONYM },
      ])
      .execute();
  }
}

async function seedIndications(db: Db): Promise<void> {
  for (const ind of INDICATIONS) {
    await ensurePath(
      db,
      ind.path,
      async (parent, name) =>
        (
          await db
            .selectFrom('indications')
            .select('indication_id')
            .where('name', '=', name)
            .where(sql<boolean>`coalesce(parent_id, 0) = ${parent ?? 0}`)
            .executeTakeFirst()
        )?.indication_id,
      async (parent, name, level) =>
        (
          await db
            .insertInto('indications')
            .values({ parent_id: parent, name, mesh_id: level === ind.path.length - 1 ? ind.mesh : null })
            .returning('indication_id')
            .executeTakeFirstOrThrow()
        ).indication_id,
    );
  }
}

async function seedTaxonomy(db: Db): Promise<void> {
  for (const t of TAXONOMY) {
    const genus = await db
      .insertInto('taxonomy')
      .values({ rank: 'genus', name: t.genus, genus: t.genus })
      .onConflict((oc) => oc.doNothing())
      .returning('taxonomy_id')
      .executeTakeFirst();
    const species = await db
      .insertInto('taxonomy')
      .values({
        parent_id: genus?.taxonomy_id ?? null,
        rank: 'species',
        name: `${t.genus} ${t.species}`,
        genus: t.genus,
        species: t.species,
        ncbi_tax_id: t.ncbi,
      })
      .returning('taxonomy_id')
      .executeTakeFirstOrThrow();
    for (const strain of t.strains) {
      await db
        .insertInto('taxonomy')
        .values({
          parent_id: species.taxonomy_id,
          rank: 'strain',
          name: strain,
          genus: t.genus,
          species: t.species,
          strain,
          ncbi_tax_id: t.ncbi,
        })
        .execute();
    }
  }
}

/** Creates the demo vocabulary once (in the caller's transaction) and returns its ids. */
export async function ensureDemoVocabulary(db: Db): Promise<Vocabulary> {
  let source = await db.selectFrom('data_sources').select('data_source_id').where('name', '=', DEMO_SOURCE_NAME).executeTakeFirst();
  if (!source) {
    await seedLookups(db);
    source = await db
      .insertInto('data_sources')
      .values({
        name: DEMO_SOURCE_NAME,
        short_name: 'DEMO',
        is_demo: true,
        description: 'Synthetic, deterministic demo data: real targets, invented molecules, measurements and documents.',
      })
      .returning('data_source_id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('companies')
      .values(COMPANIES)
      .onConflict((oc) => oc.doNothing())
      .execute();
    await seedTargets(db, source.data_source_id);
    await seedIndications(db);
    await seedTaxonomy(db);
  }
  return loadVocabulary(db, source.data_source_id);
}

async function loadVocabulary(db: Db, dataSourceId: number): Promise<Vocabulary> {
  const targets = await db.selectFrom('targets').select(['target_id', 'gene_symbol']).where('data_source_id', '=', dataSourceId).execute();
  const companies = await db.selectFrom('companies').select('company_id').where('name', 'like', 'DEMO %').orderBy('company_id').execute();
  const strains = await db
    .selectFrom('taxonomy')
    .select(['taxonomy_id', 'name', 'genus', 'species'])
    .where('rank', '=', 'strain')
    .orderBy('taxonomy_id')
    .execute();
  const indications = await db.selectFrom('indications').select(['indication_id', 'mesh_id']).where('mesh_id', 'is not', null).execute();
  const phases = await db.selectFrom('clinical_phases').select(['phase_id', 'name']).execute();
  const statuses = await db.selectFrom('clinical_statuses').select(['status_id', 'name']).execute();
  const indicationIdsByGene = new Map<string, number[]>();
  for (const ind of INDICATIONS) {
    const id = indications.find((i) => i.mesh_id === ind.mesh)?.indication_id;
    if (id === undefined) continue;
    for (const gene of ind.genes) indicationIdsByGene.set(gene, [...(indicationIdsByGene.get(gene) ?? []), id]);
  }
  return {
    dataSourceId,
    targetIdByGene: new Map(targets.map((t) => [t.gene_symbol ?? '', t.target_id])),
    endpointIdByName: await endpointMap(db),
    companyIds: companies.map((c) => c.company_id),
    strains: new Map(strains.map((s) => [s.name, { id: s.taxonomy_id, organism: `${s.genus} ${s.species}` }])),
    indicationIdsByGene,
    phaseIdByName: new Map(phases.map((p) => [p.name, p.phase_id])),
    statusIdByName: new Map(statuses.map((s) => [s.name, s.status_id])),
  };
}

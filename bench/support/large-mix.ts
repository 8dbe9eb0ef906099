import pg from 'pg';

/**
 * The searches of the L mix (bench/load.ts header): each under the 750,000-activity cap at L, its
 * targets and similarity probes read from the database. The load and cluster benches share them.
 */
export async function largeMix(url: string): Promise<{ guided: unknown[]; structures: unknown[] }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  // Gene symbols where the data has them (demo seeds); an imported generated release has none: names.
  const targets = (
    await client.query<{ target_id: string; label: string }>(
      'SELECT target_id, coalesce(gene_symbol, name) AS label FROM targets ORDER BY gene_symbol IS NULL, target_id LIMIT 8',
    )
  ).rows;
  const probes = (
    await client.query<{ canonical_smiles: string }>('SELECT canonical_smiles FROM structures ORDER BY md5(str_id::text) LIMIT 4')
  ).rows;
  await client.end();
  const t = (i: number) => ({ label: targets[i % targets.length]!.label, ids: [Number(targets[i % targets.length]!.target_id)] });
  const ki = { selectedOption: 'activitytypes', activities: [{ activityType: 'Ki', activityUom: 'nM', prefix: '<=', minValue: 10 }] };
  // Each under the activity cap at demo L (npm run bench -- search: 244 to 202,725 activities).
  const guided = [
    {
      rows: [
        { selectedOption: 'target', targets: [t(0)] },
        { selectedOption: 'activitytypes', activities: [{ activityType: 'IC50', activityUom: 'nM', prefix: '<', minValue: 100 }] },
      ],
    },
    {
      rows: [
        {
          selectedOption: 'activitytypes',
          activities: [{ activityType: 'Ki', activityUom: 'nM', prefix: 'R', minValue: 1, maxValue: 10 }],
        },
      ],
    },
    {
      rows: [
        { selectedOption: 'target', targets: [t(3)], operator: 'NOT' },
        { selectedOption: 'activitymechanism', mechanisms: ['INHIBITOR'] },
      ],
    },
    { rows: [{ selectedOption: 'bibliography', sources: ['P'], yearRange: { fromYear: 2018, toYear: 2020 } }, ki] },
    { rows: [{ selectedOption: 'clinicalphase', phases: ['Launched'] }] },
    { rows: [{ selectedOption: 'activitytypes', activities: [{ activityType: 'DC50' }] }] },
    {
      rows: [
        { selectedOption: 'activitymechanism', mechanisms: ['AGONIST'] },
        { selectedOption: 'assay', assayTypes: ['functional'] },
      ],
    },
    {
      rows: [
        { selectedOption: 'structure', properties: { molmin: 350, molmax: 400, logpmax: 3 } },
        { selectedOption: 'activitytypes', activities: [{ activityType: 'IC50', activityUom: 'uM', prefix: '<', minValue: 1 }] },
      ],
    },
  ];
  const structures = [
    // Under 1 % of demo L's structures each (npm run bench -- structure).
    ...['C#Cc1cccc(N)c1', 'c1ccc(-c2ccncc2)nc1', 'NC1CC1'].map((value) => ({
      rows: [{ selectedOption: 'structure', structure: { inputType: 'smiles', value, category: 'substructure' } }],
    })),
    ...probes.map((p) => ({
      rows: [
        {
          selectedOption: 'structure',
          structure: { inputType: 'smiles', value: p.canonical_smiles, category: 'similarity', similarityMin: 0.7 },
        },
      ],
    })),
  ];
  return { guided, structures };
}

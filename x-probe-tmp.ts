import { ApiSession } from './e2e/support/api-session.ts';
import { chemistryEndpoints } from '@kb/contracts/chemistry';
const api = await ApiSession.logIn('http://localhost:3988', 'FULL_USER');
const q = (await api.call(chemistryEndpoints.structuresBySmilesSmarts, { body: { inputType: 'smiles', value: 'c1ccncc1', category: 'substructure', feature: 'desalted', limit: 1 } as never })).hits[0]!.smiles;
for (const extra of [{ similarityNearest: 7 }, {}, { similarityNearest: 7, limit: 5 }]) {
  const d = await api.call(chemistryEndpoints.structuresBySmilesSmarts, { body: { inputType: 'smiles', value: q, category: 'similarity', similarityMin: 0.2, feature: 'desalted', limit: 8, ...extra } as never });
  console.log(JSON.stringify(extra), JSON.stringify({ ...d, hits: d.hits.map((h) => h.similarity?.toFixed(3)) }));
}

import initRDKitModule from '@rdkit/rdkit';
const RD = await initRDKitModule();
console.log(RD.version());
const m = RD.get_mol('Cc1ccc(NC(=O)c2ccc(CN3CCN(C)CC3)cc2)cc1Nc1nccc(-c2cccnc2)n1');
console.log(m.get_smiles(), m.get_inchi(), RD.get_inchikey_for_inchi(m.get_inchi()));
console.log(m.get_descriptors());
const fp = m.get_morgan_fp_as_uint8array(JSON.stringify({radius:2,nBits:2048}));
const pfp = m.get_pattern_fp_as_uint8array(JSON.stringify({nBits:2048}));
console.log(fp.length, fp.constructor.name, pfp.length);
m.delete();
const t=Date.now();
for (let i=0;i<1000;i++){ const x=RD.get_mol('Cc1ccc(NC(=O)c2ccc(CN3CCN(C)CC3)cc2)cc1Nc1nccc(-c2cccnc2)n'+(i%2?'1':'1')); x.get_smiles(); const inchi=x.get_inchi(); RD.get_inchikey_for_inchi(inchi); JSON.parse(x.get_descriptors()); x.get_morgan_fp_as_uint8array(JSON.stringify({radius:2,nBits:2048})); x.get_pattern_fp_as_uint8array(JSON.stringify({nBits:2048})); x.delete(); }
console.log('ms/mol', (Date.now()-t)/1000);
const t2=Date.now();
for (let i=0;i<1000;i++){ const x=RD.get_mol('Cc1ccc(NC(=O)c2ccc(CN3CCN(C)CC3)cc2)cc1Nc1nccc(-c2cccnc2)n1'); x.get_smiles(); x.get_inchi(); x.delete(); }
console.log('ms/mol smiles+inchi', (Date.now()-t2)/1000);
const t3=Date.now();
for (let i=0;i<1000;i++){ const x=RD.get_mol('Cc1ccc(NC(=O)c2ccc(CN3CCN(C)CC3)cc2)cc1Nc1nccc(-c2cccnc2)n1'); JSON.parse(x.get_descriptors()); x.delete(); }
console.log('ms/mol desc', (Date.now()-t3)/1000);
console.log(RD.get_mol('C1CC'), RD.get_mol('c1ccc([H])cc1')?.get_smiles());

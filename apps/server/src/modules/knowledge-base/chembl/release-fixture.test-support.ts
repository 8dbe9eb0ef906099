import { defaultFixtureRows } from './fixture.test-support.ts';

type Rows = ReturnType<typeof defaultFixtureRows>;
type Row = Rows[string][number];

/**
 * Release N+1 of the default fixture (release N), for the update tests. Against N it:
 * - activities: changes 31864 (GI50 10 -> 20 µM), drops 31867 (the salt's) and 31869 (ethanol's), adds 31891;
 * - molecules: drops ethanol (2005: compound and, unused then, its structure), renames 2001;
 * - assays: drops 1002 (only ethanol's activity used it);
 * - targets: renames tid 50425, adds tid 200; documents: adds doc 102.
 */
export function nextReleaseRows(): Rows {
  const rows = defaultFixtureRows();
  const list = (table: string) => rows[table] ?? [];
  rows.activities = list('activities')
    .filter((a) => a.activity_id !== 31867 && a.activity_id !== 31869)
    .map((a) => (a.activity_id === 31864 ? { ...a, standard_value: 20, value: 20 } : a));
  rows.activities.push({
    activity_id: 31891,
    assay_id: 1000,
    doc_id: 100,
    molregno: 1280,
    standard_relation: '=',
    standard_value: 12,
    standard_units: 'nM',
    standard_type: 'IC50',
    pchembl_value: 7.92,
    src_id: 1,
    type: 'IC50',
    relation: '=',
    value: 12,
    units: 'nM',
  });
  rows.molecule_dictionary = list('molecule_dictionary')
    .filter((m) => m.molregno !== 2005)
    .map((m) => (m.molregno === 2001 ? { ...m, pref_name: 'ASPIRIN ISOMER' } : m));
  rows.compound_structures = list('compound_structures').filter((m) => m.molregno !== 2005);
  rows.assays = list('assays').filter((a) => a.assay_id !== 1002);
  rows.target_dictionary = list('target_dictionary').map((t) => (t.tid === 50425 ? { ...t, pref_name: 'Plasmodium falciparum 3D7' } : t));
  rows.target_dictionary.push({
    tid: 200,
    target_type: 'SINGLE PROTEIN',
    pref_name: 'Cyclooxygenase-1',
    tax_id: 9606,
    organism: 'Homo sapiens',
    chembl_id: 'CHEMBL221',
  });
  rows.docs = [
    ...list('docs'),
    {
      doc_id: 102,
      chembl_id: 'CHEMBL4000001',
      title: 'COX-1 inhibitors revisited',
      doc_type: 'PUBLICATION',
      journal: 'Bioorg Med Chem Lett',
      year: 2024,
      src_id: 1,
    },
  ];
  return rows;
}

/**
 * Adds the detail rows of issue 17's mapped tables that hang off retirable rows, as ChEMBL would
 * ship them with `rows` (a detail row only where its assay or molecule is in the release):
 * - assay_parameters: 1 and 2 of assay 1000 (kept in N+1), 3 of assay 1002 (dropped in N+1);
 * - ATC: aspirin (1280, kept) in N02BA01, ethanol (2005, dropped in N+1) in V03AB16.
 */
export function withDetailRows(rows: Rows): Rows {
  const assays = new Set((rows.assays ?? []).map((a) => a.assay_id));
  const molecules = new Set((rows.molecule_dictionary ?? []).map((m) => m.molregno));
  const parameters: Row[] = [
    { assay_param_id: 1, assay_id: 1000, type: 'TIME', relation: '=', value: 24, units: 'hr' },
    {
      assay_param_id: 2,
      assay_id: 1000,
      type: 'DOSE',
      relation: '=',
      value: 10,
      units: 'uM',
      standard_type: 'DOSE',
      standard_relation: '=',
      standard_value: 10,
      standard_units: 'uM',
    },
    { assay_param_id: 3, assay_id: 1002, type: 'TEMPERATURE', relation: '=', value: 25, units: 'degrees C' },
  ];
  rows.assay_parameters = parameters.filter((p) => assays.has(p.assay_id));
  rows.atc_classification = [
    {
      who_name: 'acetylsalicylic acid',
      level1: 'N',
      level2: 'N02',
      level3: 'N02B',
      level4: 'N02BA',
      level5: 'N02BA01',
      level1_description: 'NERVOUS SYSTEM',
      level2_description: 'ANALGESICS',
      level3_description: 'OTHER ANALGESICS AND ANTIPYRETICS',
      level4_description: 'Salicylic acid and derivatives',
    },
    {
      who_name: 'ethanol',
      level1: 'V',
      level2: 'V03',
      level3: 'V03A',
      level4: 'V03AB',
      level5: 'V03AB16',
      level1_description: 'VARIOUS',
      level2_description: 'ALL OTHER THERAPEUTIC PRODUCTS',
      level3_description: 'ALL OTHER THERAPEUTIC PRODUCTS',
      level4_description: 'Antidotes',
    },
  ];
  const classified: Row[] = [
    { mol_atc_id: 1, level5: 'N02BA01', molregno: 1280 },
    { mol_atc_id: 2, level5: 'V03AB16', molregno: 2005 },
  ];
  rows.molecule_atc_classification = classified.filter((m) => molecules.has(m.molregno));
  return rows;
}

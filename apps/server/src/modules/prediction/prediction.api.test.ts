import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import initRDKitModule from '@rdkit/rdkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { demoEmailForRole } from '@kb/contracts/roles';
import type { LoginResult } from '@kb/contracts/auth';
import { ACTIVE_THRESHOLD_NM, aggregatePredictions } from '@kb/contracts/prediction';
import type { ModelStatus, PredictBatchResponse, PredictTargetsResponse } from '@kb/contracts/prediction';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { MORGAN_SETTINGS } from '../chemistry/fingerprint.mjs';
import { beginLoad, finishLoad } from '../knowledge-base/kb-loads.ts';
import { parentKeyOfInchi } from './parent-key.ts';

/*
 * Target prediction through the API on one demo chunk (1,000 structures): a known active predicts
 * its own target first, the evidence is the target's nearest actives (one per parent) by an
 * independent Tanimoto (RDKit in this process over the stored fingerprints, not the structure
 * index), a salt form of an active is never that active's evidence, a structure unlike the data
 * gets "no target predicted with confidence", probabilities are probabilities, bad input answers
 * 400, and a model file from ../shared/models installs (superadmin only) and adds its
 * probabilities and its own targets.
 */
const modelDir = path.resolve(import.meta.dirname, '../../../../../../shared/models/chembl-multitask');
const modelPresent = fs.existsSync(path.join(modelDir, 'chembl_37_multitask_q8.onnx'));
const OUT_OF_DOMAIN = 'OS(=O)(=O)C(F)(F)C(F)(F)C(F)(F)C(F)(F)C(F)(F)C(F)(F)C(F)(F)C(F)(F)F';

const POP8 = new Uint8Array(256);
for (let i = 1; i < 256; i++) POP8[i] = (i & 1) + POP8[i >> 1]!;
function tanimoto(a: Uint8Array, b: Uint8Array): number {
  let both = 0;
  let either = 0;
  for (let k = 0; k < a.length; k++) {
    both += POP8[a[k]! & b[k]!]!;
    either += POP8[a[k]! | b[k]!]!;
  }
  return either === 0 ? 0 : both / either;
}

describe.each(DATABASES)('target prediction API on %s', (kind) => {
  let t: TestApp;
  let me: LoginResult;
  const predict = (payload: unknown, login: LoginResult = me) =>
    t.call({ method: 'POST', url: '/api/prediction/targets', headers: authHeaders(login), payload: payload as object });
  const rows = async <T>(query: ReturnType<typeof sql<T>>) => (await query.execute(t.database.db)).rows;

  /** Actives by the documented rule, per target, with the family threshold of the demo catalog's class paths. */
  const activesOf = async (targetId: number, thresholdNm: number) =>
    rows(sql<{
      str_id: number;
      morgan_fp: Uint8Array;
      inchi: string | null;
    }>`SELECT DISTINCT s.str_id::int AS str_id, s.morgan_fp, s.inchi FROM activities a JOIN structures s ON s.str_id = a.str_id
      WHERE a.target_id = ${targetId} AND a.micro_molarvalue > 0 AND a.micro_molarvalue * 1000 <= ${thresholdNm}
        AND upper(a.std_activity_type) IN ('IC50','KI','KD','EC50','XC50','AC50','POTENCY') AND coalesce(a.std_act_prefix, '=') IN ('=','<','<=')`);

  beforeAll(async () => {
    const emptyModels = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-models-'));
    t = await startTestApp(kind, { PREDICTION_MODEL_DIR: emptyModels }, { demoChunks: 1 });
    me = await t.login(demoEmailForRole('FULL_USER'));
  }, 180_000);
  afterAll(() => t?.close());

  it('predicts a known active’s own target with confidence, marks it as measured, and explains it with the target’s nearest actives', async () => {
    // A kinase inhibitor of the demo data potent on its kinase (≤ 30 nM) and active on nothing else by any family threshold
    // (no other target ≤ 10 µM), with a close analogue (Tanimoto ≥ 0.6, computed here) among its kinase's other actives.
    const candidates = await rows(sql<{ str_id: number; canonical_smiles: string; target_id: number; morgan_fp: Uint8Array }>`
      WITH act AS (
        SELECT a.str_id, a.target_id FROM activities a JOIN targets g ON g.target_id = a.target_id
        JOIN target_classes c ON c.class_id = g.class_id JOIN target_classes p ON p.class_id = c.parent_id
        WHERE (c.name = 'Kinase' OR p.name = 'Kinase' OR p.name = 'Protein Kinase') AND a.micro_molarvalue > 0 AND a.micro_molarvalue * 1000 <= ${ACTIVE_THRESHOLD_NM.kinase}
          AND upper(a.std_activity_type) IN ('IC50','KI','KD') AND coalesce(a.std_act_prefix, '=') IN ('=','<','<=')
        GROUP BY a.str_id, a.target_id)
      SELECT s.str_id::int AS str_id, s.canonical_smiles, act.target_id::int AS target_id, s.morgan_fp FROM act JOIN structures s ON s.str_id = act.str_id
      WHERE NOT EXISTS (SELECT 1 FROM activities x WHERE x.str_id = act.str_id AND x.target_id <> act.target_id AND x.micro_molarvalue <= 10)
      ORDER BY s.str_id LIMIT 200`);
    let pick: (typeof candidates)[number] | undefined;
    for (const candidate of candidates) {
      const others = (await activesOf(candidate.target_id, ACTIVE_THRESHOLD_NM.kinase)).filter((row) => row.str_id !== candidate.str_id);
      const fp = new Uint8Array(candidate.morgan_fp);
      if (others.some((row) => tanimoto(fp, new Uint8Array(row.morgan_fp)) >= 0.6 && tanimoto(fp, new Uint8Array(row.morgan_fp)) < 1)) {
        pick = candidate;
        break;
      }
    }
    expect(pick, 'the demo chunk has a compound potent on one kinase alone, with a close analogue').toBeDefined();
    const answer = await predict({ structure: { kind: 'smiles', text: pick!.canonical_smiles } });
    expect(answer.statusCode, answer.body).toBe(200);
    const result = answer.data as unknown as PredictTargetsResponse;
    expect(result.query.strId).toBe(pick!.str_id);
    expect(result.abstention).toBeNull();
    // Its own kinase is listed with confidence (a kinase with still nearer actives may come before it).
    const own = result.targets.find((target) => target.targetId === pick!.target_id);
    expect(own, 'its own kinase is predicted with confidence').toBeDefined();
    expect(own!.family).toBe('kinase');
    expect(own!.measured).toMatchObject({ active: true });
    expect(own!.probability).toBeGreaterThanOrEqual(result.calibration.threshold);
    expect(own!.domain.actives).toBeGreaterThan(0);
    expect(own!.domain.documents).toBeGreaterThan(0);
    expect(own!.domain.nearestSimilarity).toBeGreaterThanOrEqual(0.6);
    // The first target's nearest active is at least as near as its own kinase's.
    expect(result.targets[0]!.domain.nearestSimilarity!).toBeGreaterThanOrEqual(own!.domain.nearestSimilarity! - 0.15);
    expect(result.domain.inDomain).toBe(true);
    expect(result.disclaimer).toMatch(/hypotheses/);
    expect(result.model.state).toBe('not-installed');
    expect(result.model.message).toContain('chembl_multitask_model');

    // The evidence: the target's actives nearest to the query, by Tanimoto computed here from the stored fingerprints.
    const rdkit = await initRDKitModule();
    const mol = rdkit.get_mol(pick!.canonical_smiles)!;
    const queryFp = new Uint8Array(mol.get_morgan_fp_as_uint8array(MORGAN_SETTINGS));
    mol.delete();
    // One per parent (the InChI's first component), never a form of the query's own parent.
    const rowsOfTarget = await activesOf(pick!.target_id, ACTIVE_THRESHOLD_NM.kinase);
    const queryParent = parentKeyOfInchi(rowsOfTarget.find((row) => row.str_id === pick!.str_id)?.inchi);
    const seen = new Set<string>();
    const actives = rowsOfTarget
      .filter((row) => row.str_id !== pick!.str_id && (queryParent === null || parentKeyOfInchi(row.inchi) !== queryParent))
      .map((row) => ({
        strId: row.str_id,
        parent: parentKeyOfInchi(row.inchi) ?? `s${row.str_id}`,
        similarity: tanimoto(queryFp, new Uint8Array(row.morgan_fp)),
      }))
      .sort((a, b) => b.similarity - a.similarity || a.strId - b.strId)
      .filter((row) => !seen.has(row.parent) && !!seen.add(row.parent));
    const evidence = own!.evidence;
    expect(evidence.length).toBe(Math.min(5, actives.filter((a) => a.similarity >= 0.3).length));
    evidence.forEach((compound, k) => {
      expect(compound.similarity).toBeCloseTo(actives[k]!.similarity, 9);
      expect(compound.strId).not.toBe(pick!.str_id);
      expect(compound.valueNm).toBeLessThanOrEqual(ACTIVE_THRESHOLD_NM.kinase);
      expect(compound.smiles.length).toBeGreaterThan(0);
    });
    // Ties aside, the same compounds.
    const cut = actives[evidence.length - 1]!.similarity;
    const expected = new Set(actives.filter((a) => a.similarity > cut + 1e-12).map((a) => a.strId));
    for (const id of expected) expect(evidence.map((e) => e.strId)).toContain(id);
    expect(own!.similarity!.maxSimilarity).toBeCloseTo(actives[0]!.similarity, 9);
  });

  it('says "no target predicted with confidence" for structures unlike every active, and lists nothing', async () => {
    for (const text of [OUT_OF_DOMAIN, 'O', '[Na+].[Cl-]']) {
      const answer = await predict({ structure: { kind: 'smiles', text } });
      expect(answer.statusCode, answer.body).toBe(200);
      const result = answer.data as unknown as PredictTargetsResponse;
      expect(result.domain.inDomain, text).toBe(false);
      expect(result.domain.message).toMatch(/unlike the measured data/);
      expect(result.query.strId).toBeNull();
      expect(result.targets, text).toEqual([]);
      expect(result.abstention?.message).toMatch(/No target predicted with confidence/);
      // Asked for every candidate, the weak hypotheses come back, each below the threshold.
      const all = (await predict({ structure: { kind: 'smiles', text }, minProbability: 0 })).data as unknown as PredictTargetsResponse;
      expect(all.targets.length).toBe(result.belowThreshold > 15 ? 15 : result.belowThreshold);
      for (const target of all.targets) expect(target.probability).toBeLessThan(result.calibration.threshold);
    }
  });

  it('answers probabilities: in [0, 1], most probable first, each predictor’s own monotone in its score', async () => {
    const [active] = await rows(sql<{ canonical_smiles: string }>`SELECT s.canonical_smiles FROM structures s
      WHERE s.str_id IN (SELECT str_id FROM activities WHERE micro_molarvalue <= 0.1) ORDER BY s.str_id LIMIT 1 OFFSET 7`);
    const answer = await predict({ structure: { kind: 'smiles', text: active!.canonical_smiles }, minProbability: 0, limit: 50 });
    expect(answer.statusCode, answer.body).toBe(200);
    const result = answer.data as unknown as PredictTargetsResponse;
    expect(result.targets.length).toBeGreaterThan(1);
    expect(result.calibration.threshold).toBe(0);
    const ps = result.targets.map((target) => target.probability);
    for (const p of ps) expect(p >= 0 && p <= 1).toBe(true);
    expect(ps).toEqual([...ps].sort((a, b) => b - a));
    result.targets.forEach((target, k) => expect(target.ranks.combined).toBe(k + 1));
    // The ensemble's own probability never rises as its E-value grows.
    const byE = result.targets
      .filter((target) => target.similarity?.eValue != null)
      .map((target) => target.similarity!)
      .sort((a, b) => a.eValue! - b.eValue!);
    for (let k = 1; k < byE.length; k++) expect(byE[k]!.probability).toBeLessThanOrEqual(byE[k - 1]!.probability + 1e-12);
    for (const target of result.targets) if (target.similarity) expect(target.similarity.probability).toBeGreaterThanOrEqual(0);
  });

  it('never counts a salt form of a stored active as its evidence, and gives each parent one evidence slot', async () => {
    // An active of a target with at least 3 actives, and its nearest fellow active: stored again as a hydrochloride, active too.
    const [pick] = await rows(sql<{ str_id: number; canonical_smiles: string; target_id: number; ref_id: number | null; um: number }>`
      SELECT a.str_id::int AS str_id, s.canonical_smiles, a.target_id::int AS target_id, a.ref_id::int AS ref_id, a.micro_molarvalue AS um
      FROM activities a JOIN structures s ON s.str_id = a.str_id
      WHERE a.micro_molarvalue <= 0.01 AND upper(a.std_activity_type) IN ('IC50','KI','KD') AND coalesce(a.std_act_prefix, '=') = '='
        AND s.canonical_smiles NOT LIKE '%.%' AND s.inchi IS NOT NULL
      ORDER BY a.str_id, a.target_id LIMIT 1`);
    expect(pick, 'the demo chunk has a potent active').toBeDefined();
    const rdkit = await initRDKitModule();
    const saltSmiles = `${pick!.canonical_smiles}.Cl`;
    const salt = rdkit.get_mol(saltSmiles)!;
    const saltFp = new Uint8Array(salt.get_morgan_fp_as_uint8array(MORGAN_SETTINGS));
    const saltInchi = salt.get_inchi();
    salt.delete();
    const db = t.database.db;
    const load = await beginLoad(db, { kind: 'import', label: 'a salt form (prediction test)' });
    const inserted = await db
      .insertInto('structures')
      .values({ smiles: saltSmiles, canonical_smiles: saltSmiles, inchi: saltInchi, morgan_fp: saltFp, load_id: load })
      .returning('str_id')
      .executeTakeFirstOrThrow();
    const saltId = Number(inserted.str_id);
    await db
      .insertInto('activities')
      .values({
        str_id: saltId,
        target_id: pick!.target_id,
        ref_id: pick!.ref_id,
        std_activity_type: 'IC50',
        std_act_prefix: '=',
        activity_value: pick!.um * 1000,
        standard_uom: 'nM',
        micro_molarvalue: pick!.um,
        load_id: load,
      })
      .execute();
    await finishLoad(db, load, 'complete', { changes: [], quality: null, notes: [] });

    // The free base: its hydrochloride (Tanimoto ≈ 0.9) is not its evidence, on any target.
    const base = (await predict({ structure: { kind: 'smiles', text: pick!.canonical_smiles }, minProbability: 0, limit: 50 }))
      .data as unknown as PredictTargetsResponse;
    expect(base.query.strId).toBe(pick!.str_id);
    const baseEvidence = base.targets.flatMap((target) => target.evidence.map((e) => e.strId));
    expect(baseEvidence).not.toContain(saltId);
    expect(baseEvidence).not.toContain(pick!.str_id);
    expect(base.domain.nearestStrId).not.toBe(saltId);
    // The salt as stored (not desalted): the free base is not its evidence either.
    const asSalt = (await predict({ structure: { kind: 'smiles', text: saltSmiles, desalt: false }, minProbability: 0, limit: 50 }))
      .data as unknown as PredictTargetsResponse;
    expect(asSalt.targets.flatMap((target) => target.evidence.map((e) => e.strId))).not.toContain(pick!.str_id);
    // A neighbour of both: the free base and its salt share one slot (whichever is nearer).
    const fellow = asSalt.targets.find((target) => target.targetId === pick!.target_id)?.evidence[0];
    if (fellow) {
      const [row] = await rows(sql<{ canonical_smiles: string }>`SELECT canonical_smiles FROM structures WHERE str_id = ${fellow.strId}`);
      const other = (await predict({ structure: { kind: 'smiles', text: row!.canonical_smiles }, minProbability: 0, limit: 50 }))
        .data as unknown as PredictTargetsResponse;
      const onTarget = other.targets.find((target) => target.targetId === pick!.target_id)?.evidence.map((e) => e.strId) ?? [];
      expect(onTarget.filter((id) => id === saltId || id === pick!.str_id).length).toBeLessThanOrEqual(1);
    }
  });

  it('answers 400 with a reason for bad input, and 403 for a role that may not search', async () => {
    const unclosed = await predict({ structure: { kind: 'smiles', text: 'c1ccccc1C(=O' } });
    expect(unclosed.statusCode).toBe(400);
    expect(String(unclosed.data.message)).toMatch(/RDKit could not read the SMILES/);
    expect((await predict({ structure: { kind: 'smiles', text: '   ' } })).statusCode).toBe(400);
    expect((await predict({ structure: { kind: 'smiles', text: 'CCO' }, limit: 500 })).statusCode).toBe(400);
    const huge = await predict({ structure: { kind: 'smiles', text: 'C'.repeat(1500) } });
    expect(huge.statusCode).toBe(400);
    expect(String(huge.data.message)).toMatch(/at most 250/);
    expect((await predict({ structure: { kind: 'molfile', text: 'not a molfile' } })).statusCode).toBe(400);
    const batch = await t.call({
      method: 'POST',
      url: '/api/prediction/targets/batch',
      headers: authHeaders(me),
      payload: { strIds: Array.from({ length: 51 }, (_, k) => k + 1) },
    });
    expect(batch.statusCode).toBe(400);
    const admin = await t.login(demoEmailForRole('GOSTAR_ADMIN'));
    expect((await predict({ structure: { kind: 'smiles', text: 'CCO' } }, admin)).statusCode).toBe(403);
    expect(
      (await t.call({ method: 'POST', url: '/api/prediction/targets', payload: { structure: { kind: 'smiles', text: 'CCO' } } }))
        .statusCode,
    ).toBe(401);
  });

  it('predicts a batch of stored structures, flags the measured targets and an unknown id', async () => {
    const ids = (await rows(sql<{ str_id: number }>`SELECT str_id::int AS str_id FROM structures ORDER BY str_id LIMIT 4`)).map(
      (r) => r.str_id,
    );
    const answer = await t.call({
      method: 'POST',
      url: '/api/prediction/targets/batch',
      headers: authHeaders(me),
      payload: { strIds: [...ids, 987_654_321], limit: 5 },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const { predictions } = answer.data as unknown as PredictBatchResponse;
    expect(predictions.map((p) => p.strId)).toEqual([...ids, 987_654_321]);
    expect(predictions[4]!.error).toMatch(/no structure 987654321/);
    const measured = await rows(sql<{
      str_id: number;
      target_id: number;
    }>`SELECT DISTINCT str_id::int AS str_id, target_id::int AS target_id FROM activities
      WHERE str_id = ANY(${`{${ids.join(',')}}`}::bigint[]) AND micro_molarvalue > 0 AND upper(std_activity_type) IN ('IC50','KI','KD','EC50','XC50','AC50','POTENCY') AND coalesce(std_act_prefix, '=') IN ('=','<','<=')`);
    const measuredKey = new Set(measured.map((m) => `${m.str_id}:${m.target_id}`));
    for (const prediction of predictions.slice(0, 4)) {
      expect(prediction.error).toBeNull();
      expect(prediction.abstained).toBe(prediction.targets.length === 0);
      expect(prediction.targets.length).toBeLessThanOrEqual(5);
      for (const target of prediction.targets) {
        expect(target.measured).toBe(measuredKey.has(`${prediction.strId}:${target.targetId}`));
        expect(target.probability).toBeGreaterThanOrEqual(0.2);
      }
    }
    expect(predictions.slice(0, 4).some((prediction) => prediction.targets.length > 0)).toBe(true);
    const aggregated = aggregatePredictions(predictions);
    expect(aggregated[0]!.predicted).toBeGreaterThanOrEqual(aggregated.at(-1)!.predicted);
    for (const target of aggregated) expect(target.bestProbability).toBeGreaterThanOrEqual(target.meanProbability);
    expect(aggregated.reduce((sum, target) => sum + target.predicted, 0)).toBe(predictions.reduce((sum, p) => sum + p.targets.length, 0));
  });

  describe.skipIf(!modelPresent)('with the ChEMBL multitask model from ../shared/models', () => {
    it('installs only for a super admin, refuses a broken file, and adds the model’s probabilities', async () => {
      const files = {
        name: 'ChEMBL 37 multitask',
        modelBase64: fs.readFileSync(path.join(modelDir, 'chembl_37_multitask_q8.onnx')).toString('base64'),
        targets: JSON.parse(fs.readFileSync(path.join(modelDir, 'targets_37_all.json'), 'utf8')) as string[],
      };
      const install = (login: LoginResult, payload: unknown) =>
        t.call({ method: 'POST', url: '/api/superadmin/prediction/model', headers: authHeaders(login), payload: payload as object });
      expect((await install(me, files)).statusCode).toBe(403);
      const superAdmin = await t.login(demoEmailForRole('SUPER_ADMIN'));
      const broken = await install(superAdmin, { ...files, modelBase64: Buffer.from('not an onnx model at all').toString('base64') });
      expect(broken.statusCode).toBe(400);
      expect(String(broken.data.message)).toMatch(/cannot be installed/);
      const wrongCount = await install(superAdmin, { ...files, targets: files.targets.slice(1) });
      expect(wrongCount.statusCode).toBe(400);
      const ok = await install(superAdmin, files);
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.data as unknown as ModelStatus).toMatchObject({ state: 'installed', targets: files.targets.length });

      // Erlotinib: the model knows EGFR (CHEMBL203), which the demo catalog holds (listed whatever its probability).
      const answer = await predict({
        structure: { kind: 'smiles', text: 'COCCOc1cc2ncnc(Nc3cccc(C#C)c3)c2cc1OCCOC' },
        minProbability: 0,
        limit: 50,
      });
      expect(answer.statusCode, answer.body).toBe(200);
      const result = answer.data as unknown as PredictTargetsResponse;
      expect(result.model.state).toBe('installed');
      const egfr = result.targets.find((target) => target.chemblId === 'CHEMBL203');
      // The model's raw output for erlotinib on EGFR, as native onnxruntime-node computed it (multitask/multitask-model.test.ts).
      expect(egfr?.multitask?.rawProbability).toBeCloseTo(0.28385, 4);
      expect(egfr?.multitask?.probability).toBeGreaterThan(0);
      expect(egfr?.similarity).not.toBeNull();
      expect(egfr?.ranks.multitask).toBeGreaterThan(0);
      expect(result.targets.some((target) => target.multitask !== null && target.similarity === null)).toBe(true);

      // The model's own targets: significant by lift, none of them a target with actives here.
      expect(result.modelOnly.length).toBeGreaterThan(0);
      const held = new Set(
        (
          await rows(sql<{
            chembl_id: string;
          }>`SELECT DISTINCT coalesce(t.chembl_id, s.synonym) AS chembl_id FROM activities a JOIN targets t ON t.target_id = a.target_id
          LEFT JOIN target_synonyms s ON s.target_id = t.target_id AND s.syn_type = 'ChEMBL id'`)
        ).map((row) => row.chembl_id),
      );
      for (const target of result.modelOnly) {
        expect(files.targets).toContain(target.chemblId);
        expect(held.has(target.chemblId)).toBe(false);
        expect(target.eValue).toBeLessThanOrEqual(1);
        expect(target.probability >= 0 && target.probability <= 1).toBe(true);
      }
      const zs = result.modelOnly.map((target) => target.zScore);
      expect(zs).toEqual([...zs].sort((a, b) => b - a));

      // Mapped through UniProt accessions: a record of the first model-only target carrying EGFR's accession relates it to EGFR.
      const first = result.modelOnly[0]!;
      const [egfrRecord] = await rows(sql<{
        target_id: number;
        uniprot_id: string;
      }>`SELECT target_id::int AS target_id, uniprot_id FROM targets
        WHERE target_id = ${egfr!.targetId}`);
      expect(egfrRecord?.uniprot_id).toBeTruthy();
      const load = await beginLoad(t.database.db, { kind: 'import', label: 'a model target record (prediction test)' });
      await t.database.db
        .insertInto('targets')
        .values({
          name: 'Model target record',
          target_type: 'SINGLE PROTEIN',
          organism: 'Homo sapiens',
          chembl_id: first.chemblId,
          uniprot_id: egfrRecord!.uniprot_id,
        })
        .execute();
      await finishLoad(t.database.db, load, 'complete', { changes: [], quality: null, notes: [] });
      const mapped = (await predict({ structure: { kind: 'smiles', text: 'COCCOc1cc2ncnc(Nc3cccc(C#C)c3)c2cc1OCCOC' } }))
        .data as unknown as PredictTargetsResponse;
      const again = mapped.modelOnly.find((target) => target.chemblId === first.chemblId);
      expect(again?.name).toBe('Model target record');
      expect(again?.related).toContainEqual(expect.objectContaining({ targetId: egfr!.targetId, relation: 'same protein' }));
    });
  });
});

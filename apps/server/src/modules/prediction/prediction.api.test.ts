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
import { ONE_DATABASE, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { MORGAN_SETTINGS } from '../chemistry/fingerprint.mjs';

/*
 * Target prediction through the API on one demo chunk (1,000 structures): a known active predicts
 * its own target first, the evidence is the target's nearest actives by an independent Tanimoto
 * (RDKit in this process over the stored fingerprints, not the structure index), a structure
 * unlike the data is flagged, bad input answers 400, and a model file from ../shared/models
 * installs (superadmin only) and adds its probabilities.
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

describe.each(ONE_DATABASE)('target prediction API on %s', (kind) => {
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
    }>`SELECT DISTINCT s.str_id::int AS str_id, s.morgan_fp FROM activities a JOIN structures s ON s.str_id = a.str_id
      WHERE a.target_id = ${targetId} AND a.micro_molarvalue > 0 AND a.micro_molarvalue * 1000 <= ${thresholdNm}
        AND upper(a.std_activity_type) IN ('IC50','KI','KD','EC50','XC50','AC50','POTENCY') AND coalesce(a.std_act_prefix, '=') IN ('=','<','<=')`);

  beforeAll(async () => {
    const emptyModels = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-models-'));
    t = await startTestApp(kind, { PREDICTION_MODEL_DIR: emptyModels }, { demoChunks: 1 });
    me = await t.login(demoEmailForRole('FULL_USER'));
  }, 180_000);
  afterAll(() => t?.close());

  it('predicts a known active’s own target first, marks it as measured, and explains it with the target’s nearest actives', async () => {
    // A kinase inhibitor of the demo data potent on its kinase (≤ 30 nM) and active on nothing else by any family threshold (no other target ≤ 10 µM).
    const [pick] = await rows(sql<{ str_id: number; canonical_smiles: string; target_id: number }>`
      WITH act AS (
        SELECT a.str_id, a.target_id FROM activities a JOIN targets g ON g.target_id = a.target_id
        JOIN target_classes c ON c.class_id = g.class_id JOIN target_classes p ON p.class_id = c.parent_id
        WHERE (c.name = 'Kinase' OR p.name = 'Kinase' OR p.name = 'Protein Kinase') AND a.micro_molarvalue > 0 AND a.micro_molarvalue * 1000 <= ${ACTIVE_THRESHOLD_NM.kinase}
          AND upper(a.std_activity_type) IN ('IC50','KI','KD') AND coalesce(a.std_act_prefix, '=') IN ('=','<','<=')
        GROUP BY a.str_id, a.target_id)
      SELECT s.str_id::int AS str_id, s.canonical_smiles, act.target_id::int AS target_id FROM act JOIN structures s ON s.str_id = act.str_id
      WHERE NOT EXISTS (SELECT 1 FROM activities x WHERE x.str_id = act.str_id AND x.target_id <> act.target_id AND x.micro_molarvalue <= 10)
      ORDER BY s.str_id LIMIT 1`);
    expect(pick, 'the demo chunk has a compound potent on one kinase alone').toBeDefined();
    const answer = await predict({ structure: { kind: 'smiles', text: pick!.canonical_smiles } });
    expect(answer.statusCode, answer.body).toBe(200);
    const result = answer.data as unknown as PredictTargetsResponse;
    expect(result.query.strId).toBe(pick!.str_id);
    expect(result.targets[0]!.targetId).toBe(pick!.target_id);
    expect(result.targets[0]!.family).toBe('kinase');
    expect(result.targets[0]!.measured).toMatchObject({ active: true });
    expect(result.targets[0]!.ranks).toMatchObject({ combined: 1, similarity: 1 });
    expect(result.domain.inDomain).toBe(true);
    expect(result.disclaimer).toMatch(/hypotheses/);
    expect(result.model.state).toBe('not-installed');
    expect(result.model.message).toContain('chembl_multitask_model');

    // The evidence: the target's actives nearest to the query, by Tanimoto computed here from the stored fingerprints.
    const rdkit = await initRDKitModule();
    const mol = rdkit.get_mol(pick!.canonical_smiles)!;
    const queryFp = new Uint8Array(mol.get_morgan_fp_as_uint8array(MORGAN_SETTINGS));
    mol.delete();
    const actives = (await activesOf(pick!.target_id, ACTIVE_THRESHOLD_NM.kinase))
      .filter((row) => row.str_id !== pick!.str_id)
      .map((row) => ({ strId: row.str_id, similarity: tanimoto(queryFp, new Uint8Array(row.morgan_fp)) }))
      .sort((a, b) => b.similarity - a.similarity);
    const evidence = result.targets[0]!.evidence;
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
    expect(result.targets[0]!.similarity!.maxSimilarity).toBeCloseTo(actives[0]!.similarity, 9);
  });

  it('warns when the structure is unlike every active of the knowledge base', async () => {
    const answer = await predict({ structure: { kind: 'smiles', text: OUT_OF_DOMAIN } });
    expect(answer.statusCode, answer.body).toBe(200);
    const result = answer.data as unknown as PredictTargetsResponse;
    expect(result.domain.inDomain).toBe(false);
    expect(result.domain.message).toMatch(/unlike the measured data/);
    expect(result.query.strId).toBeNull();
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
      expect(prediction.targets.length).toBeGreaterThan(0);
      expect(prediction.targets.length).toBeLessThanOrEqual(5);
      for (const target of prediction.targets) expect(target.measured).toBe(measuredKey.has(`${prediction.strId}:${target.targetId}`));
    }
    const aggregated = aggregatePredictions(predictions);
    expect(aggregated[0]!.predicted).toBeGreaterThanOrEqual(aggregated.at(-1)!.predicted);
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

      // Erlotinib: the model knows EGFR (CHEMBL203), which the demo catalog holds.
      const answer = await predict({ structure: { kind: 'smiles', text: 'COCCOc1cc2ncnc(Nc3cccc(C#C)c3)c2cc1OCCOC' } });
      expect(answer.statusCode, answer.body).toBe(200);
      const result = answer.data as unknown as PredictTargetsResponse;
      expect(result.model.state).toBe('installed');
      const egfr = result.targets.find((target) => target.chemblId === 'CHEMBL203');
      // The model's raw output for erlotinib on EGFR, as native onnxruntime-node computed it (multitask/multitask-model.test.ts).
      expect(egfr?.multitask?.probability).toBeCloseTo(0.28385, 4);
      expect(egfr?.similarity).not.toBeNull();
      expect(egfr?.ranks.multitask).toBeGreaterThan(0);
      expect(result.targets.some((target) => target.multitask !== null && target.similarity === null)).toBe(true);
    });
  });
});

import { describe, expect, it } from 'vitest';
import { checkModelFile, defaultModelName, parseModelTargets } from './model-files.ts';

describe('model files chosen by a super admin', () => {
  it('accepts a list of ChEMBL target ids and names the first wrong entry otherwise', () => {
    expect(parseModelTargets('["CHEMBL203", "CHEMBL204"]', 't.json')).toEqual({ ok: true, value: ['CHEMBL203', 'CHEMBL204'] });
    const wrong = parseModelTargets('["CHEMBL203", "EGFR"]', 't.json');
    expect(wrong.ok === false && wrong.message).toMatch(/Entry 2 .*"EGFR"/);
    expect(parseModelTargets('{"a": 1}', 't.json').ok).toBe(false);
    expect(parseModelTargets('not json', 't.json').ok).toBe(false);
  });

  it('refuses a model file that is not ONNX or is empty', () => {
    expect(checkModelFile({ name: 'model.onnx', size: 3_138_010 })).toBeNull();
    expect(checkModelFile({ name: 'targets.json', size: 100 })).toMatch(/not an ONNX file/);
    expect(checkModelFile({ name: 'model.onnx', size: 0 })).toMatch(/empty/);
  });

  it('names a model after its ChEMBL release', () => {
    expect(defaultModelName('chembl_37_multitask_q8.onnx')).toBe('ChEMBL 37 multitask');
  });
});

import { CHEMBL_TARGET_ID, MODEL_FILE_MAX_BYTES, MODEL_TARGETS_MAX_BYTES } from '@kb/contracts/prediction';

/**
 * The two files of a multitask model as a super admin chooses them (docs/prediction.md "Installing
 * a model"): checked in the browser first, so a wrong file is named before 3–60 MB travel.
 */

const CHEMBL_ID = CHEMBL_TARGET_ID;
const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(0)} MB`;

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

/** The model file: an .onnx file, not empty, within the size the server accepts. */
export function checkModelFile(file: { name: string; size: number }): string | null {
  if (!/\.onnx$/i.test(file.name))
    return `“${file.name}” is not an ONNX file: choose the model's .onnx file (e.g. chembl_37_multitask_q8.onnx).`;
  if (file.size === 0) return `“${file.name}” is empty.`;
  if (file.size > MODEL_FILE_MAX_BYTES) return `“${file.name}” is larger than ${megabytes(MODEL_FILE_MAX_BYTES)}.`;
  return null;
}

/**
 * The target list (targets_37_all.json): a JSON array of ChEMBL target ids, in the order of the
 * model's outputs. The first wrong entry is named.
 */
export function parseModelTargets(text: string, fileName: string, size = text.length): Checked<string[]> {
  if (size > MODEL_TARGETS_MAX_BYTES)
    return { ok: false, message: `“${fileName}” is larger than ${megabytes(MODEL_TARGETS_MAX_BYTES)}: a target list is a few kilobytes.` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, message: `“${fileName}” is not JSON: choose the model's target list (e.g. targets_37_all.json).` };
  }
  if (!Array.isArray(parsed))
    return { ok: false, message: `“${fileName}” is not a list of target ids: it should read ["CHEMBL1075094", "CHEMBL1075104", …].` };
  if (parsed.length === 0) return { ok: false, message: `“${fileName}” lists no target.` };
  const index = parsed.findIndex((item) => typeof item !== 'string' || !CHEMBL_ID.test(item));
  if (index >= 0)
    return {
      ok: false,
      message: `Entry ${index + 1} of “${fileName}” (${JSON.stringify(parsed[index])?.slice(0, 40)}) is not a ChEMBL target id such as CHEMBL203.`,
    };
  return { ok: true, value: parsed as string[] };
}

/** A name to show users, from the model file's name when the admin gives none: "chembl_37_multitask_q8.onnx" → "ChEMBL 37 multitask". */
export function defaultModelName(fileName: string): string {
  const release = /chembl[_-]?(\d+)/i.exec(fileName)?.[1];
  return release ? `ChEMBL ${release} multitask` : fileName.replace(/\.onnx$/i, '');
}

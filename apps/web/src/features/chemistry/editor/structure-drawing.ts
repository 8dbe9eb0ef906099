import type { Ketcher } from 'ketcher-core';

/** Text formats a structure query can be handed to the editor in. */
type StructureTextFormat = 'smiles' | 'molfile' | 'smarts';

/** A query structure as text, to be loaded into the editor. */
export interface StructureText {
  format: StructureTextFormat;
  value: string;
}

/** What the editor hands back: the drawing in every format a search row may need. */
export interface StructureDrawing {
  smiles: string;
  molfile: string;
  /** Only asked for when the row searches by SMARTS: query atoms and bonds survive only there. */
  smarts?: string;
}

/** Why a drawing cannot be used as a query; the modal shows the message and stays open. */
export type DrawingProblem = 'empty' | 'reaction';

export const DRAWING_PROBLEM_MESSAGES: Record<DrawingProblem, string> = {
  empty: 'The drawing is empty: draw a structure, or paste SMILES or a molfile (Ctrl+V), before using it.',
  reaction: 'A reaction cannot be searched: draw a single structure (remove arrows and pluses).',
};

/**
 * Reads the current drawing out of Ketcher. SMARTS is read first for SMARTS rows because a
 * query feature (atom list, any bond) may have no SMILES; a missing SMILES then becomes ''.
 * Conversion errors from Indigo are thrown to the caller, which shows them.
 */
export async function readDrawing(ketcher: Ketcher, withSmarts: boolean): Promise<StructureDrawing | DrawingProblem> {
  if (ketcher.editor.struct().isBlank()) return 'empty';
  if (ketcher.containsReaction()) return 'reaction';
  if (withSmarts) {
    const smarts = await ketcher.getSmarts();
    const smiles = await ketcher.getSmiles().catch(() => '');
    const molfile = await ketcher.getMolfile();
    return { smiles, molfile, smarts };
  }
  // Sequential: the standalone service answers through one worker, so parallel calls gain nothing.
  const smiles = await ketcher.getSmiles();
  const molfile = await ketcher.getMolfile();
  return { smiles, molfile };
}

/** Indigo's errors arrive as strings, Error objects or `{ message }` records: one readable line. */
export function ketcherErrorMessage(error: unknown): string {
  if (typeof error === 'string') return error;
  if (error instanceof Error) return error.message;
  if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string') return error.message;
  return 'Unknown error';
}

/**
 * Indigo answers from a worker that first downloads and compiles its WASM; if that failed, its
 * promises never settle. A deadline turns a hang into a message the user can act on.
 */
export function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('the chemistry engine of the editor did not answer; reload the page and try again')),
      ms,
    );
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/**
 * Text pasted or typed as a structure, as Indigo should read it: one line (SMILES) is trimmed; a
 * molfile keeps its leading lines, because its first line (the name) may be blank and its counts
 * line must stay the fourth. Null: nothing to place.
 */
export function structureTextOf(raw: string): string | null {
  if (raw.trim() === '') return null;
  const text = raw.replace(/\r\n?/g, '\n');
  return text.trim().includes('\n') ? text.trimEnd() : text.trim();
}

/**
 * Puts a pasted structure on the canvas as a placed structure, through Ketcher's API: on an empty
 * canvas it becomes the drawing (`setMolecule`), next to a drawing it is added beside it
 * (`addFragment`). Ketcher's own paste instead floats the structure under the pointer until a
 * click drops it, and drops nothing when the pointer leaves the canvas (towards "Use structure").
 */
export async function placeStructureText(ketcher: Ketcher, text: string, replace = false): Promise<'set' | 'added'> {
  if (replace || ketcher.editor.struct().isBlank()) {
    await ketcher.setMolecule(text);
    return 'set';
  }
  await ketcher.addFragment(text);
  return 'added';
}

/** What Ketcher's paste tool holds while a structure floats under the pointer (not in its types). */
interface FloatingPasteTool {
  struct: ReturnType<Ketcher['editor']['struct']>;
  isSingleContractedGroup: unknown;
  /** Takes back the preview drawn under the pointer, if one is shown. */
  cancel?: () => void;
}

function floatingPaste(ketcher: Ketcher): FloatingPasteTool | null {
  const tool = (ketcher.editor as unknown as { tool?: () => unknown }).tool?.();
  if (!tool || typeof tool !== 'object' || !('struct' in tool) || !('isSingleContractedGroup' in tool)) return null;
  const { struct } = tool as FloatingPasteTool;
  return struct && typeof struct.isBlank === 'function' && !struct.isBlank() ? (tool as FloatingPasteTool) : null;
}

/**
 * A structure still floating from Ketcher's own paste (its toolbar's paste, Ctrl+Alt+V) is placed
 * before the drawing is read, so "Use structure" never loses it: it becomes the drawing on an empty
 * canvas and is added beside a drawing otherwise. Answers whether there was one.
 */
export function placeFloatingPaste(ketcher: Ketcher): boolean {
  const tool = floatingPaste(ketcher);
  if (!tool) return false;
  const editor = ketcher.editor;
  tool.cancel?.();
  const floating = tool.struct.clone();
  if (editor.struct().isBlank()) editor.struct(floating);
  else editor.structToAddFragment(floating);
  // The paste tool would float the same structure again on the next pointer move.
  (editor as unknown as { tool: (name: string) => unknown }).tool('select');
  return true;
}

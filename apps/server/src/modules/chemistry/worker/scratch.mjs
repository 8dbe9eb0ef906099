// Scratch buffers and matchers shared by the substructure steps and the kept answers (sized for the largest shard seen).
import { SmilesGraph } from '../smiles-graph.mjs';
import { Matcher } from '../substructure-match.mjs';

/** Scratch for the screen and the candidates (sized for the largest shard seen). */
export let screenAcc = new Uint32Array(0);

export let withinRows = new Uint32Array(0);

export let candidateRowsOut = new Int32Array(0);

export const graph = new SmilesGraph(1024, 2048);

export const matcher = new Matcher(1024);

export function scratch(shard) {
  const { words } = shard.screen;
  if (screenAcc.length < words) {
    screenAcc = new Uint32Array(words);
    withinRows = new Uint32Array(words);
  }
  if (candidateRowsOut.length < shard.count) candidateRowsOut = new Int32Array(shard.count);
}

export const utf8 = new TextEncoder();

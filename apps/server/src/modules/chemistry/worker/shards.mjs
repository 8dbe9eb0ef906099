// The worker's shards of the structure index: built from the engine's payload, dropped on a rebuild.
import { shards } from './runtime.mjs';
import { utf8 } from './scratch.mjs';
import { stopWarming } from './warm-fragments.mjs';
import { bitCounts, sliceWords } from '../bit-slices.mjs';
import { buildScreen } from '../substructure-screen.mjs';

/**
 * A shard: its stored SMILES as UTF-8 in one buffer (row r from smilesAt[r] to smilesAt[r + 1];
 * empty: over the stored-structure limits, index-loader.ts, and not searched by substructure),
 * its substructure screen (substructure-screen.mjs) and, shared with the main thread, the Morgan
 * fingerprints for similarity. RDKit holds nothing of it: a candidate is read and matched here
 * (smiles-graph.mjs, substructure-match.mjs) or handed to RDKit with others (verifyWithRdkit).
 */
export function addShard(message) {
  const { shardId, count, smiles } = message;
  const encoded = smiles.map((text) => (text ? utf8.encode(text) : null));
  const smilesAt = new Int32Array(count + 1);
  for (let i = 0; i < count; i++) smilesAt[i + 1] = smilesAt[i] + (encoded[i]?.length ?? 0);
  const smilesBytes = new Uint8Array(smilesAt[count]);
  encoded.forEach((bytes, i) => bytes && smilesBytes.set(bytes, smilesAt[i]));
  const hasPattern = message.pattern ? message.hasPattern : new Uint8Array(count);
  const screen = buildScreen(count, message.pattern ?? new Uint8Array(0), hasPattern, (row) => smilesAt[row + 1] > smilesAt[row]);
  // Morgan bit arrays shared with the main thread; how many rows hold each bit is this worker's.
  const words = sliceWords(count);
  const morgan = { count, pop: message.pop, slices: message.morgan, words, bitCount: bitCounts(message.morgan, words) };
  shards.set(shardId, { smilesBytes, smilesAt, screen, ids: message.ids, pop: message.pop, morgan, count });
  let size = 0;
  for (let i = 0; i < count; i++) if (smilesAt[i + 1] > smilesAt[i]) size++;
  return size;
}

export function dropShards() {
  shards.clear();
  // A rebuild follows: warming waits until the engine says its load is in.
  stopWarming();
}

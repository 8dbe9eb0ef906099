// One part of the actives' fingerprint index (active-scan.ts): an inverted index, bit → the rows
// that have it, so a query touches only the rows sharing its bits. At Tanimoto 0.3 almost no row
// can be skipped by bit count or early exit, so the structure index's row-by-row scan reads every
// row; here each row costs the few query bits it shares, and one last pass over a counter array.
// Plain JavaScript on purpose: worker threads load it without tsx.
import { parentPort } from 'node:worker_threads';

const FP_BITS = 2048;
const FP_BYTES = FP_BITS / 8;

/**
 * Rows are taken in blocks of BLOCK (a row's number inside its block fits 16 bits, and a block's
 * counters stay in the processor's cache): the rows of block k having bit b, as numbers inside the
 * block, are rows[start[k * FP_BITS + b] .. start[k * FP_BITS + b + 1]] (ascending).
 */
let BLOCK = 65_536;
let start = null;
let rows = null;
/** Bits per row (0: no fingerprint, never a neighbour). */
let pops = null;
/** Shared bits per row of the block being scanned (zeroed as it is read). */
let counts = null;
/** This part's first row in the whole index. */
let first = 0;

/** The part's rows as they arrive, page by page, until `load` indexes them. */
let pages = [];

/**
 * One page of rows as fingerprints back to back (FP_BYTES each; all zero: no fingerprint), kept as
 * bit lists: row r of the page has bits[offsets[r] .. offsets[r + 1]]. Done here, not in the
 * reading thread, so the parts' workers take it in parallel while the next page is read.
 */
function append({ fps }) {
  const count = fps.length / FP_BYTES;
  const offsets = new Uint32Array(count + 1);
  let bits = new Uint16Array(count * 64);
  let used = 0;
  for (let r = 0; r < count; r++) {
    for (let j = r * FP_BYTES, end = j + FP_BYTES; j < end; j++) {
      const byte = fps[j];
      if (byte === 0) continue;
      if (used + 8 > bits.length) {
        const grown = new Uint16Array(bits.length * 2);
        grown.set(bits);
        bits = grown;
      }
      const bit0 = (j - r * FP_BYTES) * 8;
      for (let i = 0; i < 8; i++) if (byte & (1 << i)) bits[used++] = bit0 + i;
    }
    offsets[r + 1] = used;
  }
  pages.push({ offsets, bits: bits.slice(0, used) });
  return {};
}

/**
 * Builds the inverted index from the pages received (count per block and bit, prefix sums, fill),
 * then lets them go: the rows arrive a page at a time, so neither thread ever holds every row's bit
 * list twice.
 */
function load({ rowFrom, block }) {
  if (block) BLOCK = block;
  const n = pages.reduce((sum, page) => sum + page.offsets.length - 1, 0);
  const postings = pages.reduce((sum, page) => sum + page.bits.length, 0);
  const blocks = Math.ceil(n / BLOCK);
  start = new Uint32Array(blocks * FP_BITS + 1);
  pops = new Uint16Array(n);
  let r = 0;
  for (const { offsets, bits } of pages) {
    for (let i = 0; i + 1 < offsets.length; i++, r++) {
      const base = Math.floor(r / BLOCK) * FP_BITS + 1;
      pops[r] = offsets[i + 1] - offsets[i];
      for (let k = offsets[i]; k < offsets[i + 1]; k++) start[base + bits[k]] += 1;
    }
  }
  for (let i = 0; i < blocks * FP_BITS; i++) start[i + 1] += start[i];
  const fill = start.slice(0, blocks * FP_BITS);
  rows = new Uint16Array(postings);
  r = 0;
  for (const { offsets, bits } of pages) {
    for (let i = 0; i + 1 < offsets.length; i++, r++) {
      const blockOf = Math.floor(r / BLOCK);
      const base = blockOf * FP_BITS;
      const local = r - blockOf * BLOCK;
      for (let k = offsets[i]; k < offsets[i + 1]; k++) rows[fill[base + bits[k]]++] = local;
    }
  }
  pages = [];
  counts = new Uint16Array(Math.min(BLOCK, Math.max(n, 1)));
  first = rowFrom;
  return { rows: n, postings, blocks };
}

/**
 * Rows of this part with a Tanimoto of at least `min` to each query (fingerprints of FP_BYTES,
 * back to back), as global row numbers with their Tanimoto, and where each query's rows end.
 * Tanimoto is computed as the structure index computes it (common / union, in double precision),
 * so both answer the same neighbours.
 */
function scan({ queries, min }) {
  const count = queries.length / FP_BYTES;
  const found = [];
  const sims = [];
  const ends = new Uint32Array(count);
  const queryBits = new Uint16Array(FP_BITS);
  for (let q = 0; q < count; q++) {
    let qPop = 0;
    for (let j = 0; j < FP_BYTES; j++) {
      const byte = queries[q * FP_BYTES + j];
      if (byte === 0) continue;
      for (let i = 0; i < 8; i++) if (byte & (1 << i)) queryBits[qPop++] = j * 8 + i;
    }
    if (qPop > 0) for (let block = 0; block * BLOCK < pops.length; block++) scanBlock(block, queryBits, qPop, min, found, sims);
    ends[q] = found.length;
  }
  return { rows: Uint32Array.from(found), sims: Float64Array.from(sims), ends };
}

function scanBlock(block, queryBits, qPop, min, found, sims) {
  const base = block * FP_BITS;
  for (let k = 0; k < qPop; k++) {
    const bit = base + queryBits[k];
    for (let p = start[bit], end = start[bit + 1]; p < end; p++) counts[rows[p]] += 1;
  }
  const from = block * BLOCK;
  const n = Math.min(BLOCK, pops.length - from);
  for (let r = 0; r < n; r++) {
    const common = counts[r];
    if (common === 0) continue;
    counts[r] = 0;
    const sim = common / (qPop + pops[from + r] - common);
    if (sim >= min) {
      found.push(first + from + r);
      sims.push(sim);
    }
  }
}

parentPort.on('message', (message) => {
  try {
    if (message.type === 'append') {
      parentPort.postMessage({ id: message.id, ok: true, ...append(message) });
    } else if (message.type === 'load') {
      parentPort.postMessage({ id: message.id, ok: true, ...load(message) });
    } else if (message.type === 'scan') {
      const answer = scan(message);
      parentPort.postMessage({ id: message.id, ok: true, ...answer }, [answer.rows.buffer, answer.sims.buffer, answer.ends.buffer]);
    }
  } catch (error) {
    parentPort.postMessage({ id: message.id, ok: false, error: String(error?.message ?? error) });
  }
});

// One part of the actives' fingerprint index (active-scan.ts): an inverted index, bit → the rows
// that have it, so a query touches only the rows sharing its bits. At Tanimoto 0.3 almost no row
// can be skipped by bit count or early exit, so the structure index's row-by-row scan reads every
// row; here each row costs the few query bits it shares, and one last pass over a counter array.
// Plain JavaScript on purpose: worker threads load it without tsx.
import { parentPort } from 'node:worker_threads';

const FP_BITS = 2048;
const FP_BYTES = FP_BITS / 8;

/** bit → its rows: rows[start[bit] .. start[bit + 1]] (ascending). */
let start = null;
let rows = null;
/** Bits per row (0: no fingerprint, never a neighbour). */
let pops = null;
/** Shared bits per row for the query being scanned (zeroed after each query). */
let counts = null;
/** This part's first row in the whole index. */
let first = 0;

/**
 * Builds the inverted index from the part's rows as bit lists (row r's bits are
 * bits[offsets[r] .. offsets[r + 1]]): count per bit, prefix sums, fill.
 */
function load({ offsets, bits, rowFrom }) {
  const n = offsets.length - 1;
  start = new Uint32Array(FP_BITS + 1);
  for (let k = 0; k < bits.length; k++) start[bits[k] + 1] += 1;
  for (let b = 0; b < FP_BITS; b++) start[b + 1] += start[b];
  const fill = start.slice(0, FP_BITS);
  rows = new Uint32Array(bits.length);
  pops = new Uint16Array(n);
  for (let r = 0; r < n; r++) {
    pops[r] = offsets[r + 1] - offsets[r];
    for (let k = offsets[r]; k < offsets[r + 1]; k++) rows[fill[bits[k]]++] = r;
  }
  counts = new Uint16Array(n);
  first = rowFrom;
  return { rows: n, postings: bits.length };
}

/**
 * Rows of this part with a Tanimoto of at least `min` to each query (fingerprints of FP_BYTES,
 * back to back), as global row numbers with their Tanimoto, and where each query's rows begin.
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
    if (qPop > 0) scanOne(queryBits, qPop, min, found, sims);
    ends[q] = found.length;
  }
  return { rows: Uint32Array.from(found), sims: Float64Array.from(sims), ends };
}

function scanOne(queryBits, qPop, min, found, sims) {
  for (let k = 0; k < qPop; k++) {
    const bit = queryBits[k];
    for (let p = start[bit], end = start[bit + 1]; p < end; p++) counts[rows[p]] += 1;
  }
  const n = counts.length;
  for (let r = 0; r < n; r++) {
    const common = counts[r];
    if (common === 0) continue;
    counts[r] = 0;
    const sim = common / (qPop + pops[r] - common);
    if (sim >= min) {
      found.push(first + r);
      sims.push(sim);
    }
  }
}

parentPort.on('message', (message) => {
  try {
    if (message.type === 'load') {
      parentPort.postMessage({ id: message.id, ok: true, ...load(message) });
    } else if (message.type === 'scan') {
      const answer = scan(message);
      parentPort.postMessage({ id: message.id, ok: true, ...answer }, [answer.rows.buffer, answer.sims.buffer, answer.ends.buffer]);
    }
  } catch (error) {
    parentPort.postMessage({ id: message.id, ok: false, error: String(error?.message ?? error) });
  }
});

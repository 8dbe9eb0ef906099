// One part of the actives' fingerprint index (active-scan.ts): an inverted index, bit → the rows
// that have it, so a query touches only the rows sharing its bits. At Tanimoto 0.3 almost no row
// can be skipped by bit count or early exit, so the structure index's row-by-row scan reads every
// row; here each row costs the few query bits it shares, and one last pass over a counter array.
// Plain JavaScript on purpose: worker threads load it without tsx.
import { parentPort } from 'node:worker_threads';
import { TopCollector, activeRows } from './active-tops.mjs';

const FP_BITS = 2048;
const FP_BYTES = FP_BITS / 8;

/**
 * Rows are taken in blocks of BLOCK (a row's number inside its block fits 16 bits, and a block's
 * counters stay in the processor's cache): the rows of block k listed for bit b, as numbers inside
 * the block, are rows[start[k * FP_BITS + b] .. start[k * FP_BITS + b + 1]] (ascending). A bit
 * that more than half of a block's rows have (an aromatic carbon's, say: in nearly every drug) is
 * listed by the rows that LACK it (`lacking[k * FP_BITS + b]` is 1): a query with that bit starts
 * every row of the block at one more shared bit and takes one back from the rows listed. The count
 * is the same; the lists walked are the shorter side, which halves the work of a dense set.
 */
let BLOCK = 65_536;
let start = null;
let rows = null;
let lacking = null;

/**
 * The 32 bits a block lists most rows for (an aromatic carbon's, an amide's) are not listed: each
 * row keeps them as a 32-bit mask instead (`masks`, slot i of block k is the bit whose
 * `maskSlot[k * FP_BITS + b]` is i), and a query counts them with one popcount per row in the
 * pass it makes anyway. They were two thirds of the entries a query walked (measured on 620,000
 * L structures: 5.5 M → 1.6 M a query); the count is the same, bit for bit.
 */
const MASK_BITS = 32;
const UNMASKED = 255;
let maskSlot = null;
let masks = null;

/** Bits set in a 32-bit integer. */
function popcount(x) {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}
/** Bits per row (0: no fingerprint, never a neighbour). */
let pops = null;
/** Shared bits per row of the block being scanned (set to its start at each block). */
let counts = null;
/** Each row's number in the whole index (a part holds whole parents, not a range of rows). */
let globalRows = null;
/** The rows' actives and parents for scoring (`attach`), and a collector per kept size. */
let actives = null;
let collectors = new Map();

/** The part's rows as they arrive, page by page, until `load` indexes them. */
let pages = [];

/**
 * One page of rows as fingerprints back to back (FP_BYTES each; all zero: no fingerprint), kept as
 * bit lists: row r of the page has bits[offsets[r] .. offsets[r + 1]]. Done here, not in the
 * reading thread, so the parts' workers take it in parallel while the next page is read.
 */
function append({ fps, rows: pageRows }) {
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
  pages.push({ offsets, bits: bits.slice(0, used), rows: pageRows });
  return {};
}

/** Gives the MASK_BITS bits of a block with the longest lists (either side) a mask slot each. */
function maskLongestLists(blockOf, size, having) {
  const listed = (bit) => Math.min(having[blockOf * FP_BITS + bit], size - having[blockOf * FP_BITS + bit]);
  const bits = Array.from({ length: FP_BITS }, (_, bit) => bit).sort((a, b) => listed(b) - listed(a) || a - b);
  bits.slice(0, MASK_BITS).forEach((bit, slot) => {
    if (listed(bit) > 0) maskSlot[blockOf * FP_BITS + bit] = slot;
  });
}

/**
 * Builds the inverted index from the pages received (count per block and bit, prefix sums, fill),
 * then lets them go: the rows arrive a page at a time, so neither thread ever holds every row's bit
 * list twice.
 */
function load({ block }) {
  if (block) BLOCK = block;
  const n = pages.reduce((sum, page) => sum + page.offsets.length - 1, 0);
  const postings = pages.reduce((sum, page) => sum + page.bits.length, 0);
  const blocks = Math.ceil(n / BLOCK);
  // Rows per block and bit having it, then which bits a block lists by the rows lacking them.
  const having = new Uint32Array(blocks * FP_BITS);
  pops = new Uint16Array(n);
  let r = 0;
  for (const { offsets, bits } of pages) {
    for (let i = 0; i + 1 < offsets.length; i++, r++) {
      const base = Math.floor(r / BLOCK) * FP_BITS;
      pops[r] = offsets[i + 1] - offsets[i];
      for (let k = offsets[i]; k < offsets[i + 1]; k++) having[base + bits[k]] += 1;
    }
  }
  lacking = new Uint8Array(blocks * FP_BITS);
  maskSlot = new Uint8Array(blocks * FP_BITS).fill(UNMASKED);
  const lackingBits = [];
  start = new Uint32Array(blocks * FP_BITS + 1);
  for (let blockOf = 0; blockOf < blocks; blockOf++) {
    const size = Math.min(BLOCK, n - blockOf * BLOCK);
    maskLongestLists(blockOf, size, having);
    const list = [];
    for (let bit = 0; bit < FP_BITS; bit++) {
      const at = blockOf * FP_BITS + bit;
      if (maskSlot[at] !== UNMASKED) continue;
      if (having[at] * 2 > size) {
        lacking[at] = 1;
        list.push(bit);
      }
      start[at + 1] = lacking[at] ? size - having[at] : having[at];
    }
    lackingBits.push(Uint16Array.from(list));
  }
  for (let i = 0; i < blocks * FP_BITS; i++) start[i + 1] += start[i];
  const fill = start.slice(0, blocks * FP_BITS);
  rows = new Uint16Array(start[blocks * FP_BITS]);
  masks = new Int32Array(n);
  const has = new Uint8Array(FP_BITS);
  r = 0;
  for (const { offsets, bits } of pages) {
    for (let i = 0; i + 1 < offsets.length; i++, r++) {
      const blockOf = Math.floor(r / BLOCK);
      const base = blockOf * FP_BITS;
      const local = r - blockOf * BLOCK;
      for (let k = offsets[i]; k < offsets[i + 1]; k++) {
        has[bits[k]] = 1;
        const slot = maskSlot[base + bits[k]];
        if (slot !== UNMASKED) masks[r] |= 1 << slot;
        else if (!lacking[base + bits[k]]) rows[fill[base + bits[k]]++] = local;
      }
      for (const bit of lackingBits[blockOf]) if (!has[bit]) rows[fill[base + bit]++] = local;
      for (let k = offsets[i]; k < offsets[i + 1]; k++) has[bits[k]] = 0;
    }
  }
  globalRows = new Uint32Array(n);
  let at = 0;
  for (const page of pages) {
    globalRows.set(page.rows, at);
    at += page.rows.length;
  }
  pages = [];
  counts = new Uint16Array(Math.min(BLOCK, Math.max(n, 1)));
  hitRows = new Uint32Array(Math.max(n, 1));
  hitSims = new Float64Array(Math.max(n, 1));
  return { rows: n, postings, listed: rows.length, blocks };
}

/** The neighbours of the query being scanned: local rows and their Tanimoto, `hitCount` of them. */
let hitRows = null;
let hitSims = null;
let hitCount = 0;
const queryBits = new Uint16Array(FP_BITS);

/**
 * Fills hitRows/hitSims with this part's rows at a Tanimoto of at least `min` to query `q` of
 * `queries` (fingerprints of FP_BYTES, back to back). Tanimoto is computed as the structure index
 * computes it (common / union, in double precision), so both answer the same neighbours.
 */
function scanQuery(queries, q, min) {
  let qPop = 0;
  for (let j = 0; j < FP_BYTES; j++) {
    const byte = queries[q * FP_BYTES + j];
    if (byte === 0) continue;
    for (let i = 0; i < 8; i++) if (byte & (1 << i)) queryBits[qPop++] = j * 8 + i;
  }
  hitCount = 0;
  if (qPop === 0) return;
  sharedNeeded(qPop, min);
  for (let block = 0; block * BLOCK < pops.length; block++) scanBlock(block, qPop, min);
}

/**
 * needed[pop]: the fewest shared bits at which a row of `pop` bits reaches `min` with this query,
 * found with the very division the pass makes (so no row is judged otherwise); the pass divides
 * only for the rows that reach it.
 */
const needed = new Uint16Array(FP_BITS + 1);
function sharedNeeded(qPop, min) {
  for (let pop = 0; pop <= FP_BITS; pop++) {
    let common = Math.max(1, Math.floor((min * (qPop + pop)) / (1 + min)) - 1);
    while (common <= Math.min(qPop, pop) && common / (qPop + pop - common) < min) common++;
    needed[pop] = common;
  }
}

function scanBlock(block, qPop, min) {
  const base = block * FP_BITS;
  const from = block * BLOCK;
  const n = Math.min(BLOCK, pops.length - from);
  let lacked = 0;
  let qMask = 0;
  for (let k = 0; k < qPop; k++) {
    const slot = maskSlot[base + queryBits[k]];
    if (slot === UNMASKED) lacked += lacking[base + queryBits[k]];
    else qMask |= 1 << slot;
  }
  // Every row starts at the bits it shares by lacking them; the pass below only reads the counters.
  counts.fill(lacked, 0, n);
  for (let k = 0; k < qPop; k++) {
    const bit = base + queryBits[k];
    if (lacking[bit]) for (let p = start[bit], end = start[bit + 1]; p < end; p++) counts[rows[p]] -= 1;
    else for (let p = start[bit], end = start[bit + 1]; p < end; p++) counts[rows[p]] += 1;
  }
  for (let r = 0; r < n; r++) {
    let common = counts[r];
    if (qMask !== 0) common += popcount(masks[from + r] & qMask);
    if (common === 0) continue;
    const pop = pops[from + r];
    if (common < needed[pop]) continue;
    const sim = common / (qPop + pop - common);
    if (sim >= min) {
      hitRows[hitCount] = from + r;
      hitSims[hitCount++] = sim;
    }
  }
}

/** Every neighbour of each query, as global row numbers with their Tanimoto, and where each query's rows end. */
function scan({ queries, min }) {
  const count = queries.length / FP_BYTES;
  const found = [];
  const sims = [];
  const ends = new Uint32Array(count);
  for (let q = 0; q < count; q++) {
    scanQuery(queries, q, min);
    for (let k = 0; k < hitCount; k++) {
      found.push(globalRows[hitRows[k]]);
      sims.push(hitSims[k]);
    }
    ends[q] = found.length;
  }
  return { rows: Uint32Array.from(found), sims: Float64Array.from(sims), ends };
}

/** The rows' structures, parents and active pairs, in this part's row order (active-scan.ts attach). */
function attach(message) {
  actives = activeRows(message);
  collectors = new Map();
  excludedRow = null;
  return {};
}

/** Rows a query must not count (score), 1 while it is scored. */
let excludedRow = null;

/** The row of a structure in this part (its rows are in ascending str_id), or -1. */
function rowOfStructure(strIds, strId) {
  let lo = 0;
  let hi = strIds.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (strIds[mid] === strId) return mid;
    if (strIds[mid] < strId) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/**
 * Each query's tops (active-tops.mjs) instead of its neighbours: the query's own structure
 * (`excludeIds`, with any others it must not count, such as its documents' series) and the forms
 * of its parent (`excludeParents`, NaN: none) never count.
 */
function score({ queries, min, threshold, keep, nearest, excludeParents, excludeEnds, excludeIds }) {
  if (!actives) throw new Error('the actives were not attached');
  const key = `${keep}|${nearest}|${threshold}`;
  let collector = collectors.get(key);
  if (!collector) collectors.set(key, (collector = new TopCollector(actives, keep, nearest, threshold)));
  const out = {
    target: [],
    hits: [],
    evEnd: [],
    evSim: [],
    evNm: [],
    evStr: [],
    evParent: [],
    targetEnd: [],
    nearSim: [],
    nearStr: [],
    nearParent: [],
    nearEnd: [],
  };
  const { strIds, parents, pairStart } = actives;
  excludedRow ??= new Uint8Array(strIds.length);
  const count = queries.length / FP_BYTES;
  for (let q = 0; q < count; q++) {
    scanQuery(queries, q, min);
    const parent = excludeParents[q];
    // The query's excluded structures as this part's rows, marked for the pass and cleared after it.
    const marked = [];
    for (let k = q === 0 ? 0 : excludeEnds[q - 1]; k < excludeEnds[q]; k++) {
      const r = rowOfStructure(strIds, excludeIds[k]);
      if (r >= 0 && excludedRow[r] === 0) {
        excludedRow[r] = 1;
        marked.push(r);
      }
    }
    for (let k = 0; k < hitCount; k++) {
      const r = hitRows[k];
      if (pairStart[r + 1] === pairStart[r] || parents[r] === parent || excludedRow[r] === 1) continue;
      collector.offer(r, hitSims[k]);
    }
    for (const r of marked) excludedRow[r] = 0;
    collector.finish(out);
  }
  return {
    tops: {
      target: Uint32Array.from(out.target),
      hits: Uint32Array.from(out.hits),
      evEnd: Uint32Array.from(out.evEnd),
      evSim: Float64Array.from(out.evSim),
      evNm: Float64Array.from(out.evNm),
      evStr: Float64Array.from(out.evStr),
      evParent: Float64Array.from(out.evParent),
      targetEnd: Uint32Array.from(out.targetEnd),
      nearSim: Float64Array.from(out.nearSim),
      nearStr: Float64Array.from(out.nearStr),
      nearParent: Float64Array.from(out.nearParent),
      nearEnd: Uint32Array.from(out.nearEnd),
    },
  };
}

parentPort.on('message', (message) => {
  try {
    if (message.type === 'append') {
      parentPort.postMessage({ id: message.id, ok: true, ...append(message) });
    } else if (message.type === 'load') {
      parentPort.postMessage({ id: message.id, ok: true, ...load(message) });
    } else if (message.type === 'attach') {
      parentPort.postMessage({ id: message.id, ok: true, ...attach(message) });
    } else if (message.type === 'score') {
      const answer = score(message);
      parentPort.postMessage(
        { id: message.id, ok: true, ...answer },
        Object.values(answer.tops).map((array) => array.buffer),
      );
    } else if (message.type === 'scan') {
      const answer = scan(message);
      parentPort.postMessage({ id: message.id, ok: true, ...answer }, [answer.rows.buffer, answer.sims.buffer, answer.ends.buffer]);
    }
  } catch (error) {
    parentPort.postMessage({ id: message.id, ok: false, error: String(error?.message ?? error) });
  }
});

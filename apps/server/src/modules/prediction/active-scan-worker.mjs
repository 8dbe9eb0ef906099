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
/** Bits per index row (0: no fingerprint, never a neighbour), ascending. */
let pops = null;
/** Shared bits per row of the block being scanned (set to its start at each block). */
let counts = null;
/** Each row's number in the whole index (a part holds whole parents, not a range of rows). */
let globalRows = null;
/** The arrival row of each index row (the index orders rows by bit count). */
let arrival = null;
/** Per block, where its runs of one bit count end (`bitCountRuns`). */
let runEnds = null;
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
 * list twice. The index keeps the rows ordered by bit count (`arrival` maps back): a block's rows
 * then come in runs of one count, each judged against one bar (scanBlock), and a block's lists
 * are those of alike rows.
 */
function load({ block }) {
  if (block) BLOCK = block;
  const rowsOf = arrivedRows();
  const n = rowsOf.pop.length;
  const postings = pages.reduce((sum, page) => sum + page.bits.length, 0);
  const blocks = Math.ceil(n / BLOCK);
  arrival = byBitCount(rowsOf.pop);
  pops = new Uint16Array(n);
  for (let r = 0; r < n; r++) pops[r] = rowsOf.pop[arrival[r]];
  runEnds = bitCountRuns(blocks);
  // Rows per block and bit having it, then which bits a block lists by the rows lacking them.
  const having = new Uint32Array(blocks * FP_BITS);
  for (let r = 0; r < n; r++) {
    const base = Math.floor(r / BLOCK) * FP_BITS;
    rowsOf.each(arrival[r], (bit) => (having[base + bit] += 1));
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
  for (let r = 0; r < n; r++) {
    const blockOf = Math.floor(r / BLOCK);
    const base = blockOf * FP_BITS;
    const local = r - blockOf * BLOCK;
    rowsOf.each(arrival[r], (bit) => {
      has[bit] = 1;
      const slot = maskSlot[base + bit];
      if (slot !== UNMASKED) masks[r] |= 1 << slot;
      else if (!lacking[base + bit]) rows[fill[base + bit]++] = local;
    });
    for (const bit of lackingBits[blockOf]) if (!has[bit]) rows[fill[base + bit]++] = local;
    rowsOf.each(arrival[r], (bit) => (has[bit] = 0));
  }
  const arrivedGlobal = new Uint32Array(n);
  let at = 0;
  for (const page of pages) {
    arrivedGlobal.set(page.rows, at);
    at += page.rows.length;
  }
  globalRows = Uint32Array.from(arrival, (a) => arrivedGlobal[a]);
  pages = [];
  counts = new Uint16Array(Math.min(BLOCK, Math.max(n, 1)));
  laneCounts = new Uint32Array(counts.length);
  laneRows = Array.from({ length: LANES }, () => new Uint32Array(1024));
  laneSims = Array.from({ length: LANES }, () => new Float64Array(1024));
  hitRows = new Uint32Array(Math.max(n, 1));
  hitSims = new Float64Array(Math.max(n, 1));
  return { rows: n, postings, listed: rows.length, blocks };
}

/** The received pages' rows in arrival order: each row's bit count, and its bits one by one. */
function arrivedRows() {
  const n = pages.reduce((sum, page) => sum + page.offsets.length - 1, 0);
  const pageOf = new Uint32Array(n);
  const indexIn = new Uint32Array(n);
  const pop = new Uint16Array(n);
  let r = 0;
  pages.forEach(({ offsets }, p) => {
    for (let i = 0; i + 1 < offsets.length; i++, r++) {
      pageOf[r] = p;
      indexIn[r] = i;
      pop[r] = offsets[i + 1] - offsets[i];
    }
  });
  const each = (row, visit) => {
    const { offsets, bits } = pages[pageOf[row]];
    for (let k = offsets[indexIn[row]], end = offsets[indexIn[row] + 1]; k < end; k++) visit(bits[k]);
  };
  return { pop, each };
}

/** Arrival rows ordered by bit count, ties in arrival order (a counting sort). */
function byBitCount(pop) {
  const first = new Uint32Array(FP_BITS + 2);
  for (const count of pop) first[count + 1] += 1;
  for (let count = 0; count <= FP_BITS; count++) first[count + 1] += first[count];
  const order = new Uint32Array(pop.length);
  for (let r = 0; r < pop.length; r++) order[first[pop[r]]++] = r;
  return order;
}

/** Where each run of one bit count ends inside each block (rows in a block's own numbering). */
function bitCountRuns(blocks) {
  const ends = [];
  for (let blockOf = 0; blockOf < blocks; blockOf++) {
    const from = blockOf * BLOCK;
    const size = Math.min(BLOCK, pops.length - from);
    const list = [];
    for (let r = 1; r <= size; r++) if (r === size || pops[from + r] !== pops[from + r - 1]) list.push(r);
    ends.push(Uint32Array.from(list));
  }
  return ends;
}

/** The neighbours of the query being scanned: rows and their Tanimoto, `hitCount` of them (ascending rows). */
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
  const qPop = bitsOf(queries, q, queryBits);
  hitCount = 0;
  if (qPop === 0) return;
  sharedNeeded(qPop, min, needed);
  for (let block = 0; block * BLOCK < pops.length; block++) scanBlock(block, qPop, min);
}

/** The bits of query `q` of `queries` into `into`, ascending; answers how many. */
function bitsOf(queries, q, into) {
  let count = 0;
  for (let j = 0; j < FP_BYTES; j++) {
    const byte = queries[q * FP_BYTES + j];
    if (byte === 0) continue;
    for (let i = 0; i < 8; i++) if (byte & (1 << i)) into[count++] = j * 8 + i;
  }
  return count;
}

/**
 * needed[pop]: the fewest shared bits at which a row of `pop` bits reaches `min` with this query,
 * found with the very division the pass makes (so no row is judged otherwise); the pass divides
 * only for the rows that reach it.
 */
const needed = new Uint16Array(FP_BITS + 1);
function sharedNeeded(qPop, min, table) {
  for (let pop = 0; pop <= FP_BITS; pop++) {
    let common = Math.max(1, Math.floor((min * (qPop + pop)) / (1 + min)) - 1);
    while (common <= Math.min(qPop, pop) && common / (qPop + pop - common) < min) common++;
    table[pop] = common;
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
  // The arrays in locals: the loops below are the hot path of every prediction.
  const counter = counts;
  const listed = rows;
  // Every row starts at the bits it shares by lacking them; the pass below only reads the counters.
  counter.fill(lacked, 0, n);
  for (let k = 0; k < qPop; k++) {
    const bit = base + queryBits[k];
    const end = start[bit + 1];
    if (lacking[bit]) for (let p = start[bit]; p < end; p++) counter[listed[p]] -= 1;
    else for (let p = start[bit]; p < end; p++) counter[listed[p]] += 1;
  }
  const rowMasks = masks;
  const maskedBits = popcount(qMask);
  const ends = runEnds[block];
  let found = hitCount;
  let r = 0;
  for (let run = 0; run < ends.length; run++) {
    const end = ends[run];
    const pop = pops[from + r];
    const need = needed[pop];
    // The masked bits add at most the query's own: most rows fall short without counting them.
    const bar = need - maskedBits;
    for (; r < end; r++) {
      let common = counter[r];
      if (common < bar) continue;
      common += popcount(rowMasks[from + r] & qMask);
      if (common < need) continue;
      const sim = common / (qPop + pop - common);
      if (sim >= min) {
        hitRows[found] = from + r;
        hitSims[found++] = sim;
      }
    }
  }
  hitCount = found;
}

/**
 * Four queries of a batch scanned at once ("lanes"): each row's counter holds four 8-bit counts,
 * one per query, so a bit that several of the four have is walked once for all of them (a batch
 * of analogues shares most of its bits), and the last pass reads each row once for four. A lane
 * never counts above its query's bits (≤ LANE_MAX_BITS) nor below 0, so lanes never carry into
 * each other and each byte's top bit is free: the pass tests all four lanes against their bars in
 * one subtraction. A query of more bits, or none, is scanned alone (`scanQuery`). The neighbours
 * and their Tanimoto are the same as `scanQuery`'s, in the same order (active-scan.api.test.ts).
 */
const LANES = 4;
const LANE_MAX_BITS = 127;
const laneNeeded = Array.from({ length: LANES }, () => new Uint16Array(FP_BITS + 1));
const laneBits = Array.from({ length: LANES }, () => new Uint16Array(FP_BITS));
const lanePop = new Int32Array(LANES);
const laneMask = new Int32Array(LANES);
const laneMasked = new Int32Array(LANES);
/** Per bit of the four queries: one in each byte of the lanes that have it (0: none has it). */
const laneAdd = new Uint32Array(FP_BITS);
const unionBits = new Uint16Array(FP_BITS);
let laneCounts = null;
let laneRows = [];
let laneSims = [];
const laneFound = new Int32Array(LANES);

/** Scans queries first … first + lanes − 1 and hands each one's neighbours (rows, Tanimoto, count) to `visit`, in order. */
function scanLanes(queries, first, lanes, min, visit) {
  let alone = lanes === 1;
  for (let l = 0; l < lanes; l++) {
    lanePop[l] = bitsOf(queries, first + l, laneBits[l]);
    if (lanePop[l] === 0 || lanePop[l] > LANE_MAX_BITS) alone = true;
  }
  if (alone) {
    for (let l = 0; l < lanes; l++) {
      scanQuery(queries, first + l, min);
      visit(l, hitRows, hitSims, hitCount);
    }
    return;
  }
  let unionCount = 0;
  for (let l = 0; l < lanes; l++) {
    sharedNeeded(lanePop[l], min, laneNeeded[l]);
    laneFound[l] = 0;
    for (let k = 0; k < lanePop[l]; k++) {
      const bit = laneBits[l][k];
      if (laneAdd[bit] === 0) unionBits[unionCount++] = bit;
      laneAdd[bit] += 2 ** (8 * l);
    }
  }
  for (let block = 0; block * BLOCK < pops.length; block++) scanLaneBlock(block, lanes, unionCount, min);
  for (let k = 0; k < unionCount; k++) laneAdd[unionBits[k]] = 0;
  for (let l = 0; l < lanes; l++) visit(l, laneRows[l], laneSims[l], laneFound[l]);
}

function scanLaneBlock(block, lanes, unionCount, min) {
  const base = block * FP_BITS;
  const from = block * BLOCK;
  const n = Math.min(BLOCK, pops.length - from);
  let lacked = 0;
  laneMask.fill(0);
  for (let k = 0; k < unionCount; k++) {
    const bit = unionBits[k];
    const slot = maskSlot[base + bit];
    if (slot === UNMASKED) lacked += lacking[base + bit] * laneAdd[bit];
    else for (let l = 0; l < lanes; l++) if ((laneAdd[bit] >>> (8 * l)) & 0xff) laneMask[l] |= 1 << slot;
  }
  for (let l = 0; l < LANES; l++) laneMasked[l] = l < lanes ? popcount(laneMask[l]) : 0;
  const counter = laneCounts;
  const listed = rows;
  counter.fill(lacked, 0, n);
  for (let k = 0; k < unionCount; k++) {
    const bit = base + unionBits[k];
    const add = laneAdd[unionBits[k]];
    const end = start[bit + 1];
    if (lacking[bit]) for (let p = start[bit]; p < end; p++) counter[listed[p]] -= add;
    else for (let p = start[bit]; p < end; p++) counter[listed[p]] += add;
  }
  const ends = runEnds[block];
  let r = 0;
  for (let run = 0; run < ends.length; run++) {
    const end = ends[run];
    const pop = pops[from + r];
    // Each lane's bar (as scanBlock's), at most 127; a lane without a query never passes.
    let bars = 0;
    for (let l = 0; l < LANES; l++) {
      const bar = l < lanes ? Math.min(LANE_MAX_BITS, Math.max(0, laneNeeded[l][pop] - laneMasked[l])) : LANE_MAX_BITS;
      bars += bar * 2 ** (8 * l);
    }
    for (; r < end; r++) {
      const c = counter[r];
      // Top bit of a lane's byte set: that lane's count is at its bar or above.
      const passed = ((c | 0x80808080) - bars) & 0x80808080;
      if (passed === 0) continue;
      for (let l = 0; l < lanes; l++) {
        if ((passed & (0x80 << (8 * l))) === 0) continue;
        const common = ((c >>> (8 * l)) & 0xff) + popcount(masks[from + r] & laneMask[l]);
        if (common < laneNeeded[l][pop]) continue;
        const sim = common / (lanePop[l] + pop - common);
        if (sim >= min) laneHit(l, from + r, sim);
      }
    }
  }
}

function laneHit(l, row, sim) {
  const at = laneFound[l];
  if (at === laneRows[l].length) {
    const grownRows = new Uint32Array(at * 2);
    grownRows.set(laneRows[l]);
    laneRows[l] = grownRows;
    const grownSims = new Float64Array(at * 2);
    grownSims.set(laneSims[l]);
    laneSims[l] = grownSims;
  }
  laneRows[l][at] = row;
  laneSims[l][at] = sim;
  laneFound[l] = at + 1;
}

/** Every neighbour of each query, as global row numbers with their Tanimoto, and where each query's rows end. */
function scan({ queries, min }) {
  const count = queries.length / FP_BYTES;
  const found = [];
  const sims = [];
  const ends = new Uint32Array(count);
  for (let q = 0; q < count; q += LANES) {
    scanLanes(queries, q, Math.min(LANES, count - q), min, (l, rowsFound, simsFound, n) => {
      for (let k = 0; k < n; k++) {
        found.push(globalRows[rowsFound[k]]);
        sims.push(simsFound[k]);
      }
      ends[q + l] = found.length;
    });
  }
  return { rows: Uint32Array.from(found), sims: Float64Array.from(sims), ends };
}

/**
 * The rows' structures, parents and active pairs (active-scan.ts attach, in the order the rows
 * arrived), kept in the index's order: a query's neighbours come in ascending rows, so scoring
 * them reads these arrays front to back instead of jumping about.
 */
function attach(message) {
  if (!arrival) throw new Error('the index is not loaded');
  arrivedStrIds = message.strIds;
  indexOfArrival = new Uint32Array(arrival.length);
  for (let r = 0; r < arrival.length; r++) indexOfArrival[arrival[r]] = r;
  actives = activeRows(inIndexOrder(message));
  collectors = new Map();
  excludedRow = null;
  return {};
}

/** Structures of the rows in arrival order (ascending str_id) and each arrival row's row: how exclusions find their rows. */
let arrivedStrIds = null;
let indexOfArrival = null;

function inIndexOrder({ strIds, parents, pairStart, pairTarget, pairNm, targetCount }) {
  const n = arrival.length;
  const ordered = { strIds: new Float64Array(n), parents: new Float64Array(n), pairStart: new Uint32Array(n + 1), targetCount };
  for (let r = 0; r < n; r++) {
    const a = arrival[r];
    ordered.strIds[r] = strIds[a];
    ordered.parents[r] = parents[a];
    ordered.pairStart[r + 1] = ordered.pairStart[r] + pairStart[a + 1] - pairStart[a];
  }
  ordered.pairTarget = new Uint32Array(ordered.pairStart[n]);
  ordered.pairNm = new Float64Array(ordered.pairStart[n]);
  for (let r = 0; r < n; r++) {
    const a = arrival[r];
    ordered.pairTarget.set(pairTarget.subarray(pairStart[a], pairStart[a + 1]), ordered.pairStart[r]);
    ordered.pairNm.set(pairNm.subarray(pairStart[a], pairStart[a + 1]), ordered.pairStart[r]);
  }
  return ordered;
}

/** Rows a query must not count (score), 1 while it is scored. */
let excludedRow = null;

/** The arrival row of a structure in this part (they arrive in ascending str_id), or -1. */
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
  excludedRow ??= new Uint8Array(actives.strIds.length);
  const count = queries.length / FP_BYTES;
  const visit = (q, rowsFound, simsFound, n) => {
    const parent = excludeParents[q];
    // The query's excluded structures as this part's rows, marked for the pass and cleared after it.
    const marked = [];
    for (let k = q === 0 ? 0 : excludeEnds[q - 1]; k < excludeEnds[q]; k++) {
      const a = rowOfStructure(arrivedStrIds, excludeIds[k]);
      const r = a < 0 ? -1 : indexOfArrival[a];
      if (r >= 0 && excludedRow[r] === 0) {
        excludedRow[r] = 1;
        marked.push(r);
      }
    }
    collector.offerAll(rowsFound, simsFound, n, parent, excludedRow);
    for (const r of marked) excludedRow[r] = 0;
    collector.finish(out);
  };
  for (let q = 0; q < count; q += LANES) scanLanes(queries, q, Math.min(LANES, count - q), min, (l, ...found) => visit(q + l, ...found));
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

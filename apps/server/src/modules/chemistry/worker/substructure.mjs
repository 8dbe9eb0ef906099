// Substructure search steps: the screen's candidates, decided in JavaScript where RDKit's rules allow
// (smiles-graph.mjs, substructure-match.mjs, smarts-outline.mjs), the rest matched by RDKit.
import { knownKeyOf, knownStep, remember, sureRows, useKey } from './known-answers.mjs';
import { queryMol } from './query.mjs';
import { RD } from './runtime.mjs';
import { candidateRowsOut, graph, matcher, scratch, screenAcc, withinRows } from './scratch.mjs';
import { bitsOf } from '../bit-slices.mjs';
import { lowerBound } from '../similarity-slices.mjs';
import { smartsOutlineOf } from '../smarts-outline.mjs';
import { withRingPerception } from '../smarts-rings.mjs';
import { moleculeQueryOf } from '../substructure-match.mjs';
import { rowsOf, screenRows } from '../substructure-screen.mjs';

/**
 * One shard of a substructure search: the screen's candidates, each decided here where RDKit's
 * rules allow, the rest matched by RDKit. Hits in row order. With a limit (a first page), the
 * rows are read until enough hits are decided here, and RDKit matches only the undecided rows met
 * so far: the hits are true hits, not necessarily the shard's first rows.
 */
export function substructureStep(job, shard) {
  scratch(shard);
  const within = job.candidates ? candidateMask(job, shard) : null;
  if (within === false) return noHits();
  const known = job.key ? shard.known?.get(job.key) : undefined;
  if (known) {
    useKey(job.key);
    return knownStep(job, shard, known, within);
  }
  if (!screenRows(shard.screen, job.screenBits, screenAcc, within)) {
    // No candidate: the shard's whole answer is empty (kept too, or a fragment would be warmed forever).
    if (job.key && job.limit === 0 && !within) remember(job.key, shard, []);
    return noHits();
  }
  const n = rowsOf(screenAcc, shard.screen.words, candidateRowsOut);
  const wanted = job.limit > 0 ? Math.max(1, job.limit - job.found) : Infinity;
  const sure = sureRows(job, shard);
  const hits = [];
  const toRdkit = [];
  const { smilesBytes, smilesAt } = shard;
  const query = job.jsQuery;
  for (let i = 0; i < n && hits.length < wanted; i++) {
    const row = candidateRowsOut[i];
    if (sure && (sure[row >> 5] >>> (row & 31)) & 1) hits.push(row);
    else if (query && graph.read(smilesBytes, smilesAt[row], smilesAt[row + 1])) {
      // True or false: RDKit's answer; null (a SMARTS that may match): RDKit's to give.
      const answer = matcher.decide(query, graph);
      if (answer === true) hits.push(row);
      else if (answer === null) toRdkit.push(row);
    } else toRdkit.push(row);
  }
  if (toRdkit.length > 0 && hits.length < wanted) {
    for (const row of verifyWithRdkit(job, shard, toRdkit, Math.min(wanted - hits.length, toRdkit.length))) hits.push(row);
    hits.sort((a, b) => a - b);
  }
  // Every candidate decided, none left out: this is the shard's whole answer to the query.
  if (job.key && wanted === Infinity && !within) remember(job.key, shard, hits);
  const ids = Float64Array.from(hits, (row) => shard.ids[row]);
  job.found += ids.length;
  return { ids, candidates: n, byRdkit: toRdkit.length };
}

function noHits() {
  return { ids: new Float64Array(0), candidates: 0, byRdkit: 0 };
}

/**
 * What the worker matches itself: a SMILES query exactly (substructure-match.mjs), else the outline
 * of the SMARTS RDKit reads (smarts-outline.mjs: decides where certain, rules candidates out, RDKit
 * matches the rest); a SMILES query left to RDKit (a radical, a dummy) is outlined from RDKit's
 * SMARTS of it, only to rule structures out. Molfiles
 * may hold query features RDKit's SMARTS cannot write exactly: RDKit matches every candidate.
 */
function jsQueryOf(query, mol) {
  if (query.kind === 'smarts') return smartsOutlineOf(query.text);
  if (query.kind !== 'smiles') return null;
  // RDKit's SMARTS of a molecule leaves out radicals: its outline may only rule structures out.
  return moleculeQueryOf(mol.get_smiles(), mol.get_json(), graph) ?? smartsOutlineOf(mol.get_smarts(), false);
}

/**
 * The pickle of a 1-bit ExplicitBitVect with its bit set. The rows given to RDKit have passed the
 * screen already: a library with 1-bit pattern fingerprints lets every one through to RDKit's own
 * match, and adding a row costs no parse (add_trusted_smiles would parse it twice).
 */
const PASS_ALL_PICKLE = (() => {
  const bytes = new Uint8Array(14);
  const view = new DataView(bytes.buffer);
  view.setInt32(0, -32, true);
  view.setUint32(4, 1, true);
  view.setUint32(8, 1, true);
  return bytes;
})();

/** The rows among `rows` that RDKit's SubstructLibrary matches (its trusted-SMILES reading), at most `max`. */
function verifyWithRdkit(job, shard, rows, max) {
  const lib = new RD.SubstructLibrary(1);
  try {
    const entries = [];
    for (const row of rows) {
      const index = lib.add_trusted_smiles_and_pattern_fp(
        shard.smilesBytes.subarray(shard.smilesAt[row], shard.smilesAt[row + 1]),
        PASS_ALL_PICKLE,
      );
      if (index >= 0) entries[index] = row;
    }
    const matches = lib.get_matches_as_uint32array(job.qmol, false, 1, max);
    return Array.from(matches, (index) => entries[index]);
  } finally {
    lib.delete();
  }
}

/**
 * A shard's rows are in fingerprint bit-count order (the similarity windows), not str_id order:
 * its rows by id, made once when a candidate search first needs them.
 */
function idOrder(shard) {
  if (!shard.sortedIds) {
    const rows = Array.from({ length: shard.count }, (_, row) => row).sort((a, b) => shard.ids[a] - shard.ids[b]);
    shard.sortedIds = Float64Array.from(rows, (row) => shard.ids[row]);
    shard.sortedRows = Int32Array.from(rows);
  }
  return shard;
}

/** The shard's rows among a search's candidates as a bit array (false: none). */
function candidateMask(job, shard) {
  const { candidates } = job;
  if (shard.count === 0) return false;
  const { sortedIds, sortedRows } = idOrder(shard);
  withinRows.fill(0, 0, shard.screen.words);
  let c = lowerBound(candidates, sortedIds[0], 0, candidates.length);
  const end = lowerBound(candidates, sortedIds[shard.count - 1] + 1, c, candidates.length);
  let at = 0;
  let any = false;
  for (; c < end; c++) {
    at = lowerBound(sortedIds, candidates[c], at, shard.count);
    if (at < shard.count && sortedIds[at] === candidates[c]) {
      const row = sortedRows[at];
      withinRows[row >> 5] |= 1 << (row & 31);
      any = true;
    }
  }
  return any ? withinRows : false;
}

/**
 * What a substructure step needs of a query: RDKit's query molecule, its screen bits, what is
 * matched here (jsQueryOf) and the key of its kept answers; or { error }. Matched as written,
 * except that rings are perceived whenever a recursive SMARTS needs them (smarts-rings.mjs).
 */
export function substructureQuery(given, maxAtoms) {
  const query = given.kind === 'smarts' ? { ...given, text: withRingPerception(given.text) } : given;
  const built = queryMol(query, maxAtoms);
  if (built.error) return { error: built.error };
  const jsQuery = jsQueryOf(query, built.mol);
  return {
    qmol: built.mol,
    screenBits: bitsOf(new Uint8Array(built.mol.get_pattern_fp_as_uint8array())),
    jsQuery,
    key: knownKeyOf(query, built.mol, jsQuery),
  };
}

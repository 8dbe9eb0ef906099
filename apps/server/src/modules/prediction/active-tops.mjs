// The similarity ensemble's evidence, gathered where the neighbours are found (active-scan-worker.mjs;
// docs/prediction.md "Speed"): per query, each target's nearest actives — one per parent, the best
// form of each — with the number of its parents at or above the ensemble's threshold, and the
// nearest actives overall. The scan worker hands over these few dozen entries instead of every
// neighbour; similarity-ensemble.ts's topsOfNeighbours is the same rule written plainly, and
// active-scan.api.test.ts holds the two equal. Plain JavaScript: worker threads load it without tsx.

/**
 * One part's actives as the scoring reads them, per local row: its structure, parent, and active
 * pairs (target, best potency in nM). Forms of one parent are always in the same part
 * (active-scan.ts), so a part counts its parents without asking the others; `groupOf` links the
 * rows of a parent with more than one form here (-1: the parent's only form).
 */
export function activeRows({ strIds, parents, pairStart, pairTarget, pairNm, targetCount }) {
  const n = strIds.length;
  const groupOf = new Int32Array(n).fill(-1);
  const firstOf = new Map();
  const members = [];
  for (let r = 0; r < n; r++) {
    if (pairStart[r + 1] === pairStart[r]) continue;
    const parent = parents[r];
    const seen = firstOf.get(parent);
    if (seen === undefined) {
      firstOf.set(parent, r);
      continue;
    }
    let group = groupOf[seen];
    if (group < 0) {
      group = members.length;
      members.push([seen]);
      groupOf[seen] = group;
    }
    members[group].push(r);
    groupOf[r] = group;
  }
  return { strIds, parents, pairStart, pairTarget, pairNm, targetCount, groupOf, members };
}

/**
 * Reusable per-query accumulators for `rows` (a part's activeRows): keep `keep` entries per
 * target and `nearestMax` overall. `offer` per neighbour row, then `finish` per query.
 */
export class TopCollector {
  constructor(rows, keep, nearestMax, threshold) {
    this.rows = rows;
    this.keep = keep;
    this.threshold = threshold;
    const slots = rows.targetCount * keep;
    this.sim = new Float64Array(slots);
    this.nm = new Float64Array(slots);
    this.str = new Float64Array(slots);
    this.parent = new Float64Array(slots);
    this.count = new Uint8Array(rows.targetCount);
    this.hits = new Uint32Array(rows.targetCount);
    this.touched = [];
    this.nearestMax = nearestMax;
    this.nearSim = new Float64Array(nearestMax);
    this.nearStr = new Float64Array(nearestMax);
    this.nearParent = new Float64Array(nearestMax);
    this.nearCount = 0;
    /** Similarity of a grouped row found by this query (0: not found), read when its group is settled. */
    this.rowSim = new Float64Array(rows.strIds.length);
    this.groupSeen = new Uint8Array(rows.members.length);
    this.groups = [];
  }

  /**
   * A query's neighbours (`rows`/`sims`, the first `count`) less those that may not count: rows of
   * the query's `parent`, rows marked in `excluded`, rows active on nothing. The hot loop of every
   * prediction at ChEMBL size (tens of thousands of neighbours a query): the arrays are held in
   * locals, and an entry that cannot enter a full list or the nearest is dropped before any call.
   */
  offerAll(rows, sims, count, parent, excluded) {
    const { pairStart, pairTarget, pairNm, strIds, parents, groupOf } = this.rows;
    const { threshold, keep, hits, count: kept, sim: keptSim, nearestMax, nearSim } = this;
    for (let k = 0; k < count; k++) {
      const r = rows[k];
      const from = pairStart[r];
      const to = pairStart[r + 1];
      if (from === to || parents[r] === parent || excluded[r] === 1) continue;
      const sim = sims[k];
      if (groupOf[r] >= 0) {
        this.offer(r, sim);
        continue;
      }
      for (let p = from; p < to; p++) {
        const target = pairTarget[p];
        if (sim >= threshold) hits[target] += 1;
        // A full list whose last entry is more similar keeps it (ties go on to the full order).
        if (kept[target] === keep && sim < keptSim[target * keep + keep - 1]) continue;
        this.place(target, sim, pairNm[p], strIds[r], parents[r]);
      }
      if (this.nearCount === nearestMax && (nearestMax === 0 || sim < nearSim[nearestMax - 1])) continue;
      this.near(sim, strIds[r], parents[r]);
    }
  }

  /** A neighbour row that may count (exclusions already applied). */
  offer(r, sim) {
    const group = this.rows.groupOf[r];
    if (group < 0) {
      const { pairStart, pairTarget, pairNm, strIds, parents } = this.rows;
      for (let k = pairStart[r]; k < pairStart[r + 1]; k++) this.entry(pairTarget[k], sim, pairNm[k], strIds[r], parents[r]);
      this.near(sim, strIds[r], parents[r]);
      return;
    }
    this.rowSim[r] = sim;
    if (this.groupSeen[group] === 0) {
      this.groupSeen[group] = 1;
      this.groups.push(group);
    }
  }

  /** Settles the grouped rows: per target the best form of each parent, and the parent's nearest form. */
  settleGroups() {
    const { pairStart, pairTarget, pairNm, strIds, parents, members } = this.rows;
    for (const group of this.groups) {
      const best = new Map();
      let nearRow = -1;
      let nearSim = 0;
      for (const r of members[group]) {
        const sim = this.rowSim[r];
        if (sim === 0) continue;
        this.rowSim[r] = 0;
        if (nearRow < 0 || nearer(sim, strIds[r], nearSim, strIds[nearRow])) {
          nearRow = r;
          nearSim = sim;
        }
        for (let k = pairStart[r]; k < pairStart[r + 1]; k++) {
          const known = best.get(pairTarget[k]);
          if (!known || better(sim, pairNm[k], strIds[r], known.sim, known.nm, known.str))
            best.set(pairTarget[k], { sim, nm: pairNm[k], str: strIds[r] });
        }
      }
      const parent = parents[members[group][0]];
      for (const [target, entry] of best) this.entry(target, entry.sim, entry.nm, entry.str, parent);
      if (nearRow >= 0) this.near(nearSim, strIds[nearRow], parent);
      this.groupSeen[group] = 0;
    }
    this.groups.length = 0;
  }

  entry(target, sim, nm, str, parent) {
    if (sim >= this.threshold) this.hits[target] += 1;
    this.place(target, sim, nm, str, parent);
  }

  /** Puts an entry in its target's list, in order, if it is among the `keep` best. */
  place(target, sim, nm, str, parent) {
    const keep = this.keep;
    const base = target * keep;
    const count = this.count[target];
    if (count === 0) this.touched.push(target);
    if (count === keep && !better(sim, nm, str, this.sim[base + keep - 1], this.nm[base + keep - 1], this.str[base + keep - 1])) return;
    let at = count < keep ? count : keep - 1;
    while (at > 0 && better(sim, nm, str, this.sim[base + at - 1], this.nm[base + at - 1], this.str[base + at - 1])) {
      this.sim[base + at] = this.sim[base + at - 1];
      this.nm[base + at] = this.nm[base + at - 1];
      this.str[base + at] = this.str[base + at - 1];
      this.parent[base + at] = this.parent[base + at - 1];
      at -= 1;
    }
    this.sim[base + at] = sim;
    this.nm[base + at] = nm;
    this.str[base + at] = str;
    this.parent[base + at] = parent;
    if (count < keep) this.count[target] = count + 1;
  }

  near(sim, str, parent) {
    const max = this.nearestMax;
    if (max === 0) return;
    const count = this.nearCount;
    if (count === max && !nearer(sim, str, this.nearSim[max - 1], this.nearStr[max - 1])) return;
    let at = count < max ? count : max - 1;
    while (at > 0 && nearer(sim, str, this.nearSim[at - 1], this.nearStr[at - 1])) {
      this.nearSim[at] = this.nearSim[at - 1];
      this.nearStr[at] = this.nearStr[at - 1];
      this.nearParent[at] = this.nearParent[at - 1];
      at -= 1;
    }
    this.nearSim[at] = sim;
    this.nearStr[at] = str;
    this.nearParent[at] = parent;
    if (count < max) this.nearCount = count + 1;
  }

  /** Appends this query's tops to `out` (plain arrays) and clears the accumulators for the next. */
  finish(out) {
    this.settleGroups();
    const keep = this.keep;
    for (const target of this.touched) {
      const base = target * keep;
      out.target.push(target);
      out.hits.push(this.hits[target]);
      for (let k = 0; k < this.count[target]; k++) {
        out.evSim.push(this.sim[base + k]);
        out.evNm.push(this.nm[base + k]);
        out.evStr.push(this.str[base + k]);
        out.evParent.push(this.parent[base + k]);
      }
      out.evEnd.push(out.evSim.length);
      this.count[target] = 0;
      this.hits[target] = 0;
    }
    this.touched.length = 0;
    for (let k = 0; k < this.nearCount; k++) {
      out.nearSim.push(this.nearSim[k]);
      out.nearStr.push(this.nearStr[k]);
      out.nearParent.push(this.nearParent[k]);
    }
    this.nearCount = 0;
    out.targetEnd.push(out.target.length);
    out.nearEnd.push(out.nearSim.length);
  }
}

/** The evidence order: more similar first; then the more potent measurement; then the lower str_id. */
function better(sim, nm, str, otherSim, otherNm, otherStr) {
  return sim > otherSim || (sim === otherSim && (nm < otherNm || (nm === otherNm && str < otherStr)));
}

/** The nearest actives' order: more similar first, then the lower str_id. */
function nearer(sim, str, otherSim, otherStr) {
  return sim > otherSim || (sim === otherSim && str < otherStr);
}

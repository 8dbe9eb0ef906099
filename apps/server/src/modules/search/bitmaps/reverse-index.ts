/**
 * Parent → children lists over typed arrays (structure → its activities, target → its activities,
 * activity type → its activities, ...): two arrays, no object per parent.
 */

/** Parent → children: the children of `p` are `ids[start[p] .. start[p + 1])`. */
export interface ReverseIndex {
  start: Int32Array;
  ids: Int32Array;
}

/** How many children `p` has (0 for an id beyond the index), without making a view of them. */
export function childCount(index: ReverseIndex, p: number): number {
  return p + 1 < index.start.length ? index.start[p + 1]! - index.start[p]! : 0;
}

/** The children of `p` (none for an id beyond the index). */
export function childrenOf(index: ReverseIndex, p: number): Int32Array {
  return p + 1 < index.start.length ? index.ids.subarray(index.start[p]!, index.start[p + 1]!) : index.ids.subarray(0, 0);
}

/** The reverse of `forward` (child id → parent id, 0 = none); `parents` is the highest parent id. */
export function reverseIndex(forward: Int32Array | Uint16Array, parents: number = maxOf(forward)): ReverseIndex {
  const start = new Int32Array(parents + 2);
  for (let child = 0; child < forward.length; child++) {
    const parent = forward[child]!;
    if (parent > 0) start[parent + 1]!++;
  }
  for (let p = 1; p < start.length; p++) start[p]! += start[p - 1]!;
  const ids = new Int32Array(start[start.length - 1]!);
  const fill = start.slice(0, parents + 1);
  for (let child = 0; child < forward.length; child++) {
    const parent = forward[child]!;
    if (parent > 0) ids[fill[parent]!++] = child;
  }
  return { start, ids };
}

function maxOf(values: Int32Array | Uint16Array): number {
  let max = 0;
  for (let i = 0; i < values.length; i++) if (values[i]! > max) max = values[i]!;
  return max;
}

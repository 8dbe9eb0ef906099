/** The ticked ids after ticking (or unticking) `ids`: a new set, so React sees the change. */
export function toggleIds(current: ReadonlySet<number>, ids: readonly number[], on: boolean): Set<number> {
  const next = new Set(current);
  for (const id of ids) {
    if (on) next.add(id);
    else next.delete(id);
  }
  return next;
}

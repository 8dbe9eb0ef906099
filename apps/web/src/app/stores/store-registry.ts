/**
 * Every store registers its reset here so that logout, idle timeout and "token is missing"
 * (spec §4, §8) can reset all of them at once without knowing which stores exist.
 */
type Reset = () => void;

const resets = new Set<Reset>();

/** Registers a reset function; returns a function that unregisters it. */
export function registerStoreReset(reset: Reset): () => void {
  resets.add(reset);
  return () => resets.delete(reset);
}

/** Resets every registered store to its initial state. */
export function resetAllStores(): void {
  for (const reset of resets) reset();
}

/** A Storage stand-in for environments without Web Storage (unit tests, private modes that throw). */
export function createMemoryStorage(): Storage {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (key) => map.get(key) ?? null,
    key: (index) => [...map.keys()][index] ?? null,
    removeItem: (key) => {
      map.delete(key);
    },
    setItem: (key, value) => {
      map.set(key, String(value));
    },
  };
}

function available(get: () => Storage): Storage | null {
  try {
    const storage = get();
    return storage ?? null;
  } catch {
    return null;
  }
}

const fallbackSession = createMemoryStorage();
const fallbackLocal = createMemoryStorage();

/** sessionStorage, or an in-memory stand-in where it does not exist. */
export function sessionStore(): Storage {
  return available(() => globalThis.sessionStorage) ?? fallbackSession;
}

/** localStorage, or an in-memory stand-in where it does not exist. */
export function localStore(): Storage {
  return available(() => globalThis.localStorage) ?? fallbackLocal;
}

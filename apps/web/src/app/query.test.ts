import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { refetchAfterChange } from './query.ts';

/** A server whose answer is its version when a request arrives, sent back after `delayMs`. */
function slowServer(delayMs: number) {
  const server = { version: 1, requests: 0 };
  const fetchVersion = async ({ signal }: { signal: AbortSignal }) => {
    server.requests += 1;
    const seen = server.version;
    await new Promise((resolve, reject) => {
      const timer = setTimeout(resolve, delayMs);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(signal.reason);
      });
    });
    return seen;
  };
  return { server, fetchVersion };
}

/** The observer's data once it has some and nothing is in flight. */
function settled(observer: QueryObserver<number>): Promise<number> {
  return new Promise((resolve) => {
    const check = () => {
      const result = observer.getCurrentResult();
      if (result.isSuccess && result.fetchStatus === 'idle') resolve(result.data);
    };
    observer.subscribe(check);
    check();
  });
}

describe('refetching after the server changed an answer', () => {
  it('drops a first answer requested before the change, and shows the one after it', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 30_000 } } });
    const { server, fetchVersion } = slowServer(40);
    const observer = new QueryObserver<number>(client, { queryKey: ['page'], queryFn: fetchVersion });
    const data = settled(observer);
    // The first fetch is in flight, with no data yet, when the server changes (filters applied).
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(observer.getCurrentResult().fetchStatus).toBe('fetching');
    server.version = 2;
    await refetchAfterChange(client, { queryKey: ['page'] });
    expect(await data).toBe(2);
    expect(server.requests).toBe(2);
    client.clear();
  });

  it('refetches a query that already has data, and leaves others alone', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 30_000 } } });
    const { server, fetchVersion } = slowServer(1);
    const page = new QueryObserver<number>(client, { queryKey: ['page'], queryFn: fetchVersion });
    const other = new QueryObserver<number>(client, { queryKey: ['other'], queryFn: fetchVersion });
    expect(await settled(page)).toBe(1);
    expect(await settled(other)).toBe(1);
    server.version = 2;
    await refetchAfterChange(client, { queryKey: ['page'] });
    expect(page.getCurrentResult().data).toBe(2);
    expect(other.getCurrentResult().data).toBe(1);
    client.clear();
  });
});

import { describe, expect, it } from 'vitest';
import { StartupReadiness } from './readiness.ts';

function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('StartupReadiness', () => {
  it('is ready with no parts, and not while any part warms', async () => {
    const readiness = new StartupReadiness();
    expect(readiness.report()).toEqual({ ready: true, parts: [] });
    const columns = deferred();
    let index: 'warming' | 'ready' | 'failed' = 'warming';
    readiness.track('search columns', columns.promise);
    readiness.watch('structure index', () => index);
    expect(readiness.report().ready).toBe(false);
    columns.resolve();
    await settle();
    expect(readiness.report().parts.map((part) => [part.name, part.state])).toEqual([
      ['search columns', 'ready'],
      ['structure index', 'warming'],
    ]);
    expect(readiness.report().ready).toBe(false);
    index = 'ready';
    expect(readiness.report().ready).toBe(true);
  });

  it('counts a failed part as done, and tells its failure once', async () => {
    const readiness = new StartupReadiness();
    const dictionaries = deferred();
    const heard: unknown[] = [];
    readiness.track('chart dictionaries', dictionaries.promise, (error) => heard.push(error));
    dictionaries.reject(new Error('relation "assays" does not exist'));
    await settle();
    expect(readiness.report()).toMatchObject({ ready: true, parts: [{ name: 'chart dictionaries', state: 'failed' }] });
    expect(heard).toHaveLength(1);
  });

  it('reports how long each part took, frozen once it is done', async () => {
    const readiness = new StartupReadiness();
    const work = deferred();
    const started = Date.now();
    readiness.track('target prediction', work.promise);
    expect(readiness.report(started + 2_500).parts[0]?.seconds).toBeCloseTo(2.5, 0);
    work.resolve();
    await settle();
    const took = readiness.report().parts[0]?.seconds ?? -1;
    expect(readiness.report(Date.now() + 60_000).parts[0]?.seconds).toBe(took);
  });
});

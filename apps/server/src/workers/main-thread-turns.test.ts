import { describe, expect, it } from 'vitest';
import { MainThreadTurns, inChunks } from './main-thread-turns.ts';

/** Whether a callback queued before a computation ran before it ended (it gave way) or after. */
async function queuedRanDuring(turns: MainThreadTurns, length: number, chunk: number): Promise<{ during: boolean; covered: number[] }> {
  let ended = false;
  let during = false;
  setImmediate(() => (during = !ended));
  const covered: number[] = [];
  await inChunks(length, turns, (start, end) => covered.push(start, end), chunk);
  ended = true;
  return { during, covered };
}

describe('main-thread turns', () => {
  it('a chunked computation gives way to what is queued once its slice is spent, and covers every element once', async () => {
    const spent = await queuedRanDuring(new MainThreadTurns(0), 10, 4);
    expect(spent.during).toBe(true);
    expect(spent.covered).toEqual([0, 4, 4, 8, 8, 10]);
  });

  it('within its slice it runs on without giving way', async () => {
    const within = await queuedRanDuring(new MainThreadTurns(60_000), 10, 4);
    expect(within.during).toBe(false);
    expect(within.covered).toEqual([0, 4, 4, 8, 8, 10]);
  });

  it('nothing to do is no chunk', async () => {
    const none = await queuedRanDuring(new MainThreadTurns(0), 0, 4);
    expect(none.covered).toEqual([]);
  });
});

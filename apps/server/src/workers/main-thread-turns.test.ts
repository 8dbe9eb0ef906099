import { describe, expect, it } from 'vitest';
import { MainThreadTurns, SliceGate, inChunks } from './main-thread-turns.ts';

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

  it('paused computations take one slice per turn of the event loop, in the order they paused', async () => {
    // A probe that queues itself again each turn marks the turns ('|'): between two marks at most
    // one chunk of the two computations may run once both have paused (each computation's own
    // setImmediate ran both in the same turn).
    const gate = new SliceGate();
    const log: string[] = [];
    let running = 2;
    const probe = () => {
      log.push('|');
      if (running) setImmediate(probe);
    };
    setImmediate(probe);
    const computation = (name: string) =>
      inChunks(4, new MainThreadTurns(0, gate), (start) => log.push(`${name}${start}`), 1).then(() => running--);
    await Promise.all([computation('a'), computation('b')]);
    const afterFirstChunks = log.join(' ').split(' b0 ')[1]!;
    expect(afterFirstChunks.split(' | ').every((turn) => turn.split(' ').filter((entry) => entry !== '|').length <= 1)).toBe(true);
    expect(log.filter((entry) => entry !== '|')).toEqual(['a0', 'b0', 'a1', 'b1', 'a2', 'b2', 'a3', 'b3']);
    expect(gate.queued).toBe(0);
  });

  it('a lone computation at the gate covers every element and leaves nothing queued', async () => {
    const gate = new SliceGate();
    const covered: number[] = [];
    await inChunks(6, new MainThreadTurns(0, gate), (start, end) => covered.push(start, end), 2);
    expect(covered).toEqual([0, 2, 2, 4, 4, 6]);
    expect(gate.queued).toBe(0);
  });
});

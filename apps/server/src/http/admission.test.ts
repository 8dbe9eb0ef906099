import { describe, expect, it } from 'vitest';
import { ALL_ENDPOINTS } from '@kb/contracts/api';
import { WORK_CLASS_OF_CALL } from '@kb/contracts/work-classes';
import { Admission } from './admission.ts';
import type { AdmissionLimits } from './admission.ts';
import { HttpError } from './errors.ts';

const limits = (over: Partial<AdmissionLimits> = {}): AdmissionLimits => ({
  concurrent: 2,
  perUser: { search: 1, structure: 1, chart: 2, export: 1 },
  maxQueuedPerUser: 5,
  maxWaitMs: 60_000,
  ...over,
});

/** Settles pending promise callbacks. */
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('admission of heavy calls', () => {
  it('names only calls of the contract', () => {
    const calls = new Set(ALL_ENDPOINTS.map((e) => `${e.method} ${e.path}`));
    for (const call of Object.keys(WORK_CLASS_OF_CALL)) expect(calls.has(call), call).toBe(true);
  });

  it('holds a user to the per-user limit, with the next one waiting in line and knowing its place', async () => {
    const gate = new Admission(limits());
    const first = await gate.enter('search', 1, 'a');
    let secondIn = false;
    const second = gate.enter('search', 1, 'b').then((release) => {
      secondIn = true;
      return release;
    });
    await tick();
    expect(secondIn).toBe(false);
    expect(gate.position('search', 1, 'b')).toBe(0);
    // Another user is not held up by the first user's line.
    const other = await gate.enter('search', 2, 'c');
    expect(gate.state()).toEqual({ running: 2, waiting: 1 });
    first();
    await tick();
    // The slot first left goes to the waiting search once the server has room: first it had none (2 running).
    expect(secondIn).toBe(true);
    (await second)();
    other();
    expect(gate.state()).toEqual({ running: 0, waiting: 0 });
  });

  it('gives the calls of one session one turn, released when the last of them is done', async () => {
    const gate = new Admission(limits());
    const calls = await Promise.all([1, 2, 3, 4].map(() => gate.enter('search', 1, 'session')));
    expect(gate.state()).toEqual({ running: 1, waiting: 0 });
    calls.slice(0, 3).forEach((release) => release());
    expect(gate.state().running).toBe(1);
    calls[3]!();
    expect(gate.state().running).toBe(0);
  });

  it('lets no more than four calls share a turn: a fifth under the same key waits for one of its own', async () => {
    const gate = new Admission(limits({ concurrent: 5 }));
    const four = await Promise.all([1, 2, 3, 4].map(() => gate.enter('search', 1, 'session')));
    let fifthIn = false;
    const fifth = gate.enter('search', 1, 'session').then((release) => {
      fifthIn = true;
      return release;
    });
    await tick();
    // The per-user limit is one search: the fifth call is a second search and waits.
    expect(fifthIn).toBe(false);
    expect(gate.position('search', 1, 'session')).toBe(0);
    four.forEach((release) => release());
    (await fifth)();
    expect(gate.state()).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses a caller already gone, and closes refusing those who wait', async () => {
    const gate = new Admission(limits());
    const gone = new AbortController();
    gone.abort();
    await expect(gate.enter('chart', 1, null, gone.signal)).rejects.toMatchObject({ statusCode: 499 });
    const running = await gate.enter('search', 1, 'a');
    const waiting = gate.enter('search', 1, 'b');
    gate.close();
    await expect(waiting).rejects.toMatchObject({ statusCode: 503 });
    running();
    expect(gate.state()).toEqual({ running: 0, waiting: 0 });
  });

  it('shares free slots fairly: the user with less running work goes first', async () => {
    const gate = new Admission(limits({ concurrent: 1, perUser: { search: 5, structure: 5, chart: 5, export: 5 } }));
    const busy = await gate.enter('search', 1, 'x1');
    const order: string[] = [];
    const wait = (user: number, share: string) =>
      gate.enter('search', user, share).then((release) => {
        order.push(share);
        release();
      });
    const queued = [wait(1, 'x2'), wait(1, 'x3'), wait(2, 'y1')];
    await tick();
    busy();
    await Promise.all(queued);
    expect(order[0]).toBe('y1');
  });

  it('refuses a user who queues too much (429) and a wait past the limit (503), and forgets a caller who left', async () => {
    const gate = new Admission(limits({ maxQueuedPerUser: 1, maxWaitMs: 50 }));
    const running = await gate.enter('export', 1, null);
    const late = gate.enter('export', 1, null);
    await expect(gate.enter('export', 1, null)).rejects.toMatchObject({ statusCode: 429 });
    const error = await late.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).statusCode).toBe(503);
    expect((error as HttpError).message).toMatch(/busy/);

    const leaving = new AbortController();
    const gone = gate.enter('export', 1, 'left', leaving.signal).catch((e: unknown) => e);
    leaving.abort();
    expect(((await gone) as HttpError).statusCode).toBe(499);
    expect(gate.state()).toEqual({ running: 1, waiting: 0 });
    running();
  });
});

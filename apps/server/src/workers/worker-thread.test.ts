import { describe, expect, it, vi } from 'vitest';
import { WorkerPool } from './worker-pool.ts';
import { WorkerThread } from './worker-thread.ts';
import type { WorkerThreadOptions } from './worker-thread.ts';

const URL_ = new URL('./worker-thread.test-worker.mjs', import.meta.url);
type In = { op: string; value?: unknown; delayMs?: number };
type Out = { id?: number; value?: unknown; error?: string; ready?: boolean; note?: unknown };

const base: WorkerThreadOptions<Out> = {
  url: URL_,
  name: 'test worker',
  isReady: (message) => message.ready === true,
  reply: (message) =>
    message.id === undefined ? null : { id: message.id, value: message.value, error: message.error ? new Error(message.error) : undefined },
};

describe('WorkerThread', () => {
  it('settles each request with the reply that carries its id, in whatever order they come', async () => {
    const thread = new WorkerThread<In, Out>(base);
    await thread.ready;
    const slow = thread.request<string>({ op: 'echo', value: 'slow', delayMs: 150 });
    const fast = thread.request<string>({ op: 'echo', value: 'fast', delayMs: 0 });
    const failed = expect(thread.request({ op: 'fail', value: 'purpose' })).rejects.toThrow('failed on purpose');
    expect(await fast).toBe('fast');
    expect(thread.busy).toBe(1);
    expect(await slow).toBe('slow');
    await failed;
    expect(thread.busy).toBe(0);
    await thread.close();
  });

  it('hands messages that are not replies to onMessage', async () => {
    const notes: unknown[] = [];
    const thread = new WorkerThread<In, Out>({ ...base, onMessage: (message) => notes.push(message.note) });
    thread.post({ op: 'note', value: 'hello' });
    expect(await thread.request({ op: 'echo', value: 1 })).toBe(1);
    expect(notes).toEqual(['hello']);
    await thread.close();
  });

  it('rejects every pending request when the thread crashes, and every later one at once', async () => {
    const onLost = vi.fn();
    const thread = new WorkerThread<In, Out>({
      ...base,
      onLost,
      lostError: (cause, context) => new Error(`${String(context)}: ${cause.message}`),
    });
    const waiting = thread.request({ op: 'echo', value: 'never', delayMs: 5_000 }, { context: 'first' });
    const crashing = thread.request({ op: 'crash' }, { context: 'second' });
    await expect(waiting).rejects.toThrow('first: the test worker crashed');
    await expect(crashing).rejects.toThrow('second: the test worker crashed');
    expect(thread.gone).toBe(true);
    expect(onLost).toHaveBeenCalledTimes(1);
    await expect(thread.request({ op: 'echo', value: 1 }, { context: 'late' })).rejects.toThrow('late: the test worker crashed');
    await thread.close();
  });

  it('rejects pending requests and ready when the thread exits', async () => {
    const thread = new WorkerThread<In, Out>({ ...base, isReady: () => false });
    const pending = thread.request({ op: 'exit' });
    await expect(pending).rejects.toThrow('The test worker stopped (exit code 3).');
    await expect(thread.ready).rejects.toThrow('The test worker stopped (exit code 3).');
  });

  it('close terminates the thread and rejects what is pending with the reason, without onLost', async () => {
    const onLost = vi.fn();
    const thread = new WorkerThread<In, Out>({ ...base, onLost });
    await thread.ready;
    const exited = new Promise<number>((resolve) => thread.worker.once('exit', resolve));
    const pending = expect(thread.request({ op: 'hang' })).rejects.toThrow('shutting down');
    await thread.close(new Error('shutting down'));
    await pending;
    expect(await exited).toBe(1);
    expect(onLost).not.toHaveBeenCalled();
    await expect(thread.request({ op: 'echo', value: 1 })).rejects.toThrow('shutting down');
  });

  it('terminate ends a stuck thread as a loss (a watchdog)', async () => {
    const onLost = vi.fn();
    const thread = new WorkerThread<In, Out>({ ...base, onLost });
    const pending = thread.request({ op: 'hang' });
    await thread.ready;
    await thread.terminate();
    await expect(pending).rejects.toThrow('The test worker stopped (exit code 1).');
    expect(onLost).toHaveBeenCalledTimes(1);
  });

  it('starts the thread with its workerData and nice value', async () => {
    const thread = new WorkerThread<In, Out>({ ...base, workerData: { flag: true }, nice: 5 });
    const info = await thread.request<{ workerData: unknown; priority: number }>({ op: 'info' });
    expect(info.workerData).toEqual({ flag: true, nice: 5 });
    if (process.platform === 'linux') expect(info.priority).toBe(5);
    await thread.close();
  });
});

describe('WorkerPool', () => {
  it('runs one request a thread at a time and queues the rest', async () => {
    const pool = new WorkerPool<In, Out>({ ...base, size: 2 });
    await pool.ready();
    const answers = [1, 2, 3, 4].map((value) => pool.request({ op: 'echo', value, delayMs: 50 }));
    expect(pool.waiting).toBe(2);
    expect(await Promise.all(answers)).toEqual([1, 2, 3, 4]);
    expect(pool.waiting).toBe(0);
    await pool.close();
  });

  it('times a request out, ends its thread and serves the next on a fresh one', async () => {
    const pool = new WorkerPool<In, Out>({
      ...base,
      size: 1,
      lazy: true,
      timeoutMs: 2_000,
      timeoutError: (context) => new Error(`${String(context)} took too long`),
    });
    const stuck = pool.request({ op: 'hang' }, { context: 'the hang' });
    const next = pool.request({ op: 'echo', value: 'after' });
    await expect(stuck).rejects.toThrow('the hang took too long');
    expect(await next).toBe('after');
    await pool.close();
  });

  it('replaces a thread that crashed for the next request', async () => {
    const pool = new WorkerPool<In, Out>({ ...base, size: 1 });
    await expect(pool.request({ op: 'crash' })).rejects.toThrow('the test worker crashed');
    expect(await pool.request({ op: 'echo', value: 'again' })).toBe('again');
    await pool.close();
  });

  it('close rejects waiting and running requests, and later ones', async () => {
    const pool = new WorkerPool<In, Out>({ ...base, size: 1 });
    const running = expect(pool.request({ op: 'hang' })).rejects.toThrow('stopping');
    const waiting = expect(pool.request({ op: 'echo', value: 1 })).rejects.toThrow('stopping');
    await pool.close(new Error('stopping'));
    await running;
    await waiting;
    await expect(pool.request({ op: 'echo', value: 1 })).rejects.toThrow('closed');
  });

  it('ends idle threads and starts one again when needed', async () => {
    const pool = new WorkerPool<In, Out>({ ...base, size: 1, lazy: true, idleMs: 50 });
    expect(await pool.request({ op: 'echo', value: 1 })).toBe(1);
    const first = (pool as unknown as { threads: (WorkerThread<In, Out> | null)[] }).threads[0]!;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(first.gone).toBe(true);
    expect(await pool.request({ op: 'echo', value: 2 })).toBe(2);
    await pool.close();
  });
});

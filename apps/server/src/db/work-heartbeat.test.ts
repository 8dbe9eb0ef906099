import { describe, expect, it } from 'vitest';
import { WorkHeartbeat } from './work-heartbeat.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('WorkHeartbeat', () => {
  it('beats only between busy() and idle()', async () => {
    let beats = 0;
    const heartbeat = new WorkHeartbeat({ ms: 10, beat: async () => void beats++ });
    await sleep(40);
    expect(beats).toBe(0);
    heartbeat.busy();
    heartbeat.busy();
    await sleep(150);
    heartbeat.idle();
    const counted = beats;
    // One timer, not two: at most one beat per 10 ms.
    expect(counted).toBeGreaterThanOrEqual(3);
    expect(counted).toBeLessThanOrEqual(16);
    await sleep(40);
    expect(beats).toBe(counted);
  });

  it('never starts a beat while the previous one still waits', async () => {
    let running = 0;
    let most = 0;
    let beats = 0;
    const heartbeat = new WorkHeartbeat({
      ms: 5,
      beat: async () => {
        beats++;
        most = Math.max(most, ++running);
        await sleep(30);
        running--;
      },
    });
    heartbeat.busy();
    await sleep(100);
    heartbeat.idle();
    await sleep(40);
    expect(beats).toBeGreaterThanOrEqual(2);
    expect(most).toBe(1);
  });

  it('reports a failed beat and goes on beating', async () => {
    const errors: unknown[] = [];
    let beats = 0;
    const heartbeat = new WorkHeartbeat({
      ms: 10,
      beat: async () => {
        beats++;
        throw new Error('database unavailable');
      },
      onError: (error) => errors.push(error),
    });
    heartbeat.busy();
    await sleep(110);
    heartbeat.idle();
    expect(beats).toBeGreaterThanOrEqual(2);
    expect(errors).toHaveLength(beats);
    expect(String(errors[0])).toContain('database unavailable');
  });
});

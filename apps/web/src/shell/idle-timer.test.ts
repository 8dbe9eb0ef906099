import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IDLE_TIMEOUT_MS } from '@kb/contracts/session';
import { startIdleTimer } from './idle-timer.ts';

describe('idle timer', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('fires after 30 minutes without activity', () => {
    const onIdle = vi.fn();
    startIdleTimer({ timeoutMs: IDLE_TIMEOUT_MS, onIdle });
    vi.advanceTimersByTime(IDLE_TIMEOUT_MS - 1);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onIdle).toHaveBeenCalledOnce();
  });

  it('counts from the last activity', () => {
    const onIdle = vi.fn();
    const timer = startIdleTimer({ timeoutMs: IDLE_TIMEOUT_MS, onIdle });
    vi.advanceTimersByTime(20 * 60_000);
    timer.touch();
    vi.advanceTimersByTime(20 * 60_000);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(10 * 60_000);
    expect(onIdle).toHaveBeenCalledOnce();
  });

  it('never fires once stopped', () => {
    const onIdle = vi.fn();
    const timer = startIdleTimer({ timeoutMs: IDLE_TIMEOUT_MS, onIdle });
    timer.stop();
    vi.advanceTimersByTime(2 * IDLE_TIMEOUT_MS);
    expect(onIdle).not.toHaveBeenCalled();
  });
});

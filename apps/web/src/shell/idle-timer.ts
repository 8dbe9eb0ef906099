import { useEffect } from 'react';
import { IDLE_TIMEOUT_MS } from '@kb/contracts/session';
import { logOutIdle } from '../features/auth/auth-service.ts';
import { useSessionStore } from '../app/stores/session-store.ts';

/** Events that count as user activity. */
const ACTIVITY_EVENTS = ['mousemove', 'mousedown', 'keydown', 'touchstart', 'scroll', 'wheel'] as const;

export interface IdleTimer {
  /** Records activity now. Cheap: no timer is rescheduled on every mouse move. */
  touch: () => void;
  stop: () => void;
}

/**
 * One timeout that fires `onIdle` after `timeoutMs` without `touch()`. It is scheduled for the
 * remaining time from the last activity and re-checks `Date.now()` when it fires, so activity
 * costs nothing and a fast-forwarded clock (Playwright `page.clock`) is honoured.
 */
export function startIdleTimer(options: { timeoutMs: number; onIdle: () => void; now?: () => number }): IdleTimer {
  const now = options.now ?? (() => Date.now());
  let lastActivity = now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const schedule = (delay: number) => {
    timer = setTimeout(check, Math.max(0, delay));
  };
  const check = () => {
    if (stopped) return;
    const idleFor = now() - lastActivity;
    if (idleFor >= options.timeoutMs) {
      stopped = true;
      options.onIdle();
    } else {
      schedule(options.timeoutMs - idleFor);
    }
  };
  schedule(options.timeoutMs);

  return {
    touch: () => {
      lastActivity = now();
    },
    stop: () => {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
    },
  };
}

/** Spec §4 idle: while logged in, 30 minutes without activity logs the user out. */
export function useIdleLogout(): void {
  const isLogin = useSessionStore((state) => state.isLogin && Boolean(state.token));
  useEffect(() => {
    if (!isLogin) return undefined;
    const timer = startIdleTimer({ timeoutMs: IDLE_TIMEOUT_MS, onIdle: () => void logOutIdle() });
    const onActivity = () => timer.touch();
    for (const event of ACTIVITY_EVENTS) window.addEventListener(event, onActivity, { passive: true, capture: true });
    return () => {
      timer.stop();
      for (const event of ACTIVITY_EVENTS) window.removeEventListener(event, onActivity, { capture: true });
    };
  }, [isLogin]);
}

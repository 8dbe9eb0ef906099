import { nprogress } from '@mantine/nprogress';

/** Spec §9 "Loader stop delay 100 ms". */
const LOADER_STOP_DELAY_MS = 100;

let stopTimer: ReturnType<typeof setTimeout> | undefined;

/** Starts the top loading bar (before a navigation or a long request). */
export function startPageLoader(): void {
  if (stopTimer !== undefined) {
    clearTimeout(stopTimer);
    stopTimer = undefined;
  }
  nprogress.start();
}

/** Completes the loading bar after the spec's 100 ms delay. */
export function stopPageLoader(): void {
  if (stopTimer !== undefined) clearTimeout(stopTimer);
  stopTimer = setTimeout(() => {
    stopTimer = undefined;
    nprogress.complete();
  }, LOADER_STOP_DELAY_MS);
}

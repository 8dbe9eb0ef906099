import type { ReadinessPart, ReadinessResponse } from '@kb/contracts/health';

type PartState = ReadinessPart['state'];

interface Part {
  state: () => PartState;
  startedAt: number;
  endedAt: number | null;
}

/**
 * What a server still prepares after it listens: the search columns, the chart dictionaries, the
 * structure index and its frequent fragments, target prediction, the demo seed. It answers every
 * call meanwhile (counts in SQL, structure searches waiting for the index), only slower; a load
 * balancer that sends users to a server once it is ready (`GET /api/health/ready`) spares them
 * that. A part that failed counts as done: the server then serves without it (and says so in its log).
 */
export class StartupReadiness {
  private readonly parts = new Map<string, Part>();

  /** A part that is done when `work` settles; `onFailure` hears why it failed (the server's log). */
  track(name: string, work: Promise<unknown>, onFailure?: (error: unknown) => void): void {
    let state: PartState = 'warming';
    const part: Part = { state: () => state, startedAt: Date.now(), endedAt: null };
    this.parts.set(name, part);
    const end = (to: PartState) => {
      state = to;
      part.endedAt = Date.now();
    };
    work.then(
      () => end('ready'),
      (error: unknown) => {
        end('failed');
        onFailure?.(error);
      },
    );
  }

  /** A part whose state is asked of its owner (the structure engine reports rather than resolves). */
  watch(name: string, state: () => PartState): void {
    this.parts.set(name, { state, startedAt: Date.now(), endedAt: null });
  }

  report(now = Date.now()): ReadinessResponse {
    const parts: ReadinessPart[] = [];
    for (const [name, part] of this.parts) {
      const state = part.state();
      if (state !== 'warming') part.endedAt ??= now;
      parts.push({ name, state, seconds: Math.round(((state === 'warming' ? now : (part.endedAt ?? now)) - part.startedAt) / 100) / 10 });
    }
    return { ready: parts.every((part) => part.state !== 'warming'), parts };
  }
}

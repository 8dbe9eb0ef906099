import type { ComponentType } from 'react';
import { useCallback, useEffect, useState } from 'react';
import type { KetcherCanvasProps } from './ketcher-canvas.tsx';

type Canvas = ComponentType<KetcherCanvasProps>;

export type KetcherCanvasState = { status: 'loading' } | { status: 'ready'; Canvas: Canvas } | { status: 'failed'; message: string };

// Shared by every editor of the page: the chunk is fetched once. A failed fetch is forgotten so
// that "Try again" fetches anew (after a deployment the old chunk name no longer exists).
let pending: Promise<Canvas> | null = null;

function loadCanvas(): Promise<Canvas> {
  pending ??= import('./ketcher-canvas.tsx').then(
    (module) => module.default,
    (error: unknown) => {
      pending = null;
      throw error;
    },
  );
  return pending;
}

/**
 * Fetches the Ketcher chunk on first use. The dynamic import keeps Ketcher (React UI, Indigo
 * worker and WASM) out of the main bundle: it is downloaded only when someone opens the editor.
 */
export function useKetcherCanvas(): { state: KetcherCanvasState; retry: () => void } {
  const [state, setState] = useState<KetcherCanvasState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let current = true;
    loadCanvas().then(
      (Canvas) => current && setState({ status: 'ready', Canvas }),
      (error: unknown) =>
        current && setState({ status: 'failed', message: error instanceof Error ? error.message : 'The editor could not be downloaded.' }),
    );
    return () => {
      current = false;
    };
  }, [attempt]);

  const retry = useCallback(() => {
    setState({ status: 'loading' });
    setAttempt((value) => value + 1);
  }, []);

  return { state, retry };
}

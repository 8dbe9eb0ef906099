import type { ComponentType } from 'react';
import { Suspense, lazy } from 'react';

/**
 * A feature's component loaded with its own chunk the first time a page shows it: a page composes
 * features without pulling their code into its own chunk (the results toolbar does not wait for
 * target prediction's code, nor the search builder for the prediction drawer's). Nothing shows
 * while it loads.
 */
export function lazySlot<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Lazy = lazy(async () => ({ default: await load() }));
  function Slot(props: P) {
    return (
      <Suspense fallback={null}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  return Slot;
}

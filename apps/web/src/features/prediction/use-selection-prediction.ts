import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { PREDICTION_CONFIDENT_PROBABILITY, aggregatePredictions, predictionEndpoints } from '@kb/contracts/prediction';
import type { AggregatedTarget, BatchPrediction, ModelStatus } from '@kb/contracts/prediction';
import { resultsEndpoints } from '@kb/contracts/results';
import type { Selection } from '@kb/contracts/results';
import { callApi, errorMessage } from '../../app/api-client.ts';
import type { TabState } from '../results/tab-state.ts';
import { tabRequestBody } from '../results/tab-state.ts';
import { runBatches, selectedStructures } from './selection-batches.ts';

/** Targets answered per structure of a selection (the aggregate counts how many compounds have each). */
export const SELECTION_TARGET_LIMIT = 10;

type SelectionRunStatus = 'idle' | 'resolving' | 'running' | 'done' | 'cancelled' | 'failed';

export interface SelectionRun {
  status: SelectionRunStatus;
  /** Structures answered so far, of `total`. */
  done: number;
  total: number;
  /** How many the selection holds (over the cap, only the first PREDICTION_SELECTION_MAX are predicted). */
  selected: number;
  predictions: BatchPrediction[];
  model: ModelStatus | null;
  error: string | null;
}

const IDLE: SelectionRun = { status: 'idle', done: 0, total: 0, selected: 0, predictions: [], model: null, error: null };

export interface SelectionSource {
  sessionId: string;
  /** The Structures tab's state: its selection, "go to" and similarity window. */
  state: TabState;
  rowCount: number;
}

/**
 * The predicted targets of a Structures-tab selection: the structures it names, sent in batches
 * with progress and a Cancel; the answers aggregated per target (aggregatePredictions: the
 * off-target view). What arrived before a cancel or a failure stays on screen.
 */
export function useSelectionPrediction() {
  const [run, setRun] = useState<SelectionRun>(IDLE);
  const controller = useRef<AbortController | null>(null);

  useEffect(() => () => controller.current?.abort(), []);

  const start = useCallback(async ({ sessionId, state, rowCount }: SelectionSource) => {
    controller.current?.abort();
    const own = new AbortController();
    controller.current = own;
    setRun({ ...IDLE, status: 'resolving' });
    const selection: Selection = state.selection;
    try {
      const { strIds, selected } = await selectedStructures(
        selection,
        rowCount,
        (page, signal) =>
          callApi(
            resultsEndpoints.tabRows,
            { params: { tab: 'structuretab' }, body: { ...tabRequestBody(sessionId, state), ...page } },
            { signal },
          ),
        own.signal,
      );
      setRun({ ...IDLE, status: 'running', total: strIds.length, selected });
      if (strIds.length === 0) {
        setRun({ ...IDLE, status: 'done', selected });
        return;
      }
      const result = await runBatches(
        strIds,
        (batch, signal) =>
          callApi(
            predictionEndpoints.predictBatch,
            { body: { strIds: batch, limit: SELECTION_TARGET_LIMIT, minProbability: PREDICTION_CONFIDENT_PROBABILITY } },
            { signal },
          ),
        {
          signal: own.signal,
          onProgress: (progress) => setRun((current) => ({ ...current, ...progress })),
        },
      );
      setRun((current) => ({ ...current, ...result, status: 'done' }));
    } catch (error) {
      if (own.signal.aborted && controller.current === own) setRun((current) => ({ ...current, status: 'cancelled' }));
      else if (controller.current === own) setRun((current) => ({ ...current, status: 'failed', error: errorMessage(error) }));
    } finally {
      if (controller.current === own) controller.current = null;
    }
  }, []);

  const cancel = useCallback(() => controller.current?.abort(), []);
  const reset = useCallback(() => {
    controller.current?.abort();
    controller.current = null;
    setRun(IDLE);
  }, []);

  const aggregated: AggregatedTarget[] = useMemo(() => aggregatePredictions(run.predictions), [run.predictions]);
  return { run, aggregated, start, cancel, reset };
}

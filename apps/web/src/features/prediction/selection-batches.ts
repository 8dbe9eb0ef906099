import { PREDICTION_BATCH_CONCURRENCY, PREDICTION_BATCH_MAX, PREDICTION_SELECTION_MAX } from '@kb/contracts/prediction';
import type { BatchPrediction, ModelStatus, PredictBatchResponse } from '@kb/contracts/prediction';
import { MAX_PAGE_SIZE, START_PAGE } from '@kb/contracts/result-tabs';
import type { Selection, TabPage, TabRequest } from '@kb/contracts/results';

/**
 * A selection's prediction as plain functions (the hook in use-selection-prediction.ts runs them):
 * which structures a selection names, and its batches sent a few at a time with progress.
 */

/** Splits ids into batches the batch call accepts. */
export function splitBatches(ids: readonly number[], size = PREDICTION_BATCH_MAX): number[][] {
  const batches: number[][] = [];
  for (let start = 0; start < ids.length; start += size) batches.push(ids.slice(start, start + size));
  return batches;
}

export interface SelectedStructures {
  /** The structures to predict, at most PREDICTION_SELECTION_MAX, in the tab's order. */
  strIds: number[];
  /** How many the selection holds (more than `strIds` when it was over the cap). */
  selected: number;
}

/**
 * The str_ids a Structures-tab selection names. Rows ticked one by one are their ids; "select all"
 * (every page, minus the unticked) is read from the tab a large page at a time, as the tab shows
 * it (its "go to" and similarity window apply), until the cap is reached.
 */
export async function selectedStructures(
  selection: Selection,
  rowCount: number,
  readPage: (body: Pick<TabRequest, 'pageNumber' | 'pageSize'>, signal?: AbortSignal) => Promise<TabPage | undefined>,
  signal?: AbortSignal,
  max = PREDICTION_SELECTION_MAX,
): Promise<SelectedStructures> {
  if (!selection.selectAll) {
    const unique = [...new Set(selection.selectedIds)];
    return { strIds: unique.slice(0, max), selected: unique.length };
  }
  const unselected = new Set(selection.unselectedIds);
  const selected = Math.max(0, rowCount - unselected.size);
  const strIds: number[] = [];
  for (let pageNumber = START_PAGE; strIds.length < max; pageNumber += 1) {
    const page = await readPage({ pageNumber, pageSize: MAX_PAGE_SIZE }, signal);
    const rows = page?.data ?? [];
    for (const row of rows) {
      const id = Number(row.str_id);
      if (Number.isInteger(id) && id > 0 && !unselected.has(id) && strIds.length < max) strIds.push(id);
    }
    if (rows.length < MAX_PAGE_SIZE) break;
  }
  return { strIds, selected: Math.max(selected, strIds.length) };
}

/** What a selection's answers rest on: answered, unreadable, outside the domain, and without a confident target. */
export interface PredictionTally {
  /** Structures predicted (no error). */
  answered: number;
  /** Structures that could not be predicted (unknown id, unreadable). */
  failed: number;
  /** Answered structures unlike the measured data. */
  outside: number;
  /** Answered structures no target reaches the threshold for ("no target predicted with confidence"). */
  abstained: number;
}

/** Counts a selection's answers for the notes above its table. */
export function tallyPredictions(predictions: readonly BatchPrediction[]): PredictionTally {
  const tally: PredictionTally = { answered: 0, failed: 0, outside: 0, abstained: 0 };
  for (const prediction of predictions) {
    if (prediction.error !== null) {
      tally.failed += 1;
      continue;
    }
    tally.answered += 1;
    if (!prediction.inDomain) tally.outside += 1;
    if (prediction.abstained || prediction.targets.length === 0) tally.abstained += 1;
  }
  return tally;
}

export interface BatchProgress {
  done: number;
  total: number;
  predictions: BatchPrediction[];
  model: ModelStatus | null;
}

/**
 * Sends the batches `concurrency` at a time, reporting after each answer. An abort stops sending
 * (the calls in flight are aborted too) and rejects; what arrived before stays with the caller
 * through `onProgress`.
 */
export async function runBatches(
  strIds: readonly number[],
  call: (strIds: number[], signal: AbortSignal) => Promise<PredictBatchResponse>,
  options: { signal: AbortSignal; onProgress: (progress: BatchProgress) => void; concurrency?: number; size?: number },
): Promise<BatchProgress> {
  const batches = splitBatches(strIds, options.size);
  const progress: BatchProgress = { done: 0, total: strIds.length, predictions: [], model: null };
  // A failed batch stops the other worker too: the caller shows the error with what arrived.
  const failed = new AbortController();
  const signal = AbortSignal.any([options.signal, failed.signal]);
  let next = 0;
  const worker = async () => {
    try {
      while (next < batches.length) {
        signal.throwIfAborted();
        const batch = batches[next++]!;
        const answer = await call(batch, signal);
        signal.throwIfAborted();
        progress.predictions = [...progress.predictions, ...answer.predictions];
        progress.model = answer.model;
        progress.done += batch.length;
        options.onProgress({ ...progress });
      }
    } catch (error) {
      failed.abort(error);
      throw error;
    }
  };
  // A few at a time: the server ranks one while its scan workers score the next, without crowding it.
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? PREDICTION_BATCH_CONCURRENCY, batches.length) }, worker));
  return progress;
}

import { describe, expect, it } from 'vitest';
import type { PredictBatchResponse } from '@kb/contracts/prediction';
import type { TabPage } from '@kb/contracts/results';
import type { BatchPrediction } from '@kb/contracts/prediction';
import { runBatches, selectedStructures, splitBatches, tallyPredictions } from './selection-batches.ts';

const model = { state: 'not-installed', name: null, targets: 0, message: null } as const;
const answer = (ids: number[]): PredictBatchResponse => ({
  predictions: ids.map((strId) => ({ strId, error: null, inDomain: true, abstained: true, targets: [] })),
  model,
  elapsedMs: 1,
});
const page = (ids: number[]) => ({ data: ids.map((str_id) => ({ str_id })) }) as unknown as TabPage;

describe('a selection predicted in batches', () => {
  it('splits 120 structures into batches of 50, 50 and 20', () => {
    expect(splitBatches(Array.from({ length: 120 }, (_, i) => i + 1)).map((b) => b.length)).toEqual([50, 50, 20]);
  });

  it('reads "select all" from the tab, without the unticked rows, up to the cap', async () => {
    const pages = [Array.from({ length: 500 }, (_, i) => i + 1), Array.from({ length: 500 }, (_, i) => i + 501), [1001, 1002]];
    const asked: number[] = [];
    const found = await selectedStructures({ selectAll: true, selectedIds: [], unselectedIds: [2, 3] }, 1002, async ({ pageNumber }) => {
      asked.push(pageNumber!);
      return page(pages[pageNumber!] ?? []);
    });
    expect(found.strIds).toHaveLength(1000);
    expect(found.strIds.slice(0, 2)).toEqual([1, 4]);
    expect(found.selected).toBe(1000);
    expect(asked).toEqual([0, 1, 2]);
  });

  it('reports progress after each batch and keeps every answer', async () => {
    const seen: number[] = [];
    const result = await runBatches(
      Array.from({ length: 120 }, (_, i) => i + 1),
      async (ids) => answer(ids),
      { signal: new AbortController().signal, onProgress: (p) => seen.push(p.done) },
    );
    expect(result.predictions).toHaveLength(120);
    expect(seen.at(-1)).toBe(120);
    expect(seen).toHaveLength(3);
  });

  it('stops sending when cancelled', async () => {
    const controller = new AbortController();
    let calls = 0;
    const run = runBatches(
      Array.from({ length: 500 }, (_, i) => i + 1),
      async (ids) => {
        calls += 1;
        if (calls === 2) controller.abort();
        return answer(ids);
      },
      { signal: controller.signal, onProgress: () => undefined, concurrency: 1 },
    );
    await expect(run).rejects.toThrow();
    expect(calls).toBe(2);
  });

  it('counts the compounds no target is predicted for with confidence apart from those that failed', () => {
    const target = {
      targetId: 1,
      chemblId: 'CHEMBL203',
      name: 'Epidermal growth factor receptor erbB1',
      geneSymbol: 'EGFR',
      family: 'kinase' as const,
      probability: 0.62,
      eValue: 1e-9,
      modelProbability: 0.28,
      measured: false,
    };
    const predictions: BatchPrediction[] = [
      { strId: 1, error: null, inDomain: true, abstained: false, targets: [target] },
      { strId: 2, error: null, inDomain: true, abstained: true, targets: [] },
      { strId: 3, error: null, inDomain: false, abstained: true, targets: [] },
      { strId: 4, error: 'Structure 4 is not in the knowledge base', inDomain: false, abstained: true, targets: [] },
    ];
    expect(tallyPredictions(predictions)).toEqual({ answered: 3, failed: 1, outside: 1, abstained: 2 });
  });
});

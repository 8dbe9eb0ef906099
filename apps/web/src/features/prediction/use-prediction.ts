import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { predictionEndpoints } from '@kb/contracts/prediction';
import type { EndpointInput } from '@kb/contracts/endpoint';
import { errorMessage } from '../../app/api-client.ts';
import { endpointQuery } from '../../app/query.ts';
import { rowHasValue } from '../search/builder/row-criteria.ts';
import { criteriaToDrafts } from '../search/builder/row-restore.ts';
import { useSearchBuilderStore } from '../search/builder/search-builder-store.ts';
import { runSearch } from '../search/run/use-search-runner.ts';
import { useConfirm } from '../../app/ui/confirm-dialog.tsx';
import { targetActivesCriteria, targetActivesSummary } from './prediction-format.ts';

/** Targets a panel lists (the best by the combined rank). */
const PANEL_TARGET_LIMIT = 15;

/** A drawn or typed structure as the prediction call takes it. */
export type PredictionStructure = EndpointInput<typeof predictionEndpoints.predictTargets>['body']['structure'];

/**
 * The predicted targets of one structure. A prediction depends only on the structure and the loaded
 * data, so an answer is kept for a few minutes: reopening the panel does not ask again.
 */
export function usePredictedTargets(structure: PredictionStructure | null, enabled = true) {
  const input = { body: { structure: structure ?? { kind: 'smiles' as const, text: '', desalt: true }, limit: PANEL_TARGET_LIMIT } };
  return useQuery({
    ...endpointQuery(predictionEndpoints.predictTargets, input),
    enabled: enabled && structure !== null && structure.text.trim().length > 0,
    staleTime: 5 * 60_000,
    retry: false,
  });
}

/** The model's state as the superadmin card shows it (with the model folder and a failed file's fault). */
export function useAdminModelStatus(enabled = true) {
  return useQuery({ ...endpointQuery(predictionEndpoints.adminModelStatus, {}), enabled, staleTime: 60_000 });
}

export interface ActivesTarget {
  targetId: number;
  name: string;
  geneSymbol: string | null;
  thresholdNm: number;
}

/**
 * "Search its measured actives": the search builder gets a Target row (that target exactly) AND
 * an activity row (the potency types the ensemble counts, at or below the family's threshold),
 * and the search runs as any search does, opening its Structures tab. Rows the user has not
 * searched or saved are asked about first; a failed search leaves the rows on the search page
 * with the server's message.
 */
export function useSearchTargetActives() {
  const navigate = useNavigate();
  const [running, setRunning] = useState<number | null>(null);
  const [confirm, confirmDialog] = useConfirm();

  const open = async (target: ActivesTarget) => {
    const { rows, dirty } = useSearchBuilderStore.getState();
    if (dirty && rows.some(rowHasValue)) {
      const ok = await confirm({
        title: `Search the actives of ${target.name}?`,
        detail: 'The rows in your search builder have not been searched or saved and will be replaced by this search.',
        confirmLabel: 'Replace and search',
      });
      if (!ok) return;
    }
    const criteria = targetActivesCriteria(target);
    setRunning(target.targetId);
    try {
      useSearchBuilderStore.getState().replaceRows(criteriaToDrafts(criteria));
      const outcome = await runSearch(criteria, targetActivesSummary(target));
      if (outcome.kind === 'counts' || outcome.kind === 'no-data') navigate('/results/structuretab');
      // The search page shows why it failed, next to the rows.
      else if (outcome.kind === 'failed') navigate('/search');
    } catch (error) {
      notifications.show({ color: 'red', title: 'The search could not run', message: errorMessage(error) });
    } finally {
      setRunning(null);
    }
  };

  return { open, running, confirmDialog };
}

import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { PREDICTION_CONFIDENT_PROBABILITY, predictionEndpoints } from '@kb/contracts/prediction';
import type { EndpointInput } from '@kb/contracts/endpoint';
import { errorMessage } from '../../app/api-client.ts';
import { endpointQuery } from '../../app/query.ts';
import { mayReplaceRows, replaceAndRun } from '../search/run/replace-and-run.ts';
import { useConfirm } from '../../app/ui/confirm-dialog.tsx';
import { targetActivesCriteria, targetActivesSummary, targetMeasurementsCriteria, targetMeasurementsSummary } from './prediction-format.ts';

/** Targets a panel lists (the most probable first). */
const PANEL_TARGET_LIMIT = 15;

/** A drawn or typed structure as the prediction call takes it. */
export type PredictionStructure = EndpointInput<typeof predictionEndpoints.predictTargets>['body']['structure'];

/**
 * The predicted targets of one structure: those the server predicts with confidence (its
 * threshold), or with `minProbability` 0 every candidate (the weaker hypotheses, asked for by the
 * user). A prediction depends only on the structure and the loaded data, so an answer is kept for a
 * few minutes: reopening the panel does not ask again.
 */
export function usePredictedTargets(
  structure: PredictionStructure | null,
  enabled = true,
  minProbability = PREDICTION_CONFIDENT_PROBABILITY,
) {
  const input = {
    body: { structure: structure ?? { kind: 'smiles' as const, text: '', desalt: true }, limit: PANEL_TARGET_LIMIT, minProbability },
  };
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
  /** The family's threshold; null searches every measurement of the target (its family unknown here). */
  thresholdNm: number | null;
}

/**
 * "Search its measured actives": the search builder gets a Target row (that target exactly) AND
 * an activity row (the potency types the ensemble counts, at or below the family's threshold),
 * and the search runs as any search does, opening its Structures tab; for a target whose family is
 * not known here (a model-only target's related one), the Target row alone: every measurement of it.
 * Rows the user has not
 * searched or saved are asked about first; a failed search leaves the rows on the search page
 * with the server's message.
 */
export function useSearchTargetActives() {
  const navigate = useNavigate();
  const [running, setRunning] = useState<number | null>(null);
  const [confirm, confirmDialog] = useConfirm();

  const open = async (target: ActivesTarget) => {
    if (!(await mayReplaceRows(confirm, `Search the ${target.thresholdNm === null ? 'measurements' : 'actives'} of ${target.name}?`)))
      return;
    const { thresholdNm } = target;
    const [criteria, summary] =
      thresholdNm === null
        ? [targetMeasurementsCriteria(target), targetMeasurementsSummary(target)]
        : [targetActivesCriteria({ ...target, thresholdNm }), targetActivesSummary({ ...target, thresholdNm })];
    setRunning(target.targetId);
    try {
      const outcome = await replaceAndRun(criteria, summary);
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

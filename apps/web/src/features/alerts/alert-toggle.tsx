import { Switch, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery } from '@tanstack/react-query';
import { alertEndpoints } from '@kb/contracts/alerts';
import { callApi, errorMessage } from '../../app/api-client.ts';
import { endpointQuery } from '../../app/query.ts';
import { invalidateSavedSearchAlerts } from './alert-queries.ts';

/** "Alert me" on one saved search: new rows after a data update make a notification (and an e-mail, per the settings). */
export function AlertToggle({ criteriaId, name }: { criteriaId: number; name: string }) {
  // One call for the whole list: every toggle reads the same cached answer.
  const states = useQuery(endpointQuery(alertEndpoints.savedSearchAlerts, {}));
  const on = states.data?.rows.find((row) => row.criteriaId === criteriaId)?.alert ?? false;
  const change = useMutation({
    mutationFn: (alert: boolean) => callApi(alertEndpoints.setSavedSearchAlert, { params: { criteriaId }, body: { alert } }),
    onSuccess: (state) => {
      void invalidateSavedSearchAlerts();
      notifications.show({
        color: 'green',
        message: state.alert ? `You will be notified when a data update brings new rows for “${name}”.` : `No more alerts for “${name}”.`,
      });
    },
    onError: (error) => notifications.show({ color: 'red', message: errorMessage(error) }),
  });
  return (
    <Tooltip label="Notify me when a data update brings new rows for this search">
      <Switch
        size="xs"
        label="Alert me"
        aria-label={`Alert me about new rows for ${name}`}
        checked={change.isPending ? (change.variables ?? on) : on}
        disabled={states.isPending || states.isError || change.isPending}
        onChange={(event) => change.mutate(event.currentTarget.checked)}
        data-testid="alert-toggle"
      />
    </Tooltip>
  );
}

import { Alert, Button, Group, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { NestedModal } from './nested-dialogs.tsx';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { AdminUser, CreditChange, CreditEntry } from '@kb/contracts/admin-accounts';
import { adminAccountEndpoints } from '@kb/contracts/admin-accounts';
import { callApi, errorMessage } from '../../../app/api-client.ts';
import { formatCount } from '../../../app/format/count-format.ts';
import { endpointQuery } from '../../../app/query.ts';
import { DataTable } from '../../../app/ui/data-table.tsx';
import type { DataColumn } from '../../../app/ui/data-table.tsx';
import { QueryView } from '../../../app/ui/query-view.tsx';
import { CREDIT_KIND_LABEL, formatCreditDelta, formatMoment } from './account-format.ts';
import type { CreditFormValues } from './account-forms.ts';
import { apiErrorField, toCreditChange } from './account-forms.ts';
import { useRefreshAccounts } from './account-queries.ts';
import { useConfirmAction } from './use-confirm-action.tsx';

const LEDGER_PAGE = 10;

const LEDGER_COLUMNS: readonly DataColumn<CreditEntry>[] = [
  { key: 'when', header: 'When', cell: (row) => formatMoment(row.createdAt), cellProps: { style: { whiteSpace: 'nowrap' } } },
  { key: 'kind', header: 'Kind', cell: (row) => CREDIT_KIND_LABEL[row.kind] },
  {
    key: 'delta',
    header: 'Credits',
    align: 'right',
    cell: (row) => (
      <Text size="sm" c={row.delta < 0 ? 'red' : 'green'}>
        {formatCreditDelta(row.delta)}
      </Text>
    ),
  },
  { key: 'after', header: 'Balance', align: 'right', cell: (row) => formatCount(row.balanceAfter) },
  { key: 'reason', header: 'Reason', cell: (row) => row.reason || (row.exportJobId !== null ? `Export job ${row.exportJobId}` : '—') },
  { key: 'by', header: 'By', cell: (row) => row.actorEmail ?? 'the user' },
];

/** Add credits (a grant) or adjust them either way, with a reason; taking credits away asks first. */
function CreditModal({ user, mode, onClose }: { user: AdminUser; mode: CreditFormValues['mode'] | null; onClose: () => void }) {
  const refresh = useRefreshAccounts();
  const [confirm, confirmDialog] = useConfirmAction();
  const form = useForm<CreditFormValues>({ initialValues: { mode: 'add', amount: '', reason: '' } });
  const change = useMutation({
    mutationFn: (body: CreditChange) => callApi(adminAccountEndpoints.changeCredits, { params: { userId: user.userId }, body }),
    onSuccess: (ledger, body) => {
      notifications.show({
        color: 'green',
        message: `${formatCreditDelta(body.delta)} credits for ${user.email}: the balance is ${formatCount(ledger.balance)}.`,
      });
      refresh();
      onClose();
    },
    onError: (error) => {
      const field = apiErrorField(error);
      if (field === 'delta') form.setFieldError('amount', errorMessage(error));
      else if (field === 'reason') form.setFieldError('reason', errorMessage(error));
    },
  });
  const { reset: resetMutation } = change;
  const { setValues, clearErrors } = form;
  useEffect(() => {
    if (mode) {
      setValues({ mode, amount: '', reason: '' });
      clearErrors();
      resetMutation();
    }
  }, [mode, setValues, clearErrors, resetMutation]);
  const submit = form.onSubmit(async (values) => {
    const checked = toCreditChange(values);
    if (!checked.ok) {
      form.setErrors(checked.errors);
      return;
    }
    if (checked.value.delta < 0) {
      const taken = -checked.value.delta;
      const ok = await confirm({
        title: 'Take credits away',
        detail: `${formatCount(taken)} credits will be taken from ${user.email} (balance ${formatCount(user.creditBalance)}). The balance never goes below zero.`,
        confirmLabel: `Take ${formatCount(taken)} credits`,
        danger: true,
      });
      if (!ok) return;
    }
    change.mutate(checked.value);
  });
  const errorField = apiErrorField(change.error);
  return (
    <NestedModal
      opened={mode !== null}
      onClose={onClose}
      title={mode === 'adjust' ? `Adjust the credits of ${user.email}` : `Add credits for ${user.email}`}
      centered
      zIndex={300}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label="Credits"
            description={mode === 'adjust' ? 'A negative number takes credits away, e.g. -250.' : 'The number of download credits to add.'}
            withAsterisk
            inputMode="numeric"
            data-autofocus
            key={form.key('amount')}
            {...form.getInputProps('amount')}
          />
          <Textarea
            label="Reason"
            description="Kept in the ledger and the audit log."
            withAsterisk
            autosize
            minRows={2}
            maxLength={500}
            key={form.key('reason')}
            {...form.getInputProps('reason')}
          />
          {change.isError && errorField !== 'delta' && errorField !== 'reason' && (
            <Alert color="red" variant="light" role="alert">
              {errorMessage(change.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={change.isPending} data-testid="credits-submit">
              {mode === 'adjust' ? 'Adjust' : 'Add credits'}
            </Button>
          </Group>
        </Stack>
      </form>
      {confirmDialog}
    </NestedModal>
  );
}

/** The balance, the ledger (newest first, paged) and the two ways to change credits. */
export function UserCredits({ user }: { user: AdminUser }) {
  const [page, setPage] = useState(1);
  const [mode, setMode] = useState<CreditFormValues['mode'] | null>(null);
  const ledger = useQuery({
    ...endpointQuery(adminAccountEndpoints.credits, { params: { userId: user.userId }, query: { page, pageSize: LEDGER_PAGE } }),
    placeholderData: keepPreviousData,
  });
  const pages = Math.max(1, Math.ceil((ledger.data?.total ?? 0) / LEDGER_PAGE));
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Title order={4}>Credits</Title>
        <Group gap="xs">
          <Button size="xs" onClick={() => setMode('add')} data-testid="add-credits">
            Add credits
          </Button>
          <Button size="xs" variant="light" onClick={() => setMode('adjust')}>
            Adjust
          </Button>
        </Group>
      </Group>
      <Text size="sm">
        Balance:{' '}
        <Text span fw={700} data-testid="credit-balance">
          {formatCount(ledger.data?.balance ?? user.creditBalance)}
        </Text>
      </Text>
      <QueryView query={ledger} keepsPrevious isEmpty={(data) => data.total === 0} empty="No credit movements yet." skeletonRows={3}>
        {(data) => (
          <>
            <DataTable
              columns={LEDGER_COLUMNS}
              rows={data.rows}
              rowKey={(row) => row.id}
              minWidth={640}
              testId="credit-ledger"
              verticalSpacing={4}
            />
            {pages > 1 && (
              <Group justify="flex-end" gap="xs">
                <Button size="compact-xs" variant="default" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                  Newer
                </Button>
                <Text size="xs" c="dimmed">
                  Page {page} of {pages}
                </Text>
                <Button size="compact-xs" variant="default" disabled={page >= pages} onClick={() => setPage(page + 1)}>
                  Older
                </Button>
              </Group>
            )}
          </>
        )}
      </QueryView>
      <CreditModal user={user} mode={mode} onClose={() => setMode(null)} />
    </Stack>
  );
}

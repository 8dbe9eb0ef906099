import { Alert, Button, Group, Modal, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Organisation, OrganisationInput } from '@kb/contracts/admin-accounts';
import { adminAccountEndpoints } from '@kb/contracts/admin-accounts';
import { callApi, errorMessage } from '../../../app/api-client.ts';
import type { OrganisationFormValues } from './account-forms.ts';
import { apiErrorField, EMPTY_ORGANISATION, toOrganisationInput, toOrganisationUpdate } from './account-forms.ts';
import { useRefreshAccounts } from './account-queries.ts';

function valuesOf(organisation: Organisation | null): OrganisationFormValues {
  if (!organisation) return EMPTY_ORGANISATION;
  return {
    name: organisation.name,
    seats: organisation.seats === null ? '' : String(organisation.seats),
    contactEmail: organisation.contactEmail ?? '',
    notes: organisation.notes,
    active: organisation.active,
  };
}

/** Creates an organisation (`organisation` null) or edits one. */
export function OrganisationFormModal({
  opened,
  organisation,
  onClose,
}: {
  opened: boolean;
  organisation: Organisation | null;
  onClose: () => void;
}) {
  const refresh = useRefreshAccounts();
  const form = useForm<OrganisationFormValues>({ initialValues: valuesOf(organisation) });
  const save = useMutation({
    mutationFn: (body: OrganisationInput) =>
      organisation
        ? callApi(adminAccountEndpoints.updateOrganisation, { params: { organisationId: organisation.id }, body })
        : callApi(adminAccountEndpoints.createOrganisation, { body }),
    onSuccess: (saved) => {
      notifications.show({ color: 'green', message: organisation ? `“${saved.name}” was saved.` : `“${saved.name}” was created.` });
      refresh();
      onClose();
    },
    onError: (error) => {
      const field = apiErrorField(error);
      if (field && field in form.values) form.setFieldError(field, errorMessage(error));
    },
  });
  const { reset: resetMutation } = save;
  const { setValues, resetDirty, clearErrors } = form;
  // Each opening starts from the organisation as it is now, without the last attempt's errors.
  useEffect(() => {
    if (!opened) return;
    setValues(valuesOf(organisation));
    resetDirty(valuesOf(organisation));
    clearErrors();
    resetMutation();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- reset on opening only
  }, [opened, organisation]);

  const submit = form.onSubmit((values) => {
    const checked = organisation ? toOrganisationUpdate(values) : toOrganisationInput(values);
    if (!checked.ok) {
      form.setErrors(checked.errors);
      return;
    }
    save.mutate(checked.value as OrganisationInput);
  });
  // A 400 naming a field shows at that field; any other failure shows in the dialog.
  const errorField = apiErrorField(save.error);
  const dialogError = save.isError && !(errorField && errorField in form.values) ? errorMessage(save.error) : null;

  return (
    <Modal opened={opened} onClose={onClose} title={organisation ? `Edit ${organisation.name}` : 'New organisation'} centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput label="Name" withAsterisk maxLength={200} data-autofocus key={form.key('name')} {...form.getInputProps('name')} />
          <TextInput
            label="Seats"
            description="Users it may have; empty for no limit."
            inputMode="numeric"
            key={form.key('seats')}
            {...form.getInputProps('seats')}
          />
          <TextInput
            label="Contact e-mail"
            type="email"
            maxLength={254}
            key={form.key('contactEmail')}
            {...form.getInputProps('contactEmail')}
          />
          <Textarea label="Notes" autosize minRows={2} maxLength={2000} key={form.key('notes')} {...form.getInputProps('notes')} />
          {organisation && <Switch label="Active" key={form.key('active')} {...form.getInputProps('active', { type: 'checkbox' })} />}
          {dialogError && (
            <Alert color="red" variant="light" role="alert">
              {dialogError}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending} data-testid="organisation-submit">
              {organisation ? 'Save' : 'Create organisation'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

import { PasswordInput } from '@mantine/core';
import { PASSWORD_RULE, TOGGLE_PROPS } from './password-form.ts';

/** What the fields need of a Mantine form (uncontrolled mode): a field's key and its input props. */
interface FormFields {
  key: (path: string) => string;
  getInputProps: (path: string) => object;
}

/**
 * A new password, with the rule under its label, and its confirmation: as every form that sets a
 * password shows them (set-up, password link, change of password). Validation stays with the form
 * (password-form.ts).
 */
export function NewPasswordFields({
  form,
  field,
  label = 'New password',
  confirmLabel = 'Confirm password',
}: {
  form: FormFields;
  field: string;
  label?: string;
  confirmLabel?: string;
}) {
  return (
    <>
      <PasswordInput
        visibilityToggleButtonProps={TOGGLE_PROPS}
        label={label}
        description={PASSWORD_RULE}
        autoComplete="new-password"
        required
        key={form.key(field)}
        {...form.getInputProps(field)}
      />
      <PasswordInput
        visibilityToggleButtonProps={TOGGLE_PROPS}
        label={confirmLabel}
        autoComplete="new-password"
        required
        key={form.key('confirm')}
        {...form.getInputProps('confirm')}
      />
    </>
  );
}

import { Button, Group, Popover, Stack, Text } from '@mantine/core';
import type { ButtonProps } from '@mantine/core';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { CREDIT_RULE_TEXT } from '@kb/contracts/exports';
import { formatCount } from '../../app/format/count-format.ts';
import { countNoun } from '../../app/format/plural.ts';
import type { NounForms } from '../../app/format/plural.ts';

export interface CreditQuestionProps extends Omit<ButtonProps, 'children'> {
  /** The button's label ("Export…", "Export CSV"). */
  label: ReactNode;
  /** Records the file would hold. */
  rows: number;
  /** What a record is here, for the question ("compound", "activity", "record"). */
  noun: string | NounForms;
  /** The format as the question names it ("Excel (XLSX)"). */
  formatLabel: string;
  /** The price: one credit per record, as the server will charge it (and is sent as `expectedCredits`). */
  credits: number;
  /** The user's balance, when known. */
  balance: number | undefined;
  /** Export pressed: the only place the credits are spent. */
  onConfirm: () => void;
  /** Above the question, inside it (a format choice). */
  choices?: ReactNode;
  /** Said under the rule (how values are written). */
  note?: string;
  /** Names the parts: `-question`, `-confirm`, `-cancel`; the button is `-open` unless `buttonTestId` says. */
  testId: string;
  buttonTestId?: string;
}

/**
 * The one question every export that spends download credits asks before it spends them (results
 * tabs, SAR table, dynamic query, measurement list, sheet): "Export 646 compounds as Excel (XLSX)
 * for 646 download credits? Your balance is 5,000." Nothing is charged before Export is pressed;
 * Cancel, Escape or a click elsewhere spends nothing.
 */
export function CreditQuestion({
  label,
  rows,
  noun,
  formatLabel,
  credits,
  balance,
  onConfirm,
  choices,
  note,
  testId,
  buttonTestId = `${testId}-open`,
  ...buttonProps
}: CreditQuestionProps) {
  const [opened, setOpened] = useState(false);
  return (
    <Popover opened={opened} onChange={setOpened} trapFocus returnFocus withArrow position="bottom-start" shadow="md">
      <Popover.Target>
        <Button {...buttonProps} onClick={() => setOpened((open) => !open)} aria-haspopup="dialog" data-testid={buttonTestId}>
          {label}
        </Button>
      </Popover.Target>
      <Popover.Dropdown maw={360} role="dialog" aria-label="Spend download credits?">
        <Stack gap="xs">
          {choices}
          <Text size="sm" data-testid={`${testId}-question`} data-credits={credits}>
            Export {countNoun(rows, noun)} as {formatLabel} for <strong>{countNoun(credits, 'download credit')}</strong>?
            {balance === undefined ? '' : ` Your balance is ${formatCount(balance)}.`}
          </Text>
          <Text size="xs" c="dimmed">
            {CREDIT_RULE_TEXT}
            {note ? ` ${note}` : ''}
          </Text>
          <Group justify="flex-end" gap="xs">
            <Button size="xs" variant="default" onClick={() => setOpened(false)} data-testid={`${testId}-cancel`}>
              Cancel
            </Button>
            <Button
              size="xs"
              data-testid={`${testId}-confirm`}
              onClick={() => {
                setOpened(false);
                onConfirm();
              }}
            >
              Export
            </Button>
          </Group>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

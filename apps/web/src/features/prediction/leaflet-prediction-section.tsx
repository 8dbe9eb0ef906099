import { Button, Text } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconTargetArrow } from '@tabler/icons-react';
import { useState } from 'react';
import { LeafletSection } from '../../app/ui/leaflet-ui.tsx';
import { PredictedTargetsPanel } from './predicted-targets-panel.tsx';

/**
 * The compound leaflet's "Predicted targets": closed until asked for, so the leaflet opens as fast
 * as before; opened, it predicts for the leaflet's structure (the compound is in the knowledge
 * base, so targets it was measured on are marked with the measured value).
 */
export function LeafletPredictionSection({ smiles }: { smiles: string }) {
  const [open, setOpen] = useState(false);
  return (
    <LeafletSection
      id="prediction"
      title="Predicted targets"
      meta="How probable it is that this compound is active on each target, from its nearest measured neighbours and the multitask model, with the evidence"
      actions={
        <Button
          size="compact-sm"
          variant={open ? 'default' : 'light'}
          leftSection={open ? <IconChevronUp size={14} /> : <IconTargetArrow size={14} />}
          rightSection={open ? undefined : <IconChevronDown size={14} />}
          onClick={() => setOpen((value) => !value)}
          aria-expanded={open}
          aria-controls="prediction-body"
          data-testid="leaflet-predict-targets"
        >
          {open ? 'Hide' : 'Predict targets'}
        </Button>
      }
    >
      <div id="prediction-body">
        {open ? (
          // The stored structure as it is (a salt too): the server then knows it as this compound, marks
          // its measured targets and never uses its own measurements as evidence.
          <PredictedTargetsPanel structure={{ kind: 'smiles', text: smiles, desalt: false }} />
        ) : (
          <Text size="sm" c="dimmed">
            Predicted on request: a hypothesis to confirm by experiment, never a measurement.
          </Text>
        )}
      </div>
    </LeafletSection>
  );
}

import { Button, Drawer, Tooltip } from '@mantine/core';
import { IconTargetArrow } from '@tabler/icons-react';
import { useState } from 'react';
import { PredictedTargetsPanel } from './predicted-targets-panel.tsx';
import type { PredictionStructure } from './use-prediction.ts';
import type { RowStructure } from '../search/rows/structure-actions.tsx';

/** The row's structure as the prediction takes it; null for a name, InChIKey or SMARTS (no one structure to predict for). */
function predictionStructureOf(row: RowStructure): PredictionStructure | null {
  if ((row.inputType !== 'smiles' && row.inputType !== 'molfile') || !row.value.trim()) return null;
  return { kind: row.inputType, text: row.value, desalt: row.feature === 'desalted' };
}

/**
 * "Predict targets" for a structure row of the search page: the drawn or typed structure's
 * predicted targets in a drawer beside the builder (the rows stay as they are). The structure is
 * taken when the drawer opens, so editing the row behind it does not ask again at each keystroke.
 */
export function PredictTargetsButton({ row }: { row: RowStructure }) {
  const [opened, setOpened] = useState<PredictionStructure | null>(null);
  const structure = predictionStructureOf(row);
  const button = (
    <Button
      size="xs"
      variant="light"
      leftSection={<IconTargetArrow size={14} />}
      disabled={!structure}
      onClick={() => setOpened(structure)}
      data-testid="predict-targets"
    >
      Predict targets
    </Button>
  );
  return (
    <>
      {structure ? (
        button
      ) : (
        <Tooltip label="Draw a structure, or type SMILES or a molfile, to predict its targets">{<span>{button}</span>}</Tooltip>
      )}
      <Drawer
        opened={opened !== null}
        onClose={() => setOpened(null)}
        position="right"
        size="min(1180px, 96vw)"
        title="Predicted targets"
        closeButtonProps={{ 'aria-label': 'Close the predicted targets' }}
        data-testid="prediction-drawer"
      >
        {opened && <PredictedTargetsPanel structure={opened} showQuery />}
      </Drawer>
    </>
  );
}

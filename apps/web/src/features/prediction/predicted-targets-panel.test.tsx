import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { PREDICTION_DISCLAIMER } from '@kb/contracts/prediction';
import type { PredictTargetsResponse, PredictedTarget } from '@kb/contracts/prediction';
import { PredictionAnswer } from './predicted-targets-panel.tsx';

/** A target as the server answers it: an EGFR-like kinase with two papers and many actives unless told. */
function buildTarget(overrides: Partial<PredictedTarget> & Pick<PredictedTarget, 'targetId' | 'name' | 'probability'>): PredictedTarget {
  return {
    chemblId: `CHEMBL${overrides.targetId}`,
    geneSymbol: null,
    organism: 'Homo sapiens',
    family: 'kinase',
    thresholdNm: 30,
    ranks: { combined: 1, nearest: 1, similarity: 1, multitask: null },
    domain: { nearestSimilarity: 0.71, actives: 120, documents: 9 },
    similarity: { eValue: 3e-12, rawScore: 3.1, maxSimilarity: 0.71, actives: 120, hits: 5, probability: 0.55 },
    multitask: null,
    evidence: [],
    measured: null,
    ...overrides,
  };
}

function buildAnswer(overrides: Partial<PredictTargetsResponse> = {}): PredictTargetsResponse {
  return {
    query: { smiles: 'COc1cc2ncnc(Nc3ccc(F)c(Cl)c3)c2cc1OC', strId: null },
    domain: { nearestSimilarity: 0.71, nearestStrId: 12, threshold: 0.3, scanMin: 0.3, inDomain: true, message: null },
    model: { state: 'not-installed', name: null, targets: 0, message: 'No model.' },
    measuredElsewhere: 0,
    targets: [],
    belowThreshold: 0,
    abstention: null,
    modelOnly: [],
    calibration: { source: 'knowledge base', queries: 400, pairs: 12_000, positives: 610, brier: 0.061, threshold: 0.2 },
    ensemble: { targets: 80, actives: 9_000, threshold: 0.3 },
    disclaimer: PREDICTION_DISCLAIMER,
    elapsedMs: 42,
    ...overrides,
  };
}

/** The answer as the panel writes it (static markup: what is on screen before any click). */
function render(answer: PredictTargetsResponse, weaker = false): string {
  return renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <MantineProvider>
        <MemoryRouter>
          <PredictionAnswer answer={answer} showQuery={false} weaker={weaker} onWeaker={() => undefined} />
        </MemoryRouter>
      </MantineProvider>
    </QueryClientProvider>,
  );
}

/** The markup's text, tags dropped and spaces folded (a no-break space stays one: percentages keep it). */
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/[ \t\n\r]+/g, ' ');

describe('the predicted-targets panel', () => {
  it('shows calibrated probabilities as percentages, most probable first, under what they mean, and the weaker ones left out', () => {
    const answer = buildAnswer({
      targets: [
        buildTarget({ targetId: 1, name: 'Epidermal growth factor receptor erbB1', probability: 0.62 }),
        buildTarget({ targetId: 2, name: 'Receptor protein-tyrosine kinase erbB-2', probability: 0.35 }),
      ],
      belowThreshold: 3,
    });
    const shown = text(render(answer));
    expect(shown).toContain(
      'Probability that the compound is active on the target (at or below the family’s threshold), calibrated on this knowledge base’s compounds with their own papers held out.',
    );
    expect(shown.indexOf('62\u00a0%')).toBeGreaterThan(0);
    expect(shown.indexOf('62\u00a0%')).toBeLessThan(shown.indexOf('35\u00a0%'));
    expect(shown).toContain('3 weaker candidates below 20\u00a0% not shown — Show');
    expect(shown).not.toContain('No target predicted with confidence');
  });

  it('cautions about a target that rests on one paper, in its row and in its opened detail', () => {
    const answer = buildAnswer({
      targets: [
        buildTarget({
          targetId: 1,
          name: 'Tyrosine-protein kinase ABL',
          probability: 0.4,
          domain: { nearestSimilarity: 0.52, actives: 14, documents: 1 },
        }),
      ],
    });
    const html = render(answer);
    expect(html.match(/data-testid="prediction-thin-data-badge"/g)).toHaveLength(1);
    expect(text(html)).toContain('rests on 1 paper');
    // The first row opens with its detail: the ensemble's E-value and how to read it, the target's own data.
    expect(text(html)).toContain('below 0.01 is strong, above 1 means no better than chance');
    expect(text(html)).toContain('14 actives from 1 paper');
    expect(html).toContain('data-testid="prediction-thin-data"');
  });

  it('answers “no target predicted with confidence” without a list, with the nearest measured compounds and the weaker hypotheses on request', () => {
    const answer = buildAnswer({
      domain: {
        nearestSimilarity: null,
        nearestStrId: null,
        threshold: 0.3,
        scanMin: 0.3,
        inDomain: false,
        message: 'Unlike anything measured.',
      },
      belowThreshold: 4,
      abstention: {
        message: 'No target predicted with confidence: no target reaches 20 %.',
        nearest: [
          {
            strId: 77,
            smiles: 'CCO',
            similarity: 0.24,
            activeOn: [{ targetId: 5, name: 'Carbonic anhydrase II', valueNm: 12, pActivity: 7.92 }],
          },
        ],
      },
    });
    const html = render(answer);
    const shown = text(html);
    expect(shown).toContain('No target predicted with confidence');
    // The server's reason reads once under the title.
    expect(shown).toContain('No target reaches 20 %.');
    expect(shown.match(/No target predicted with confidence/gi)).toHaveLength(1);
    expect(html).not.toContain('data-testid="prediction-table"');
    expect(html).toContain('href="/leaflet/structure/77"');
    expect(shown).toContain('Carbonic anhydrase II');
    expect(shown).toContain('pActivity 7.92 (12 nM)');
    expect(shown).toContain('Show weaker hypotheses');
    expect(html).toContain('data-testid="prediction-domain-warning"');
  });

  it('says there is no weaker candidate either when the threshold left none out', () => {
    const answer = buildAnswer({ abstention: { message: 'Nothing near.', nearest: [] }, belowThreshold: 0 });
    const shown = text(render(answer));
    expect(shown).toContain('No target predicted with confidence');
    expect(shown).not.toContain('Show weaker hypotheses');
    expect(shown).toContain('There is no weaker candidate either');
  });

  it('lists the weaker hypotheses under a banner, those below the threshold marked', () => {
    const answer = buildAnswer({
      targets: [buildTarget({ targetId: 1, name: 'Carbonic anhydrase II', probability: 0.08, family: 'other', thresholdNm: 1000 })],
      calibration: { source: 'knowledge base', queries: 400, pairs: 12_000, positives: 610, brier: 0.061, threshold: 0 },
    });
    const shown = text(render(answer, true));
    expect(shown).toContain('Below the confidence threshold: hypotheses only');
    expect(shown).toContain('8\u00a0%');
    expect(shown).toContain('hypothesis');
    expect(shown).not.toContain('weaker candidates below');
  });

  it('lists the model’s targets with no measurements here, with their related targets, only when the model is installed', () => {
    const modelOnly: PredictTargetsResponse['modelOnly'] = [
      {
        chemblId: 'CHEMBL1862',
        name: 'Tyrosine-protein kinase ABL1',
        organism: 'Homo sapiens',
        probability: 0.31,
        rawProbability: 0.42,
        zScore: 4.2,
        eValue: 0.003,
        related: [
          { targetId: 9, chemblId: null, name: 'Bcr/Abl fusion protein', organism: 'Homo sapiens', relation: 'component', actives: 120 },
          {
            targetId: 10,
            chemblId: null,
            name: 'Tyrosine-protein kinase ABL1',
            organism: 'Mus musculus',
            relation: 'orthologue',
            actives: 8,
          },
        ],
      },
    ];
    const targets = [buildTarget({ targetId: 1, name: 'Epidermal growth factor receptor erbB1', probability: 0.62 })];
    const installed = { state: 'installed' as const, name: 'ChEMBL 37 multitask', targets: 798, message: null };
    const html = render(buildAnswer({ targets, modelOnly, model: installed }));
    const shown = text(html);
    expect(shown).toContain('Model only: no measurements in this knowledge base');
    expect(shown).toContain('CHEMBL1862');
    expect(shown).toContain('31\u00a0%');
    expect(shown).toContain('E 0.003');
    expect(html.match(/data-testid="prediction-related"/g)).toHaveLength(2);
    expect(html).toContain('data-relation="orthologue"');
    expect(shown).toContain('120 actives');
    expect(render(buildAnswer({ targets, modelOnly }))).not.toContain('prediction-model-only');
  });
});

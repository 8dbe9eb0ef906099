import type { FastifyInstance } from 'fastify';
import { predictionEndpoints } from '@kb/contracts/prediction';
import { clientGoneSignal, registerEndpoint } from '../../http/endpoint-route.ts';
import { badRequest } from '../../http/errors.ts';
import { ChemInputError, isChemStopped } from '../chemistry/chem-engine.ts';
import { chemInputMessage, chemQueryOf } from '../chemistry/chem-query.ts';
import type { ModelRegistry } from './model-registry.ts';
import { ModelFileError } from './multitask/multitask-model.ts';
import type { PredictionService } from './prediction-service.ts';

export interface PredictionModule {
  service: PredictionService;
  /** The installed model (PREDICTION_MODEL_DIR): status, install and reload. */
  models: ModelRegistry;
}

/** A prediction stopped (its caller left, or RDKit's time limit on the query) answers 400 in words; other errors pass on. */
function stoppedOr(error: unknown): unknown {
  if (isChemStopped(error)) return badRequest('The prediction was stopped before it finished. Try again.');
  return error;
}

/** Registers target prediction (packages/contracts/src/prediction.ts); main.ts warms the service. */
export function registerPredictionRoutes(app: FastifyInstance, { service, models }: PredictionModule): void {
  registerEndpoint(app, predictionEndpoints.predictTargets, async ({ body, reply }) => {
    const input = { inputType: body.structure.kind, value: body.structure.text };
    const query = chemQueryOf({ ...input, feature: body.structure.desalt ? 'desalted' : 'asis' });
    try {
      return await service.predict(query, { limit: body.limit, minProbability: body.minProbability }, clientGoneSignal(reply));
    } catch (error) {
      if (error instanceof ChemInputError) throw badRequest(chemInputMessage(input, error.message));
      throw stoppedOr(error);
    }
  });

  registerEndpoint(app, predictionEndpoints.predictBatch, async ({ body, reply }) => {
    try {
      return await service.predictBatch(body.strIds, { limit: body.limit, minProbability: body.minProbability }, clientGoneSignal(reply));
    } catch (error) {
      throw stoppedOr(error);
    }
  });

  registerEndpoint(app, predictionEndpoints.modelStatus, async () => {
    await models.model();
    return models.status();
  });

  registerEndpoint(app, predictionEndpoints.installModel, async ({ body }) => {
    const model = Buffer.from(body.modelBase64, 'base64');
    if (model.length === 0) throw badRequest('The model file is empty or not base64.');
    try {
      return await models.install({ model: new Uint8Array(model), targets: body.targets, name: body.name });
    } catch (error) {
      if (error instanceof ModelFileError) throw badRequest(`This model cannot be installed: ${error.message}`);
      throw error;
    }
  });

  registerEndpoint(app, predictionEndpoints.reloadModel, async () => models.reload());
  registerEndpoint(app, predictionEndpoints.adminModelStatus, async () => {
    await models.model();
    return models.status(true);
  });
}

import type { ModelStatus } from '@kb/contracts/prediction';
import { ModelFileError, loadMultitaskModel, readModelFolder, writeModelFolder } from './multitask/multitask-model.ts';
import type { MultitaskModel } from './multitask/multitask-model.ts';

/**
 * Where a model comes from: said wherever no model is installed. The folder's path is the
 * server's own business: only the super admin's answers name it (`dir`).
 */
function modelSourceMessage(dir: string | null): string {
  return (
    'No target-prediction model is installed; the similarity ensemble predicts without it. To add the ChEMBL multitask model (MIT licence), ' +
    'download chembl_NN_multitask_q8.onnx and targets_NN_all.json from github.com/chembl/chembl_multitask_model (folder trained_models/chembl_NN/) ' +
    `and install them on the Super admin page (Releases), or place both files in the server's model folder (${dir ?? 'PREDICTION_MODEL_DIR'}).`
  );
}

/**
 * The multitask model of this server (docs/prediction.md "Installing a model"): read from the
 * model folder on first use, replaced by an install (checked by running it before it is written)
 * or a reload. One model at a time; a failed load is reported, not retried at every call.
 */
export class ModelRegistry {
  private loading: Promise<MultitaskModel | null> | null = null;
  private current: MultitaskModel | null = null;
  private failure: string | null = null;
  /** Bumped by every load and install: a load that finishes after a newer one does not replace it. */
  private generation = 0;

  constructor(
    private readonly dir: string,
    private readonly log: (message: string) => void = () => {},
  ) {}

  /** The state; `forAdmin` names the model folder (and the file's fault) — users read where to get a model. */
  status(forAdmin = false): ModelStatus {
    const dir = forAdmin ? this.dir : null;
    if (this.current) return { state: 'installed', name: this.current.name, targets: this.current.targets.length, message: null };
    if (this.failure)
      return {
        state: 'failed',
        name: null,
        targets: 0,
        message: forAdmin
          ? `${this.failure} ${modelSourceMessage(dir)}`
          : `The installed model could not be used. ${modelSourceMessage(dir)}`,
      };
    return { state: 'not-installed', name: null, targets: 0, message: modelSourceMessage(dir) };
  }

  /** The model, loading it from the folder the first time; null when none is installed or it failed. */
  async model(): Promise<MultitaskModel | null> {
    this.loading ??= this.loadFromFolder();
    return this.loading;
  }

  async reload(): Promise<ModelStatus> {
    this.loading = this.loadFromFolder();
    await this.loading;
    return this.status(true);
  }

  /** Checks that the files run as a model, then writes them into the folder and uses them. */
  async install(files: { model: Uint8Array; targets: string[]; name: string }): Promise<ModelStatus> {
    const model = await loadMultitaskModel(files);
    try {
      await writeModelFolder(this.dir, files);
    } catch (error) {
      await model.close();
      throw error;
    }
    this.generation += 1;
    await this.swap(model);
    this.failure = null;
    this.loading = Promise.resolve(model);
    return this.status(true);
  }

  async close(): Promise<void> {
    await this.current?.close();
    this.current = null;
  }

  private async loadFromFolder(): Promise<MultitaskModel | null> {
    const generation = ++this.generation;
    try {
      const files = await readModelFolder(this.dir);
      if (generation !== this.generation) return this.current;
      if (!files) {
        await this.swap(null);
        this.failure = null;
        return null;
      }
      const model = await loadMultitaskModel(files);
      if (generation !== this.generation) {
        await model.close();
        return this.current;
      }
      await this.swap(model);
      this.failure = null;
      this.log(`target prediction: model "${model.name}" (${model.targets.length} targets) loaded from ${this.dir}`);
      return model;
    } catch (error) {
      if (generation !== this.generation) return this.current;
      await this.swap(null);
      this.failure =
        error instanceof ModelFileError
          ? `The model in ${this.dir} could not be used: ${error.message}.`
          : `The model in ${this.dir} could not be loaded.`;
      this.log(`target prediction: ${this.failure} ${error instanceof Error ? error.message : String(error)}`);
      return null;
    }
  }

  private async swap(model: MultitaskModel | null): Promise<void> {
    const previous = this.current;
    this.current = model;
    if (previous && previous !== model) await previous.close();
  }
}

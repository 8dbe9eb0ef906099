// The worker thread that reads uploaded files (upload-parser-thread.ts starts it). Plain JS because
// a worker starts without the TypeScript loader; it registers tsx and then runs the same parser
// module the tests exercise directly.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { UploadFileError, readUploadTerms } = await import('./upload-file-parser.ts');

/** Messages: `{ id, fileName, contentBase64 }` in; `{ id, terms }` or `{ id, error, userFacing }` out. */
parentPort.on('message', async ({ id, fileName, contentBase64 }) => {
  try {
    const terms = await readUploadTerms(fileName, contentBase64);
    parentPort.postMessage({ id, terms });
  } catch (error) {
    parentPort.postMessage({
      id,
      error: error instanceof Error ? error.message : String(error),
      userFacing: error instanceof UploadFileError,
    });
  }
});

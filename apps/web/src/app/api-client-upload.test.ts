import { describe, expect, it, vi } from 'vitest';
import { datasetEndpoints } from '@kb/contracts/datasets';
import type { EndpointInput } from '@kb/contracts/endpoint';
import type { AuthValues, SessionEndReason, UploadRequest } from './api-client.ts';
import { ApiRequestError, createUploadClient } from './api-client.ts';

const auth: AuthValues = { nodeToken: 'node', token: 'main', username: 'admin@demo.test', userHashId: 'hash', searchSessionId: null };

const dataset = {
  id: 3,
  datasetType: 'Structures',
  flatfileName: 'structures.sdf',
  flatfileSize: 5,
  uploadedDate: '2025-01-01T00:00:00.000Z',
  description: '',
  roles: ['FULL_USER'],
  fileId: 9,
};

// The query string carries the schema's input: roles comma-separated.
const input = {
  query: { datasetType: 'Structures', fileName: 'structures.sdf', roles: 'FULL_USER,EVALUATE_USER', description: '' },
} as unknown as EndpointInput<typeof datasetEndpoints.upload>;

function setup(answer: (request: UploadRequest) => Promise<Response>) {
  const transport = vi.fn(answer);
  const ended: SessionEndReason[] = [];
  const upload = createUploadClient(
    { fetch: vi.fn(), auth: () => auth, onSessionEnded: (reason) => ended.push(reason), onServerError: vi.fn() },
    transport,
  );
  return { upload, transport, ended };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('upload client', () => {
  it('sends the file bytes as octet-stream with the query and the base-A headers, and reports progress', async () => {
    const { upload, transport } = setup(async (request) => {
      request.onProgress?.(0.5);
      request.onProgress?.(1);
      return json(200, dataset);
    });
    const progress: number[] = [];
    const answer = await upload(datasetEndpoints.upload, input, new Blob(['hello']), { onProgress: (fraction) => progress.push(fraction) });
    expect(answer.fileId).toBe(9);
    expect(progress).toEqual([0.5, 1]);
    const request = transport.mock.calls[0]![0];
    expect(request.method).toBe('PUT');
    expect(request.url).toBe(
      '/api/security/flatfile/upload?datasetType=Structures&fileName=structures.sdf&roles=FULL_USER%2CEVALUATE_USER&description=',
    );
    expect(request.headers['content-type']).toBe('application/octet-stream');
    expect(request.headers.authorization).toBe('Bearer node');
    expect(request.headers.email).toBe('admin@demo.test');
  });

  it('throws the server’s message and status for a refused upload', async () => {
    const { upload } = setup(async () => json(413, { message: 'The file is larger than 256 MiB.', code: 'FILE_TOO_LARGE' }));
    const error = await upload(datasetEndpoints.upload, input, new Blob(['x'])).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({ status: 413, message: 'The file is larger than 256 MiB.', code: 'FILE_TOO_LARGE' });
  });

  it('ends the session when the server says the session timed out', async () => {
    const { upload, ended } = setup(async () => json(401, { message: 'Session ended', code: 'SESSION_IDLE', timeout: true }));
    await expect(upload(datasetEndpoints.upload, input, new Blob(['x']))).rejects.toBeInstanceOf(ApiRequestError);
    expect(ended).toEqual(['timeout']);
  });

  it('turns a lost connection into a network error and an abort into a cancellation', async () => {
    const lost = setup(async () => {
      throw new TypeError('Network Error');
    });
    await expect(lost.upload(datasetEndpoints.upload, input, new Blob(['x']))).rejects.toMatchObject({
      code: 'NETWORK',
      message: 'Network Error',
    });

    const aborted = setup(async () => {
      throw new DOMException('Aborted', 'AbortError');
    });
    await expect(aborted.upload(datasetEndpoints.upload, input, new Blob(['x']))).rejects.toMatchObject({ code: 'CANCELLED' });
  });

  it('refuses an answer that does not match the endpoint’s response', async () => {
    const { upload } = setup(async () => json(200, { unexpected: true }));
    await expect(upload(datasetEndpoints.upload, input, new Blob(['x']))).rejects.toMatchObject({ code: 'BAD_RESPONSE' });
  });
});

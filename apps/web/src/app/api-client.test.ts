import { describe, expect, it, vi } from 'vitest';
import { adminEndpoints, authEndpoints, dashboardEndpoints } from '@kb/contracts/api';
import { searchEndpoints } from '@kb/contracts/search-api';
import { uploadEndpoints } from '@kb/contracts/uploads';
import { CANCELLED_MESSAGES, TOKEN_MISSING_MESSAGE } from '@kb/contracts/errors';
import type { AuthValues, SessionEndReason } from './api-client.ts';
import {
  ApiRequestError,
  buildAuthHeaders,
  buildQueryString,
  createApiClient,
  createDownloadClient,
  secondFactorNeedOf,
  secondFactorTarget,
} from './api-client.ts';
import type { SecondFactorNeed } from './api-client.ts';

const auth: AuthValues = { nodeToken: 'node', token: 'main', username: 'u@demo.test', userHashId: 'hash', searchSessionId: null };

function jsonResponse(status: number, body: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function setup(response: Response | (() => Promise<Response>)) {
  const fetch = vi.fn<typeof globalThis.fetch>(typeof response === 'function' ? response : async () => response);
  const ended: SessionEndReason[] = [];
  const onServerError = vi.fn();
  const call = createApiClient({ fetch, auth: () => auth, onSessionEnded: (reason) => ended.push(reason), onServerError });
  return { call, fetch, ended, onServerError };
}

const loginResult = {
  id: 1,
  username: 'u@demo.test',
  token: 'main',
  userHashId: 'hash',
  applicationDiff: 'kb',
  nodeToken: 'node',
  sessionId: 's',
  tokenExpiresAt: '2030-01-01T00:00:00.000Z',
  secondFactor: 'not_required',
};

describe('api client', () => {
  it('sends the base-A headers of spec §7', () => {
    expect(buildAuthHeaders({ ...auth, searchSessionId: 'search-9' })).toEqual({
      authorization: 'Bearer node',
      javaauthorization: 'Bearer main',
      email: 'u@demo.test',
      'x-custom-token': 'hash',
      'x-custom-session': 'search-9',
    });
    expect(buildAuthHeaders({ nodeToken: null, token: null, username: null, userHashId: null, searchSessionId: null })).toEqual({});
  });

  it('builds query strings, skipping empty values and repeating arrays', () => {
    expect(buildQueryString({ a: 1, b: undefined, c: null, d: ['x', 'y'], e: 'q r' })).toBe('?a=1&d=x&d=y&e=q+r');
    expect(buildQueryString(undefined)).toBe('');
  });

  it('fills path parameters, posts a JSON body and returns the validated answer', async () => {
    const { call, fetch } = setup(jsonResponse(200, loginResult));
    const answer = await call(authEndpoints.generateToken, {
      params: { product: 'gostar' },
      body: { username: 'u@demo.test', password: 'pw' },
    });
    expect(answer).toEqual(loginResult);
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe('/api/pub/gostar/generate-token');
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe(JSON.stringify({ username: 'u@demo.test', password: 'pw' }));
    expect((init?.headers as Record<string, string>)['content-type']).toBe('application/json');
  });

  it('ends the session on 401 "token is missing"', async () => {
    const { call, ended } = setup(jsonResponse(401, { message: TOKEN_MISSING_MESSAGE, code: 'TOKEN_MISSING' }));
    await expect(call(authEndpoints.profile, {})).rejects.toMatchObject({ status: 401, message: TOKEN_MISSING_MESSAGE });
    expect(ended).toEqual(['token-missing']);
  });

  it('ends the session as expired on 401 "token is missing" with SESSION_EXPIRED (absolute lifetime)', async () => {
    const { call, ended } = setup(jsonResponse(401, { message: TOKEN_MISSING_MESSAGE, code: 'SESSION_EXPIRED' }));
    await expect(call(authEndpoints.profile, {})).rejects.toMatchObject({ status: 401, code: 'SESSION_EXPIRED' });
    expect(ended).toEqual(['expired']);
  });

  it('does not end the session on other 401 answers (a wrong password)', async () => {
    const { call, ended } = setup(jsonResponse(401, { message: 'E-mail or password is wrong.', code: 'BAD_CREDENTIALS' }));
    await expect(
      call(authEndpoints.generateToken, { params: { product: 'gostar' }, body: { username: 'x', password: 'y' } }),
    ).rejects.toBeInstanceOf(ApiRequestError);
    expect(ended).toEqual([]);
  });

  it('ends the session when the answer carries timeout: true', async () => {
    const { call, ended } = setup(jsonResponse(401, { message: 'Session expired', code: 'SESSION_IDLE', timeout: true }));
    await expect(call(dashboardEndpoints.loginHistory, {})).rejects.toMatchObject({ timeout: true, code: 'SESSION_IDLE' });
    expect(ended).toEqual(['timeout']);
  });

  it('stops the loader on a 500 and still throws', async () => {
    const { call, onServerError } = setup(jsonResponse(500, { message: 'Internal error', code: 'INTERNAL' }));
    await expect(call(adminEndpoints.subscriptions, {})).rejects.toMatchObject({
      status: 500,
      message: 'Internal error',
      code: 'INTERNAL',
    });
    expect(onServerError).toHaveBeenCalledOnce();
  });

  it('throws status, message, code and retryAfterSeconds for other errors', async () => {
    const { call } = setup(jsonResponse(429, { message: 'Too many attempts', code: 'RATE_LIMITED', retryAfterSeconds: 42 }));
    const error = await call(authEndpoints.profile, {}).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({ status: 429, message: 'Too many attempts', code: 'RATE_LIMITED', retryAfterSeconds: 42 });
  });

  it('gives a generic message when the error body is not the API shape', async () => {
    const { call } = setup(new Response('<html>bad gateway</html>', { status: 502 }));
    await expect(call(authEndpoints.profile, {})).rejects.toMatchObject({ status: 502, message: 'Request failed with status code 502' });
  });

  it('rejects an aborted request with the cancellation message', async () => {
    const controller = new AbortController();
    const { call } = setup(
      () =>
        new Promise<Response>((_, reject) => {
          controller.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const pending = call(authEndpoints.profile, {}, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ message: CANCELLED_MESSAGES.byNewRequest, code: 'CANCELLED' });
  });

  it('reports a network failure as "Network Error"', async () => {
    const { call } = setup(() => Promise.reject(new TypeError('fetch failed')));
    await expect(call(authEndpoints.profile, {})).rejects.toMatchObject({ status: 0, message: 'Network Error' });
  });

  it('rejects an answer that does not match the contract', async () => {
    const { call } = setup(jsonResponse(200, { rows: 'not-an-array' }));
    await expect(call(adminEndpoints.subscriptions, {})).rejects.toMatchObject({ code: 'BAD_RESPONSE' });
  });
});

describe('file downloads', () => {
  function setupDownload(response: Response | (() => Promise<Response>)) {
    const fetch = vi.fn<typeof globalThis.fetch>(typeof response === 'function' ? response : async () => response);
    const ended: SessionEndReason[] = [];
    const onServerError = vi.fn();
    const download = createDownloadClient({ fetch, auth: () => auth, onSessionEnded: (reason) => ended.push(reason), onServerError });
    return { download, fetch, ended, onServerError };
  }
  const body = { listType: 'strid' as const, fileName: 'ids.txt', terms: ['999', '1000'] };

  it('posts with the base-A headers and answers the file as a Blob', async () => {
    const { download, fetch } = setupDownload(new Response('999\n1000\n', { status: 200, headers: { 'content-type': 'text/plain' } }));
    const blob = await download(uploadEndpoints.unreportedTermsDownload, { body });
    expect(blob).toBeInstanceOf(Blob);
    expect(await blob.text()).toBe('999\n1000\n');
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe('/api/security/allmapping/search/unreportedterms/download');
    const headers = init?.headers as Record<string, string>;
    expect(headers).toMatchObject({
      authorization: 'Bearer node',
      javaauthorization: 'Bearer main',
      email: 'u@demo.test',
      accept: 'text/plain',
    });
    expect(init?.body).toBe(JSON.stringify(body));
  });

  it('does not check a file against a JSON schema (a saved query is a file, not an answer)', async () => {
    const file = JSON.stringify({ format: 'kb-search-query/1', name: 'x' });
    const { download } = setupDownload(new Response(file, { status: 200, headers: { 'content-type': 'application/json' } }));
    const blob = await download(searchEndpoints.saveQuery, { body: { name: 'x', searchcriteria: { rows: [] }, appliedFilters: [] } });
    expect(await blob.text()).toBe(file);
  });

  it('throws the API error and ends the session on "token is missing", like callApi', async () => {
    const { download, ended } = setupDownload(jsonResponse(401, { message: TOKEN_MISSING_MESSAGE, code: 'TOKEN_MISSING' }));
    await expect(download(uploadEndpoints.unreportedTermsDownload, { body })).rejects.toMatchObject({
      status: 401,
      message: TOKEN_MISSING_MESSAGE,
    });
    expect(ended).toEqual(['token-missing']);
  });

  it('stops the loader on a 500 and gives the server message', async () => {
    const { download, onServerError } = setupDownload(jsonResponse(500, { message: 'Disk full', code: 'INTERNAL' }));
    await expect(download(uploadEndpoints.unreportedTermsDownload, { body })).rejects.toMatchObject({ status: 500, message: 'Disk full' });
    expect(onServerError).toHaveBeenCalledOnce();
  });

  it('rejects an aborted download with the cancellation message', async () => {
    const controller = new AbortController();
    const { download } = setupDownload(
      () =>
        new Promise<Response>((_, reject) => {
          controller.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const pending = download(uploadEndpoints.unreportedTermsDownload, { body }, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ message: CANCELLED_MESSAGES.byNewRequest, code: 'CANCELLED' });
  });
});

describe('second factor needed mid-session', () => {
  it('reads MFA_REQUIRED and MFA_ENROLMENT_REQUIRED answers (403 only) as the step the session lacks', () => {
    expect(secondFactorNeedOf(403, 'MFA_REQUIRED')).toBe('code_required');
    expect(secondFactorNeedOf(403, 'MFA_ENROLMENT_REQUIRED')).toBe('enrolment_required');
    expect(secondFactorNeedOf(403, 'FORBIDDEN')).toBeNull();
    expect(secondFactorNeedOf(400, 'MFA_REQUIRED')).toBeNull();
    expect(secondFactorNeedOf(403, undefined)).toBeNull();
  });

  it('sends the user to the second-step page and back to the current page after it, but not from that page itself or the login page', () => {
    expect(secondFactorTarget('/admin/dashboard', '?tab=users')).toBe(
      `/account/mfa?redirect=${encodeURIComponent('/admin/dashboard?tab=users')}`,
    );
    expect(secondFactorTarget('/dashboard')).toBe('/account/mfa?redirect=%2Fdashboard');
    expect(secondFactorTarget('/account/mfa', '?redirect=%2Fadmin')).toBeNull();
    expect(secondFactorTarget('/login', '?redirect=%2Fadmin')).toBeNull();
  });

  it('tells the app when a call is refused for want of the second factor, and still throws the server message', async () => {
    const needs: SecondFactorNeed[] = [];
    const fetch = vi.fn<typeof globalThis.fetch>(async () =>
      jsonResponse(403, { message: 'Enter the code from your authenticator app to use administrator pages.', code: 'MFA_REQUIRED' }),
    );
    const call = createApiClient({
      fetch,
      auth: () => auth,
      onSessionEnded: () => undefined,
      onServerError: () => undefined,
      onSecondFactorNeeded: (need) => needs.push(need),
    });
    const error = await call(dashboardEndpoints.loginHistory, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect((error as ApiRequestError).code).toBe('MFA_REQUIRED');
    expect(needs).toEqual(['code_required']);

    fetch.mockImplementation(async () => jsonResponse(403, { message: 'Your subscription does not include this.', code: 'FORBIDDEN' }));
    await call(dashboardEndpoints.loginHistory, {}).catch(() => undefined);
    expect(needs).toEqual(['code_required']);
  });
});

import type { Endpoint, EndpointInput, EndpointResponse } from '@kb/contracts/endpoint';
import { buildPath } from '@kb/contracts/endpoint';
import { ApiErrorSchema, CANCELLED_MESSAGES, ERROR_CODES, TOKEN_MISSING_MESSAGE } from '@kb/contracts/errors';
import { AUTH_HEADERS, SESSION_MAX_AGE_MS } from '@kb/contracts/session';
import { notifications } from '@mantine/notifications';
import { clearBrowserState } from './browser-session.ts';
import { navigateTo } from './navigation.ts';
import { SECOND_FACTOR_PATH, secondFactorUrl } from './route-guard.ts';
import { stopPageLoader } from './page-loader.ts';
import { useSearchSessionStore } from './stores/search-session-store.ts';
import { useSessionStore } from './stores/session-store.ts';
import { resetAllStores } from './stores/store-registry.ts';

/** A failed call: the API's one error shape (`{ message, code, timeout?, retryAfterSeconds? }`) plus the status. */
export class ApiRequestError extends Error {
  readonly status: number;
  readonly code: string;
  readonly timeout: boolean;
  readonly retryAfterSeconds: number | undefined;
  readonly details: unknown;

  constructor(init: { status: number; message: string; code: string; timeout?: boolean; retryAfterSeconds?: number; details?: unknown }) {
    super(init.message);
    this.name = 'ApiRequestError';
    this.status = init.status;
    this.code = init.code;
    this.timeout = init.timeout ?? false;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.details = init.details;
  }
}

export function isApiRequestError(error: unknown): error is ApiRequestError {
  return error instanceof ApiRequestError;
}

/** A message a user can read for any error thrown by a call. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return 'Something went wrong. Please try again.';
}

export interface AuthValues {
  nodeToken: string | null;
  token: string | null;
  username: string | null;
  userHashId: string | null;
  searchSessionId: string | null;
}

/** Spec §7 base A headers; absent values are not sent. */
export function buildAuthHeaders(auth: AuthValues): Record<string, string> {
  const headers: Record<string, string> = {};
  if (auth.nodeToken) headers[AUTH_HEADERS.nodeToken] = `Bearer ${auth.nodeToken}`;
  if (auth.token) headers[AUTH_HEADERS.mainToken] = `Bearer ${auth.token}`;
  if (auth.username) headers[AUTH_HEADERS.email] = auth.username;
  if (auth.userHashId) headers[AUTH_HEADERS.customToken] = auth.userHashId;
  if (auth.searchSessionId) headers[AUTH_HEADERS.customSession] = auth.searchSessionId;
  return headers;
}

/** `?a=1&b=x&b=y`, skipping undefined and null values. */
export function buildQueryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    const values: unknown[] = Array.isArray(value) ? value : [value];
    for (const item of values) search.append(key, typeof item === 'object' ? JSON.stringify(item) : String(item));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

export type SessionEndReason = 'token-missing' | 'timeout' | 'expired';

/** What a refused call says the session lacks: the code of the second step, or an authenticator at all. */
export type SecondFactorNeed = 'code_required' | 'enrolment_required';

/**
 * Whether an error answer means the session must pass the second factor first (the server's
 * MFA_REQUIRED / MFA_ENROLMENT_REQUIRED): a new tab that never saw the login answer, an
 * authenticator reset by a super admin, or a session that lost the step, learn it here.
 */
export function secondFactorNeedOf(status: number, code: string | undefined): SecondFactorNeed | null {
  if (status !== 403) return null;
  if (code === ERROR_CODES.mfaRequired) return 'code_required';
  if (code === ERROR_CODES.mfaEnrolmentRequired) return 'enrolment_required';
  return null;
}

/**
 * Where to send the user on such an answer: the second-step page, back to the current page after
 * it; null when already there (the page's own calls must not loop) or on the login page.
 */
export function secondFactorTarget(pathname: string, search = ''): string | null {
  // The login page runs its own code step; the second-step page is where the user is sent.
  if (pathname === SECOND_FACTOR_PATH || pathname === '/login') return null;
  return secondFactorUrl(pathname + search);
}

export interface ApiClientDeps {
  fetch: typeof fetch;
  auth: () => AuthValues;
  /** Spec §8: "token is missing" and `timeout: true` end the session. */
  onSessionEnded: (reason: SessionEndReason) => void;
  /** Spec §8: a 500 stops the loader. */
  onServerError: () => void;
  /** A call was refused for want of the second factor (admin roles, ASVS V2.8). */
  onSecondFactorNeeded?: (need: SecondFactorNeed) => void;
}

export interface CallOptions {
  signal?: AbortSignal;
}

type LooseInput = { params?: Record<string, string | number>; query?: Record<string, unknown>; body?: unknown };

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function cancelled(): ApiRequestError {
  return new ApiRequestError({ status: 0, message: CANCELLED_MESSAGES.byNewRequest, code: 'CANCELLED' });
}

/** Sends one request of an endpoint with the base-A headers; network failures and aborts become ApiRequestErrors. */
async function sendRequest(
  deps: ApiClientDeps,
  endpoint: Endpoint,
  input: unknown,
  options: CallOptions,
  accept: string,
): Promise<Response> {
  const { params, query, body } = input as LooseInput;
  const url = buildPath(endpoint.path, params) + buildQueryString(query);
  const headers: Record<string, string> = { accept, ...buildAuthHeaders(deps.auth()) };
  if (body !== undefined) headers['content-type'] = 'application/json';
  try {
    // No timeout (spec §9: request timeout 0); only an AbortSignal ends a call early.
    return await deps.fetch(url, {
      method: endpoint.method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: options.signal,
      credentials: 'same-origin',
    });
  } catch (error) {
    if (options.signal?.aborted || (error instanceof Error && error.name === 'AbortError')) throw cancelled();
    throw new ApiRequestError({ status: 0, message: 'Network Error', code: 'NETWORK' });
  }
}

async function readBody<T>(read: () => Promise<T>, options: CallOptions): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (options.signal?.aborted) throw cancelled();
    throw error;
  }
}

/** Spec §8 for an error answer: ends the session when it must, stops the loader on a 500, and says what failed. */
function failureOf(deps: ApiClientDeps, response: Response, data: unknown): ApiRequestError {
  const parsedError = ApiErrorSchema.safeParse(data);
  const apiError = parsedError.success ? parsedError.data : null;
  if (apiError?.timeout === true) {
    deps.onSessionEnded('timeout');
    return new ApiRequestError({ status: response.status, ...apiError, code: apiError.code || ERROR_CODES.sessionIdle });
  }
  if (response.status === 401 && apiError?.message === TOKEN_MISSING_MESSAGE) {
    deps.onSessionEnded(apiError.code === ERROR_CODES.sessionExpired ? 'expired' : 'token-missing');
  }
  const need = secondFactorNeedOf(response.status, apiError?.code);
  if (need) deps.onSecondFactorNeeded?.(need);
  if (response.status >= 500) deps.onServerError();
  return new ApiRequestError({
    status: response.status,
    message: apiError?.message ?? `Request failed with status code ${response.status}`,
    code: apiError?.code ?? `HTTP_${response.status}`,
    retryAfterSeconds: apiError?.retryAfterSeconds ?? retryAfterHeader(response),
    details: apiError?.details,
  });
}

/** Builds the one call function; the app uses the instance below, tests build their own. */
export function createApiClient(deps: ApiClientDeps) {
  return async function call<E extends Endpoint>(
    endpoint: E,
    input: EndpointInput<E>,
    options: CallOptions = {},
  ): Promise<EndpointResponse<E>> {
    const response = await sendRequest(deps, endpoint, input, options, 'application/json');
    const data = await readBody(() => readJson(response), options);

    if (!response.ok || ApiErrorSchema.safeParse(data).data?.timeout === true) throw failureOf(deps, response, data);

    if (response.status === 204 || data === undefined) return undefined as EndpointResponse<E>;
    const parsed = endpoint.response.safeParse(data);
    if (!parsed.success) {
      throw new ApiRequestError({
        status: response.status,
        message: 'The server answered in an unexpected shape.',
        code: 'BAD_RESPONSE',
        details: parsed.error.issues,
      });
    }
    return parsed.data as EndpointResponse<E>;
  };
}

/**
 * Builds the file-download function for calls that answer a file (spec "blob response"): the same
 * headers and §8 handling as `call`, answering the body as a Blob.
 */
export function createDownloadClient(deps: ApiClientDeps) {
  return async function download<E extends Endpoint>(endpoint: E, input: EndpointInput<E>, options: CallOptions = {}): Promise<Blob> {
    const response = await sendRequest(deps, endpoint, input, options, endpoint.responseType ?? '*/*');
    if (response.ok) return readBody(() => response.blob(), options);
    throw failureOf(deps, response, await readBody(() => readJson(response), options));
  };
}

/** One raw upload as a transport sends it; `onProgress` gets the fraction of the body sent (0–1). */
export interface UploadRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: Blob;
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
}

/** Sends an upload and answers the server's reply as a Response; rejects with an AbortError or a TypeError (network). */
export type UploadTransport = (request: UploadRequest) => Promise<Response>;

/**
 * The browser's transport for uploads. XMLHttpRequest, not fetch: only it reports how much of the
 * request body has been sent, which a 256 MiB flat file needs for a progress bar.
 */
const xhrUploadTransport: UploadTransport = (request) =>
  new Promise<Response>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(request.method, request.url);
    for (const [name, value] of Object.entries(request.headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) request.onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      // A Response cannot carry a body for the null-body statuses.
      const body = xhr.status === 204 || xhr.status === 205 || xhr.status === 304 ? null : xhr.responseText;
      resolve(
        new Response(body, {
          status: xhr.status,
          headers: { 'content-type': xhr.getResponseHeader('content-type') ?? 'application/json' },
        }),
      );
    };
    xhr.onerror = () => reject(new TypeError('Network Error'));
    xhr.onabort = () => reject(new DOMException('Aborted', 'AbortError'));
    if (request.signal?.aborted) {
      reject(new DOMException('Aborted', 'AbortError'));
      return;
    }
    request.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(request.body);
  });

export interface UploadOptions extends CallOptions {
  onProgress?: (fraction: number) => void;
}

/**
 * Builds the upload function for calls whose body is a file's raw bytes
 * (`application/octet-stream`): the endpoint's params and query as usual, the same headers and
 * §8 error handling as `call`, the answer validated by the endpoint's response schema.
 */
export function createUploadClient(deps: ApiClientDeps, transport: UploadTransport = xhrUploadTransport) {
  return async function upload<E extends Endpoint>(
    endpoint: E,
    input: EndpointInput<E>,
    file: Blob,
    options: UploadOptions = {},
  ): Promise<EndpointResponse<E>> {
    const { params, query } = input as LooseInput;
    const url = buildPath(endpoint.path, params) + buildQueryString(query);
    const headers: Record<string, string> = {
      accept: 'application/json',
      'content-type': 'application/octet-stream',
      ...buildAuthHeaders(deps.auth()),
    };
    let response: Response;
    try {
      response = await transport({
        method: endpoint.method,
        url,
        headers,
        body: file,
        signal: options.signal,
        onProgress: options.onProgress,
      });
    } catch (error) {
      if (options.signal?.aborted || (error instanceof Error && error.name === 'AbortError')) throw cancelled();
      throw new ApiRequestError({ status: 0, message: 'Network Error', code: 'NETWORK' });
    }
    const data = await readJson(response);
    if (!response.ok || ApiErrorSchema.safeParse(data).data?.timeout === true) throw failureOf(deps, response, data);
    const parsed = endpoint.response.safeParse(data);
    if (!parsed.success) {
      throw new ApiRequestError({
        status: response.status,
        message: 'The server answered in an unexpected shape.',
        code: 'BAD_RESPONSE',
        details: parsed.error.issues,
      });
    }
    return parsed.data as EndpointResponse<E>;
  };
}

function retryAfterHeader(response: Response): number | undefined {
  const value = Number(response.headers.get('retry-after'));
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

/** Resets every store, clears browser storage and cookies, and goes to /login. */
export function endSessionLocally(notice?: string): void {
  resetAllStores();
  clearBrowserState();
  if (notice) notifications.show({ id: 'session-ended', color: 'yellow', title: 'Logged out', message: notice });
  if (typeof window === 'undefined' || window.location.pathname !== '/login') navigateTo('/login', { replace: true });
}

/** What the user is told when the server ends the session. */
const SESSION_END_NOTICES: Record<SessionEndReason, string> = {
  timeout: 'Your session ended after 30 minutes without activity.',
  expired: `Your session reached its limit of ${SESSION_MAX_AGE_MS / 3_600_000} hours. Please log in again.`,
  'token-missing': 'Your session has ended. Please log in again.',
};

/** What the app's clients read and do: the session store's values, §8 session end, the loader. */
const appClientDeps: ApiClientDeps = {
  fetch: (...args) => globalThis.fetch(...args),
  auth: () => {
    const session = useSessionStore.getState();
    return {
      nodeToken: session.nodeToken,
      token: session.token,
      username: session.username,
      userHashId: session.userHashId,
      searchSessionId: useSearchSessionStore.getState().searchSessionId,
    };
  },
  onSessionEnded: (reason) => endSessionLocally(SESSION_END_NOTICES[reason]),
  onServerError: () => stopPageLoader(),
  onSecondFactorNeeded: (need) => {
    // The state saved at login may be stale (another tab, a reset): the server's answer wins.
    useSessionStore.setState({ secondFactor: need });
    if (typeof window === 'undefined') return;
    const target = secondFactorTarget(window.location.pathname, window.location.search);
    if (target) navigateTo(target);
  },
};

/** The app's API client: every request of the web client goes through this one function. */
export const callApi = createApiClient(appClientDeps);

/** The app's file-download client (saved queries, unidentified terms): a Blob, with callApi's headers and §8 handling. */
export const downloadApi = createDownloadClient(appClientDeps);

/** The app's upload client (flat-file datasets): a file's bytes as the body, with progress. */
export const uploadApi = createUploadClient(appClientDeps);

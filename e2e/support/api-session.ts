import { authEndpoints } from '@kb/contracts/api';
import { PRODUCT_SLUG } from '@kb/contracts/auth';
import type { LoginResult } from '@kb/contracts/auth';
import type { Endpoint, EndpointInput, EndpointResponse } from '@kb/contracts/endpoint';
import { buildPath } from '@kb/contracts/endpoint';
import type { Role } from '@kb/contracts/roles';
import { DEMO_PASSWORD, demoEmailForRole } from '@kb/contracts/roles';
import { AUTH_HEADERS } from '@kb/contracts/session';
import { completeSecondFactor } from './second-factor.ts';

/**
 * A logged-in API client for checks beside the browser (the counts the API gives for the criteria
 * the page sent, the terms an upload should report). The behaviour under test still goes through
 * the browser; this only answers "what should the page show".
 */
export class ApiSession {
  private constructor(
    readonly baseUrl: string,
    private readonly headers: Record<string, string>,
  ) {}

  static async logIn(baseUrl: string, role: Role): Promise<ApiSession> {
    return ApiSession.logInAs(baseUrl, demoEmailForRole(role));
  }

  /**
   * A demo login by e-mail (the extra demo accounts: expired, low credit). An admin's login also
   * passes the second factor (support/second-factor.ts), as the web app's login does.
   */
  static async logInAs(baseUrl: string, email: string): Promise<ApiSession> {
    const response = await fetch(new URL(buildPath(authEndpoints.generateToken.path, { product: PRODUCT_SLUG }), baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: email, password: DEMO_PASSWORD }),
    });
    if (!response.ok) throw new Error(`Logging in ${email} failed with ${response.status}: ${await response.text()}`);
    const login = await completeSecondFactor(baseUrl, (await response.json()) as LoginResult);
    return new ApiSession(baseUrl, {
      [AUTH_HEADERS.mainToken]: `Bearer ${login.token}`,
      [AUTH_HEADERS.nodeToken]: `Bearer ${login.nodeToken}`,
      [AUTH_HEADERS.email]: email,
    });
  }

  /** Calls an endpoint; a failed answer throws with its status and body. */
  async call<E extends Endpoint>(endpoint: E, input: EndpointInput<E>, timeoutMs = 60_000): Promise<EndpointResponse<E>> {
    const { params, query, body } = input as {
      params?: Record<string, string | number>;
      query?: Record<string, string | number>;
      body?: unknown;
    };
    const url = new URL(buildPath(endpoint.path, params), this.baseUrl);
    for (const [key, value] of Object.entries(query ?? {})) url.searchParams.set(key, String(value));
    const response = await fetch(url, {
      method: endpoint.method,
      headers: { ...this.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${endpoint.method} ${url.pathname} answered ${response.status}: ${text}`);
    // A 204 (an empty results tab) has no body.
    if (response.status === 204 || text === '') return undefined as EndpointResponse<E>;
    return (endpoint.responseType ? text : JSON.parse(text)) as EndpointResponse<E>;
  }
}

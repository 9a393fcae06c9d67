import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { components, paths } from './generated/openapi';

/** The API's typed client: `client.GET('/acl/api/v1/users/{id}', { params: { path: { id } } })`. */
export type ApiClient = Client<paths>;

/** A schema of the merged OpenAPI document by name, e.g. `Schema<'UserResponse'>`. */
export type Schema<N extends keyof components['schemas']> = components['schemas'][N];

/** What acl answers on login and on refresh. */
export type TokenPair = Schema<'TokenPairResponse'>;

export interface ApiClientOptions {
  /** The gateway, e.g. `http://127.0.0.1:3000` (every path of the client starts with its app's prefix). */
  baseUrl: string;
  /** The access token sent as `Authorization: Bearer <token>`; none for public routes. */
  token?: string;
  /**
   * Refresh on 401: with a refresh token, a request answered 401 makes the client call
   * `POST /acl/api/v1/auth/refresh` once, keep the new pair (a refresh token is single use; the
   * client swaps it in) and send the request again with the new access token. Requests that get
   * their 401 while a refresh is in flight wait for that one refresh. A failed refresh leaves
   * the first 401 as the answer.
   */
  refresh?: {
    refreshToken: string;
    /** Told each new pair, e.g. to store it for the next run. */
    onTokens?: (pair: TokenPair) => void;
  };
  /** Another fetch (tests, a proxy agent); the global one by default. */
  fetch?: (input: Request) => Promise<Response>;
  /** Headers added to every request, e.g. `{ 'X-Request-Id': '...' }`. */
  headers?: Record<string, string>;
}

const REFRESH_PATH = '/acl/api/v1/auth/refresh';

/**
 * A client of the whole API through the gateway, typed by the merged OpenAPI document
 * (openapi-fetch: `GET`, `POST`, `PATCH`, `PUT`, `DELETE` answer `{ data, error, response }`).
 */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const fetchImpl = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  let token = options.token;
  let refreshToken = options.refresh?.refreshToken;
  let inFlight: Promise<boolean> | undefined;
  /** The requests as first built, to send again after a refresh (a sent body cannot be reread). */
  const originals = new WeakMap<Request, Request>();

  const refresh = (): Promise<boolean> =>
    (inFlight ??= (async () => {
      if (refreshToken === undefined) return false;
      const response = await fetchImpl(
        new Request(new URL(REFRESH_PATH, options.baseUrl), {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
          body: JSON.stringify({ refresh_token: refreshToken }),
        }),
      );
      if (!response.ok) return false;
      const pair = (await response.json()) as TokenPair;
      token = pair.access_token;
      refreshToken = pair.refresh_token;
      options.refresh?.onTokens?.(pair);
      return true;
    })().finally(() => {
      inFlight = undefined;
    }));

  const auth: Middleware = {
    onRequest({ request }) {
      if (token !== undefined && !request.headers.has('Authorization')) {
        request.headers.set('Authorization', `Bearer ${token}`);
      }
      if (options.refresh) originals.set(request, request.clone());
      return request;
    },
    async onResponse({ request, response }) {
      const original = originals.get(request);
      originals.delete(request);
      if (response.status !== 401 || !original || new URL(request.url).pathname === REFRESH_PATH)
        return response;
      const sent = token;
      if (!(await refresh()) && token === sent) return response;
      await response.body?.cancel();
      const retry = new Request(original);
      retry.headers.set('Authorization', `Bearer ${token}`);
      return fetchImpl(retry);
    },
  };

  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    fetch: fetchImpl,
    headers: options.headers,
  });
  client.use(auth);
  return client;
}

/**
 * Logs in (`POST /acl/api/v1/auth/token`) and answers a client carrying the access token that
 * refreshes itself on 401, with the pair it started from.
 */
export async function loginClient(
  options: Omit<ApiClientOptions, 'token' | 'refresh'> & {
    email: string;
    password: string;
    onTokens?: (pair: TokenPair) => void;
  },
): Promise<{ client: ApiClient; tokens: TokenPair }> {
  const { email, password, onTokens, ...rest } = options;
  const { data, error, response } = await createApiClient(rest).POST('/acl/api/v1/auth/token', {
    body: { email, password },
  });
  if (!data) throw new Error(`login as ${email} failed: ${response.status} ${JSON.stringify(error)}`);
  onTokens?.(data);
  const client = createApiClient({
    ...rest,
    token: data.access_token,
    refresh: { refreshToken: data.refresh_token, onTokens },
  });
  return { client, tokens: data };
}

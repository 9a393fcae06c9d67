import { createApiClient, loginClient, type ApiClient } from '@media/client';

/** Counts the requests the seeder sends, for its summary. */
export const stats = { requests: 0, retried: 0 };

/**
 * fetch that keeps within the gateway's rate limit: a 429 is sent again after its
 * `Retry-After` (the limit is per token, so the seeder spreads its work over several users and
 * only waits when one of them runs ahead).
 */
export async function politeFetch(request: Request): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    const copy = request.clone();
    stats.requests++;
    const response = await fetch(copy);
    if (response.status !== 429 || attempt >= 20) return response;
    stats.retried++;
    const seconds = Number(response.headers.get('Retry-After') ?? '1');
    await response.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, Math.max(1, seconds) * 1000));
  }
}

export async function login(baseUrl: string, email: string, password: string): Promise<ApiClient> {
  const { client } = await loginClient({ baseUrl, email, password, fetch: politeFetch });
  return client;
}

export function anonymous(baseUrl: string): ApiClient {
  return createApiClient({ baseUrl, fetch: politeFetch });
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The body of a 2xx answer; anything else stops the seeder with what was asked and answered. */
export async function ok<T>(call: Promise<Answer<T>>, what: string): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok || data === undefined) {
    throw new Error(`${what}: ${response.status} ${JSON.stringify(error ?? data)}`);
  }
  return data;
}

/** The cursor of a `next` link, or undefined on the last page. */
export function nextCursor(next: string | null | undefined): string | undefined {
  return next ? (new URL(next).searchParams.get('cursor') ?? undefined) : undefined;
}

/** Every row of a cursor list, page by page (100 a page). */
export async function all<T>(
  page: (cursor: string | undefined) => Promise<Answer<{ results: T[]; next?: string | null }>>,
  what: string,
): Promise<T[]> {
  const rows: T[] = [];
  let cursor: string | undefined;
  do {
    const data = await ok(page(cursor), what);
    rows.push(...data.results);
    cursor = nextCursor(data.next);
  } while (cursor);
  return rows;
}

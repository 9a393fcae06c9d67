export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface ApiRequest {
  method?: string;
  token?: string;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as application/x-www-form-urlencoded (arrays as repeated keys). */
  form?: Record<string, string | string[]>;
  /** Sent as multipart/form-data. */
  multipart?: FormData;
  /** Sent as-is (with the content type given in headers). */
  raw?: string | Buffer;
  headers?: Record<string, string>;
}

/** One HTTP call as a client makes it; the body is parsed as JSON when it is JSON. */
export async function call<T = any>(
  baseUrl: string,
  path: string,
  request: ApiRequest = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...(request.headers ?? {}) };
  if (request.token) headers.authorization = `Bearer ${request.token}`;
  let body: RequestInit['body'];
  if (request.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(request.json);
  } else if (request.form) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(request.form)) {
      for (const item of Array.isArray(value) ? value : [value]) params.append(key, item);
    }
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = params.toString();
  } else if (request.multipart) {
    body = request.multipart;
  } else if (request.raw !== undefined) {
    body = typeof request.raw === 'string' ? request.raw : new Uint8Array(request.raw);
  }
  const response = await fetch(`${baseUrl}${path}`, {
    method: request.method ?? (body ? 'POST' : 'GET'),
    headers,
    body,
  });
  const text = await response.text();
  let parsed: unknown = text;
  // JSON itself (application/json, problem+json), not a stream of JSON lines (x-ndjson: the audit export).
  const type = (response.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  if ((type === 'application/json' || type.endsWith('+json')) && text) parsed = JSON.parse(text);
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

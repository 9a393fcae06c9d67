/**
 * Fuzzing every operation of every app's `/openapi.json`: directly and through the
 * gateway, with a valid token, with generated path values, queries and bodies (wrong types,
 * boundaries, huge, deep, NUL, lone surrogates, unknown fields, wrong content types). A 5xx, a
 * hang, or an error body outside the contract's shape (docs/api/contract.md §2) fails. No per-endpoint code:
 * the operations come from the documents, so new endpoints are covered as they are added.
 * Bounded in time (FUZZ_BUDGET_MS, default 60 s): operations are visited round-robin until
 * the budget is spent, so each gets its share however many there are. At 60 s every operation
 * is fuzzed about 50 times, directly and through the gateway; each run draws a new seed (printed,
 * FUZZ_SEED replays it), so runs add up. A longer budget searches deeper, e.g. before a release.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { Agent, request } from 'undici';
import { APPS, SERVICE_NAMES, type ServiceName } from '@media/contracts';
import { mintToken, stack, testEnv, type StackInfo } from '@media/testing';

const BUDGET_MS = testEnv.fuzzBudgetMs;
const REQUEST_TIMEOUT_MS = 10_000;
const SEED = testEnv.fuzzSeed;
/** No error answer is larger, whatever the request (docs/api/contract.md §2 bounded answers). */
const MAX_ERROR_BYTES = 64 * 1024;

type Schema = {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  nullable?: boolean;
};

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
}

interface Operation {
  app: ServiceName;
  method: string;
  path: string;
  parameters: Parameter[];
  body?: { types: string[]; schema?: Schema };
  components: Record<string, Schema>;
}

// ------------------------------------------------------------------ generators

/** Values that break naive code: types, boundaries, sizes, encodings. */
const nastyScalar = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    true,
    false,
    0,
    -1,
    1.5,
    2 ** 31,
    2 ** 53 + 1,
    -(2 ** 63),
    1e308,
    '',
    ' ',
    '0',
    '-1',
    'null',
    'true',
    '\u0000',
    'a\u0000b',
    '\ud800',
    'a\udfffb',
    '\u{1F600}',
    '../../etc/passwd',
    "'; DROP TABLE x; --",
    '%00',
    '0000-01-01',
    '+010000-01-01T00:00:00Z',
    '9999-12-31',
    '2024-02-30',
    '1970-01-01T00:00:00Z',
    '00000000-0000-0000-0000-000000000000',
    'not-a-uuid',
    '1e400',
    'NaN',
    'Infinity',
    '1250.555',
    '-0.00',
    'user@example.com',
    'a@b',
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.uuid(),
  fc.constant('x'.repeat(5_000)),
);

function deep(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i += 1) value = i % 2 === 0 ? { a: value } : [value];
  return value;
}

/** An object of n keys `k0`…: many keys cost class-transformer the square of their number. */
const wide = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 1]));

const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: nastyScalar },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>(
      {},
      [],
      [null],
      deep(80),
      deep(200),
      Array(300).fill('x'),
      // Lists inside list elements, wide objects where one is expected, and in a list.
      [[0, [0]], [Array(2_000).fill(0)]],
      [[{}], [[]]],
      wide(2_000),
      [wide(2_000), {}],
    ),
  },
  { weight: 1, arbitrary: fc.array(nastyScalar, { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), nastyScalar, { maxKeys: 3 }) },
);

function resolveRef(schema: Schema | undefined, components: Record<string, Schema>, seen = 0): Schema {
  if (!schema) return {};
  if (schema.$ref && seen < 10) {
    const name = schema.$ref.split('/').pop() ?? '';
    return resolveRef(components[name], components, seen + 1);
  }
  const merged = schema.allOf ?? schema.oneOf ?? schema.anyOf;
  if (merged?.length) return resolveRef(merged[0], components, seen + 1);
  return schema;
}

/** A plausible value for a schema (so checks past the first one are reached too). */
function plausible(schema: Schema, components: Record<string, Schema>, depth = 0): fc.Arbitrary<unknown> {
  const s = resolveRef(schema, components);
  if (s.enum?.length) return fc.constantFrom(...s.enum);
  switch (s.type) {
    case 'integer':
      return fc.integer({ min: s.minimum ?? -5, max: s.maximum ?? 1_000 });
    case 'number':
      return fc.oneof(fc.integer({ min: 0, max: 10_000 }), fc.constantFrom('12.50', '0.00'));
    case 'boolean':
      return fc.boolean();
    case 'array':
      return depth > 3
        ? fc.constant([])
        : fc.array(plausible(s.items ?? {}, components, depth + 1), { maxLength: 3 });
    case 'object':
      return depth > 3 ? fc.constant({}) : objectOf(s, components, depth + 1);
    default:
      if (s.format === 'uuid') return fc.uuid();
      if (s.format === 'date') return fc.constantFrom('2026-01-15', '2025-12-31', '0001-01-01');
      if (s.format === 'date-time')
        return fc.constantFrom('2026-01-15T10:00:00Z', '2025-12-31T23:59:59.999Z');
      if (s.format === 'email')
        return fc.constantFrom('someone@example.com', `fuzz-${randomUUID()}@example.com`);
      return fc.string({ minLength: s.minLength ?? 1, maxLength: Math.min(s.maxLength ?? 20, 40) });
  }
}

/** A value for one field: mostly plausible, often broken. */
function field(schema: Schema, components: Record<string, Schema>, depth: number): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 3, arbitrary: plausible(schema, components, depth) },
    { weight: 2, arbitrary: nastyValue },
  );
}

function objectOf(schema: Schema, components: Record<string, Schema>, depth = 0): fc.Arbitrary<unknown> {
  const properties = Object.entries(resolveRef(schema, components).properties ?? {});
  const shape = Object.fromEntries(
    properties.map(([name, value]) => [name, field(value, components, depth)]),
  );
  return fc
    .tuple(
      fc.record(shape, { requiredKeys: [] }),
      fc.option(
        fc.dictionary(
          fc.constantFrom('unknown_field', 'id', 'created_at', '__proto__', 'constructor'),
          nastyScalar,
        ),
        {
          nil: undefined,
        },
      ),
    )
    .map(([known, extra]) => ({ ...(extra ?? {}), ...known }));
}

interface Body {
  contentType?: string;
  payload?: string | Buffer;
}

/** Whole bodies of about 1 MB in each costly shape (bench/validation-amplification.mjs measures them). */
const COSTLY_BODIES: Body[] = [
  `{${Array.from({ length: 80_000 }, (_, i) => `"k${i}":1`).join(',')}}`,
  `{"\\u006b":1,${Array.from({ length: 60_000 }, (_, i) => `"k${i}":"v"`).join(',')}}`,
  `{"a":[${Array(250_000).fill('"a"').join(',')}]}`,
  `[${Array(100_000).fill('{"a":[[1]]}').join(',')}]`,
  '['.repeat(1_000_000),
  `{"a":${'['.repeat(63)}${Array(100_000).fill('"a"').join(',')}${']'.repeat(63)}}`,
  `{${Array(120_000).fill('"k":1').join(',')}}`,
].map((payload) => ({ contentType: 'application/json', payload }));
COSTLY_BODIES.push({
  contentType: 'application/json',
  payload: Buffer.concat([
    Buffer.from(`{"a":"${'x'.repeat(500_000)}`),
    Buffer.from([0xc0, 0xaf, 0x22, 0x7d]),
  ]),
});

function bodies(operation: Operation): fc.Arbitrary<Body> {
  const schema = operation.body?.schema ?? {};
  const json = (value: unknown): Body => ({
    contentType: 'application/json',
    payload: JSON.stringify(value) ?? 'null',
  });
  const variants: fc.Arbitrary<Body>[] = [
    objectOf(schema, operation.components).map(json),
    objectOf(schema, operation.components).map(json),
    nastyValue.map(json),
    fc.constantFrom(...COSTLY_BODIES),
    fc.constantFrom<Body>(
      { contentType: 'application/json', payload: 'null' },
      { contentType: 'application/json', payload: '{"a":' },
      { contentType: 'application/json', payload: '{"a":"\\ud800"}' },
      { contentType: 'application/json', payload: '{"a":"b\\u0000"}' },
      { contentType: 'application/json', payload: JSON.stringify(deep(3_000)) },
      { contentType: 'application/json', payload: `{"a":"${'x'.repeat(1024 * 1024)}"}` },
      { contentType: 'application/json', payload: Buffer.from([0xff, 0xfe, 0x7b, 0x7d]) },
      { contentType: 'text/plain', payload: 'hello' },
      { contentType: 'application/xml', payload: '<a/>' },
      { contentType: 'application/x-www-form-urlencoded', payload: 'a=1&a=2&%00=%ED%A0%80&email=%00' },
      {
        contentType: 'multipart/form-data; boundary=zz',
        payload: '--zz\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--zz--\r\n',
      },
      { contentType: 'multipart/form-data; boundary=zz', payload: 'garbage without boundaries' },
      { contentType: 'application/json; charset=utf-16', payload: '{}' },
      { contentType: undefined, payload: '{}' },
      { contentType: 'application/json', payload: '' },
    ),
  ];
  return fc.oneof(...variants);
}

const pathValue = fc.oneof(
  { weight: 2, arbitrary: fc.uuid() },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '0',
      '-1',
      '99999999999999999999',
      'a'.repeat(300),
      '%00',
      'a%00b',
      '%ED%A0%80',
      '%F0%9F%98%80',
      '%2e%2e',
      'null',
      'true',
      '%20',
      '00000000-0000-0000-0000-000000000000',
      '2026-01-01',
      '1.5',
      '%25',
      "'",
    ),
  },
  { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 12 }).map(encode) },
);

const queryValue = fc.oneof(
  nastyScalar.map((value) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''))),
  fc.constantFrom(
    '%00',
    '\u0000',
    '\ud800',
    '',
    '-1',
    '101',
    '0',
    '1',
    '100',
    'abc',
    '2026-13-01',
    'x'.repeat(3_000),
  ),
);

interface Case {
  path: string;
  query: [string, string][];
  body: Body;
}

function cases(operation: Operation): fc.Arbitrary<Case> {
  // From the template itself: a document may leave a path parameter undeclared.
  const pathParams = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((match) => ({ name: match[1] }));
  const queryParams = operation.parameters.filter((p) => p.in === 'query');
  const takesBody = operation.body !== undefined || ['POST', 'PUT', 'PATCH'].includes(operation.method);
  return fc.record({
    path: fc
      .tuple(...pathParams.map(() => pathValue))
      .map((values) =>
        pathParams.reduce(
          (path, param, i) => path.replace(`{${param.name}}`, String(values[i])),
          operation.path,
        ),
      ),
    query: fc
      .tuple(
        fc.subarray(queryParams),
        fc.array(queryValue, { minLength: queryParams.length + 2, maxLength: queryParams.length + 2 }),
        fc.boolean(),
        fc.boolean(),
      )
      .map(([chosen, values, duplicate, unknown]) => {
        const pairs: [string, string][] = chosen.map((param, i) => [param.name, values[i]]);
        if (duplicate && chosen.length > 0) pairs.push([chosen[0].name, values[values.length - 1]]);
        if (unknown) pairs.push(['unknown_param', values[values.length - 2]]);
        return pairs;
      }),
    body: takesBody ? bodies(operation) : fc.constant<Body>({}),
  });
}

/** encodeURIComponent, except that a lone surrogate is sent as its (invalid) UTF-8 bytes. */
function encode(text: string): string {
  return text.replace(/[\s\S]/gu, (char) => {
    const code = char.charCodeAt(0);
    if (char.length === 1 && code >= 0xd800 && code <= 0xdfff)
      return `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`.toUpperCase();
    return encodeURIComponent(char);
  });
}

// ------------------------------------------------------------------ the contract's shapes

const isString = (value: unknown) => typeof value === 'string';

/** docs/api/contract.md §2: `{detail, code}`, or 422's `{detail: [{loc, msg, type}]}`. */
function contractShaped(status: number, body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const record = body as Record<string, unknown>;
  if (status === 422) {
    return (
      Array.isArray(record.detail) &&
      record.detail.length > 0 &&
      record.detail.every(
        (item: unknown) =>
          typeof item === 'object' &&
          item !== null &&
          Array.isArray((item as { loc?: unknown }).loc) &&
          ((item as { loc: unknown[] }).loc as unknown[]).every(isString) &&
          isString((item as { msg?: unknown }).msg) &&
          isString((item as { type?: unknown }).type),
      )
    );
  }
  return isString(record.detail) && isString(record.code) && !('success' in record);
}

// ------------------------------------------------------------------ the run

let system: StackInfo;
let operations: Operation[] = [];
const agent = new Agent({ keepAliveTimeout: 5_000, connections: 16 });

async function loadOperations(): Promise<Operation[]> {
  const found: Operation[] = [];
  for (const app of SERVICE_NAMES) {
    const res = await request(`${system.urls[app]}/${APPS[app].prefix}/openapi.json`, { dispatcher: agent });
    const document = (await res.body.json()) as {
      paths: Record<
        string,
        Record<
          string,
          { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: Schema }> } }
        >
      >;
      components?: { schemas?: Record<string, Schema> };
    };
    for (const [path, methods] of Object.entries(document.paths ?? {})) {
      for (const [method, op] of Object.entries(methods)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        const content = op.requestBody?.content;
        found.push({
          app,
          method: method.toUpperCase(),
          path,
          parameters: op.parameters ?? [],
          body: content
            ? { types: Object.keys(content), schema: Object.values(content)[0]?.schema }
            : undefined,
          components: document.components?.schemas ?? {},
        });
      }
    }
  }
  return found;
}

interface Finding {
  target: string;
  method: string;
  url: string;
  contentType?: string;
  body?: string;
  status: number | string;
  answer: string;
}

async function send(
  base: string,
  target: string,
  operation: Operation,
  one: Case,
  token: string,
): Promise<Finding | undefined> {
  const query = one.query.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&');
  const url = `${one.path}${query ? `?${query}` : ''}`;
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (one.body.contentType) headers['content-type'] = one.body.contentType;
  const finding = (status: number | string, answer: string): Finding => ({
    target,
    method: operation.method,
    url: url.slice(0, 300),
    contentType: one.body.contentType,
    body: one.body.payload === undefined ? undefined : String(one.body.payload).slice(0, 300),
    status,
    answer: answer.slice(0, 300),
  });
  try {
    const res = await request(`${base}${url}`, {
      method: operation.method as 'GET',
      headers,
      body: one.body.payload,
      dispatcher: agent,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await res.body.text();
    if (res.statusCode >= 500) return finding(res.statusCode, text);
    if (res.statusCode >= 400 && Buffer.byteLength(text) > MAX_ERROR_BYTES) {
      return finding(res.statusCode, `${Buffer.byteLength(text)} bytes: ${text}`);
    }
    if (res.statusCode >= 400) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return finding(res.statusCode, `not JSON: ${text}`);
      }
      if (!contractShaped(res.statusCode, parsed))
        return finding(res.statusCode, `not the contract's shape: ${text}`);
    }
    return undefined;
  } catch (error) {
    const code = (error as { code?: string; name?: string }).code ?? (error as Error).name;
    return finding(
      code === 'TimeoutError' || code === 'UND_ERR_ABORTED' ? 'hang' : String(code),
      String(error),
    );
  }
}

beforeAll(async () => {
  system = stack();
  operations = await loadOperations();
});

afterAll(async () => {
  await agent.close();
});

describe('fuzzing every operation of every app', () => {
  it(
    'finds no 5xx, hang or error body outside the contract, directly and through the gateway',
    async () => {
      expect(operations.length).toBeGreaterThan(10);
      // A user unknown to acl with every permission: `/me` routes find nobody, nothing real is touched.
      const token = mintToken(system.keys, { sub: randomUUID(), permissions: ['*'], roles: ['ADMIN'] });
      const deadline = Date.now() + BUDGET_MS;
      const generators = operations.map((operation) => cases(operation));
      const findings: Finding[] = [];
      const seen = new Set<string>();
      let round = 0;
      let sent = 0;
      while (Date.now() < deadline && findings.length < 50) {
        for (let i = 0; i < operations.length && Date.now() < deadline; i += 1) {
          const operation = operations[i];
          const [one] = fc.sample(generators[i], { numRuns: 1, seed: SEED + round * 7919 + i });
          const results = await Promise.all([
            send(system.urls[operation.app], `${operation.app} directly`, operation, one, token),
            send(system.gatewayUrl, 'gateway', operation, one, token),
          ]);
          sent += 2;
          for (const result of results) {
            const key = `${result?.target} ${operation.method} ${operation.path} ${result?.status}`;
            if (result && !seen.has(key)) {
              seen.add(key);
              findings.push(result);
            }
          }
        }
        round += 1;
      }
      process.stderr.write(
        `fuzz: seed ${SEED}, ${operations.length} operations, ${round} rounds, ${sent} requests, ${findings.length} findings\n`,
      );
      expect(round).toBeGreaterThanOrEqual(1);
      expect(findings).toEqual([]);
    },
    BUDGET_MS + 60_000,
  );
});

// ------------------------------------------------------------------ every field, deterministically

interface Probe {
  operation: Operation;
  what: string;
  contentType?: string;
  payload?: string | Buffer;
  query?: string;
  /** Where an item is expected (or, with `absent`, must not be) when the answer is a 422 of this source. */
  loc?: string[];
  absent?: boolean;
}

interface Answer {
  status: number;
  bytes: number;
  detail?: { loc: string[]; type: string }[];
}

/** A 100,000-element array as JSON text (`[0,0,…]`), built once. */
const HUGE_ARRAY = `[${Array(100_000).fill('0').join(',')}]`;
const INVALID_UTF8 = ['%FF', '%ED%A0%80', 'a%C0%AFb'];

/** The top-level properties of an operation's body (object schemas only), with their schema. */
function bodyProperties(operation: Operation): [string, Schema][] {
  const schema = resolveRef(operation.body?.schema, operation.components);
  return Object.entries(schema.properties ?? {}).map(([name, value]) => [
    name,
    {
      ...resolveRef(value, operation.components),
      nullable: value.nullable ?? resolveRef(value, operation.components).nullable,
    },
  ]);
}

function probesOf(operation: Operation): Probe[] {
  const probes: Probe[] = [];
  const types = operation.body?.types ?? [];
  for (const [name, schema] of bodyProperties(operation)) {
    if (types.includes('application/json')) {
      probes.push({
        operation,
        what: `${name}: null`,
        contentType: 'application/json',
        payload: JSON.stringify({ [name]: null }),
        loc: ['body', name],
        absent: schema.nullable === true,
      });
      probes.push({
        operation,
        what: `${name}: 100,000-element array`,
        contentType: 'application/json',
        payload: `{${JSON.stringify(name)}:${HUGE_ARRAY}}`,
      });
    }
    if (types.includes('application/x-www-form-urlencoded')) {
      for (const bad of INVALID_UTF8) {
        probes.push({
          operation,
          what: `form ${name}=${bad}`,
          contentType: 'application/x-www-form-urlencoded',
          payload: `${encodeURIComponent(name)}=${bad}`,
          loc: ['body', name],
        });
      }
    }
    if (types.includes('multipart/form-data')) {
      const boundary = 'fuzz-boundary';
      probes.push({
        operation,
        what: `multipart ${name} with invalid UTF-8`,
        contentType: `multipart/form-data; boundary=${boundary}`,
        payload: Buffer.concat([
          Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\na`),
          Buffer.from([0xff, 0xed, 0xa0, 0x80]),
          Buffer.from(`b\r\n--${boundary}--\r\n`),
        ]),
        loc: ['body', name],
      });
    }
  }
  for (const param of operation.parameters.filter((p) => p.in === 'query')) {
    for (const bad of INVALID_UTF8) {
      probes.push({
        operation,
        what: `?${param.name}=${bad}`,
        query: `${param.name}=${bad}`,
        loc: ['query', param.name],
      });
    }
  }
  return probes;
}

async function answer(probe: Probe, token: string): Promise<Answer> {
  const path = probe.operation.path.replace(/\{[^}]+\}/g, () => randomUUID());
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (probe.contentType) headers['content-type'] = probe.contentType;
  const res = await request(`${system.gatewayUrl}${path}${probe.query ? `?${probe.query}` : ''}`, {
    method: probe.operation.method as 'GET',
    headers,
    body: probe.payload,
    dispatcher: agent,
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await res.body.text();
  let detail: Answer['detail'];
  if (res.statusCode === 422) detail = (JSON.parse(text) as { detail: Answer['detail'] }).detail;
  return { status: res.statusCode, bytes: Buffer.byteLength(text), detail };
}

/** What is wrong with one answer, or undefined. */
function judge(probe: Probe, got: Answer): string | undefined {
  if (got.status >= 500) return `answered ${got.status}`;
  if (got.bytes > MAX_ERROR_BYTES) return `answered ${got.bytes} bytes`;
  if (!probe.loc || got.status !== 422 || !got.detail) return undefined;
  // Only a 422 of the same source says anything about the field (a path 422 comes first).
  if (!got.detail.some((item) => item.loc[0] === probe.loc![0])) return undefined;
  const at = got.detail.some((item) => item.loc.join('/') === probe.loc!.join('/'));
  if (probe.absent && at) return `refused null although the document marks ${probe.loc.join('.')} nullable`;
  if (!probe.absent && !at && got.detail.length <= 50) {
    return `no item at ${probe.loc.join('.')} (${JSON.stringify(got.detail).slice(0, 200)})`;
  }
  return undefined;
}

describe('every field of every operation, through the gateway', () => {
  it('refuses null where the document does not mark a field nullable, takes it where it does, and answers invalid UTF-8 and 100,000-element arrays within 64 KiB, never 5xx', async () => {
    const token = mintToken(system.keys, { sub: randomUUID(), permissions: ['*'], roles: ['ADMIN'] });
    const probes = operations.flatMap(probesOf);
    expect(probes.length).toBeGreaterThan(100);
    const problems: string[] = [];
    // Four at a time: enough to finish, few enough not to measure the machine instead.
    for (let i = 0; i < probes.length; i += 4) {
      await Promise.all(
        probes.slice(i, i + 4).map(async (probe) => {
          const got = await answer(probe, token).catch((error: unknown) => ({ status: 0, bytes: 0, error }));
          const problem = 'error' in got ? `no answer: ${String(got.error)}` : judge(probe, got);
          if (problem)
            problems.push(`${probe.operation.method} ${probe.operation.path} ${probe.what}: ${problem}`);
        }),
      );
    }
    expect(problems).toEqual([]);
  }, 600_000);
});

/**
 * Webhook endpoints (docs/api/webhooks.md): the catalogue, create/list/get/patch/delete, the
 * secret shown only at create and rotation and stored sealed, the URL rules, and the permission.
 */
import { WebhooksHarness } from './webhooks-harness';

const h = new WebhooksHarness({ WEBHOOKS_ALLOW_PRIVATE: 'false', WEBHOOKS_ALLOW_HTTP: 'false' });

beforeAll(async () => {
  await h.start();
  await h.boot();
}, 60_000);

afterAll(async () => {
  await h.stop();
});

/** A public address: no DNS needed, and nothing is delivered in this file. */
const PUBLIC_URL = 'https://93.184.215.14/hooks';

describe('webhook endpoints', () => {
  it('lists every event type the apps publish, each with the JSON Schema of its data', async () => {
    const res = await h.api('/event-types');
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const types = res.body.data.map((t: { type: string }) => t.type);
    expect(types).toEqual(
      expect.arrayContaining([
        'documents.document.deleted',
        'assignment.task.claimed',
        'assignment.task.escalated',
        'assignment.task.reassigned',
        'acl.correspondent.invited',
        'chat.message.created',
      ]),
    );
    const deleted = res.body.data.find((t: { type: string }) => t.type === 'documents.document.deleted');
    expect(deleted.schema).toMatchObject({
      type: 'object',
      required: ['document_id', 'uploaded_by', 'deleted_by', 'deleted_at'],
      properties: { document_id: { type: 'string', format: 'uuid' } },
    });
  });

  it('answers 403 naming webhooks:admin to a caller without it', async () => {
    const res = await h.api('/endpoints', { permissions: ['tasks:read'] });
    expect(res.status).toBe(403);
    expect(res.body.detail).toContain('webhooks:admin');
  });

  it('creates an endpoint with a whsec_ secret shown once, stored sealed, then lists, reads, changes and deletes it', async () => {
    const created = await h.api('/endpoints', {
      method: 'POST',
      json: { url: PUBLIC_URL, description: 'ad server', event_types: ['assignment.task.claimed'] },
    });
    expect(created.status).toBe(201);
    const endpoint = created.body.data;
    expect(endpoint).toEqual({
      id: expect.any(String),
      url: PUBLIC_URL,
      description: 'ad server',
      event_types: ['assignment.task.claimed'],
      disabled: false,
      disabled_reason: null,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(Buffer.from(endpoint.secret.slice(6), 'base64')).toHaveLength(32);
    const [row] = await h.query<{ secret_sealed: string }>(
      `SELECT secret_sealed FROM webhook_endpoints WHERE id = $1`,
      [endpoint.id],
    );
    expect(row.secret_sealed).not.toContain(endpoint.secret.slice(6));
    expect(row.secret_sealed).toMatch(/^v1\./);

    const one = await h.api(`/endpoints/${endpoint.id}`);
    expect(one.status).toBe(200);
    expect(one.body.data).not.toHaveProperty('secret');
    const list = await h.api('/endpoints');
    expect(list.body.data.results.map((e: { id: string }) => e.id)).toContain(endpoint.id);
    expect(list.body.data.results[0]).not.toHaveProperty('secret');

    const patched = await h.api(`/endpoints/${endpoint.id}`, {
      method: 'PATCH',
      json: { event_types: ['*'], disabled: true },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ event_types: ['*'], disabled: true });
    const enabled = await h.api(`/endpoints/${endpoint.id}`, { method: 'PATCH', json: { disabled: false } });
    expect(enabled.body.data).toMatchObject({ disabled: false, disabled_reason: null });

    const rotated = await h.api(`/endpoints/${endpoint.id}/rotate-secret`, { method: 'POST' });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.secret).toMatch(/^whsec_/);
    expect(rotated.body.data.secret).not.toBe(endpoint.secret);

    expect((await h.api(`/endpoints/${endpoint.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await h.api(`/endpoints/${endpoint.id}`)).status).toBe(404);
    expect((await h.api(`/endpoints/${endpoint.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await h.api(`/endpoints/${endpoint.id}/rotate-secret`, { method: 'POST' })).status).toBe(404);
  });

  it.each([
    ['http://example.com/', 'value_error'],
    ['https://user:pass@example.com/', 'value_error'],
    [`https://example.com/${'a'.repeat(2048)}`, 'string_too_long'],
    ['https://169.254.169.254/latest/meta-data', 'url_not_allowed'],
    ['https://[::1]/', 'url_not_allowed'],
    ['https://10.0.0.1/', 'url_not_allowed'],
    ['https://localhost/', 'url_not_allowed'],
  ])('refuses %s with 422 %s at ["body","url"]', async (url, type) => {
    const res = await h.api('/endpoints', { method: 'POST', json: { url, event_types: ['*'] } });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([{ loc: ['body', 'url'], msg: expect.any(String), type }]);
  });

  it('refuses unknown event types and a "*" among others, each at its index', async () => {
    const res = await h.api('/endpoints', {
      method: 'POST',
      json: { url: PUBLIC_URL, event_types: ['assignment.task.claimed', 'nope', '*'] },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      { loc: ['body', 'event_types', '1'], msg: 'not an event type of the catalogue', type: 'enum' },
      { loc: ['body', 'event_types', '2'], msg: '"*" must be the only type', type: 'enum' },
    ]);
  });

  it('refuses an empty list of event types and unknown fields', async () => {
    const res = await h.api('/endpoints', {
      method: 'POST',
      json: { url: PUBLIC_URL, event_types: [], x: 1 },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ loc: ['body', 'event_types'], type: 'too_short' }),
        expect.objectContaining({ loc: ['body', 'x'], type: 'extra_forbidden' }),
      ]),
    );
  });

  it("checks a change with creation's rules: null only clears the description, an empty list and unknown fields are 422", async () => {
    const endpoint = await h.endpoint(PUBLIC_URL, ['assignment.task.claimed']);
    const refused = await h.api(`/endpoints/${endpoint.id}`, {
      method: 'PATCH',
      json: { url: null, event_types: [], disabled: 'no', x: 1 },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.detail.map((issue: { loc: string[] }) => issue.loc.join('.')).sort()).toEqual([
      'body.disabled',
      'body.event_types',
      'body.url',
      'body.x',
    ]);
    const cleared = await h.api(`/endpoints/${endpoint.id}`, {
      method: 'PATCH',
      json: { description: null },
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data).toMatchObject({ url: PUBLIC_URL, description: null });
  });
});

/**
 * `@media/client` against the running stack: one call per app through the gateway, typed by the
 * generated paths (the root `npm run typecheck` compiles this file, so a request or a field the
 * document no longer has fails the build), and refresh on 401.
 */
import { randomUUID } from 'node:crypto';
import { createApiClient, loginClient, type ApiClient, type TokenPair } from '../src';
import { adminToken, stack } from '@media/testing';

let admin: ApiClient;

beforeAll(async () => {
  admin = createApiClient({ baseUrl: stack().gatewayUrl, token: await adminToken() });
});

describe('@media/client', () => {
  it('acl: logs in and reads the caller, typed down to its fields', async () => {
    const { gatewayUrl, admin: login } = stack();
    const { client, tokens } = await loginClient({ baseUrl: gatewayUrl, ...login });
    expect(tokens.token_type).toBe('Bearer');
    const { data, response } = await client.GET('/acl/api/v1/users/me');
    expect(response.status).toBe(200);
    const email: string = data!.email;
    expect(email).toBe(login.email);
    expect(data!.roles).toContain('ADMIN');
  });

  it('acl: a request answered 401 refreshes the pair once and is sent again with the new token', async () => {
    const { gatewayUrl, admin: login } = stack();
    const { tokens } = await loginClient({ baseUrl: gatewayUrl, ...login });
    const seen: TokenPair[] = [];
    const client = createApiClient({
      baseUrl: gatewayUrl,
      token: 'not-a-valid-token',
      refresh: { refreshToken: tokens.refresh_token, onTokens: (pair) => seen.push(pair) },
    });
    const { data, response } = await client.GET('/acl/api/v1/users/me');
    expect(response.status).toBe(200);
    expect(data?.email).toBe(login.email);
    expect(seen).toHaveLength(1);
    expect(seen[0].refresh_token).not.toBe(tokens.refresh_token);
  });

  it('acl: without a refresh option a 401 is answered as is, with its typed error', async () => {
    const client = createApiClient({ baseUrl: stack().gatewayUrl, token: 'not-a-valid-token' });
    const { data, error, response } = await client.GET('/acl/api/v1/users/me');
    expect(response.status).toBe(401);
    expect(data).toBeUndefined();
    expect(error).toMatchObject({ code: expect.any(String) });
  });

  it('content: creates a story category and reads it back by its path parameter', async () => {
    const name = `client-${randomUUID()}`;
    const created = await admin.POST('/content/api/v1/story-categories', {
      body: { name, description: null },
    });
    expect(created.response.status).toBe(201);
    const { data } = await admin.GET('/content/api/v1/story-categories/{id}', {
      params: { path: { id: created.data!.id } },
    });
    expect(data?.name).toBe(name);
  });

  it('assignment: lists tasks as a typed cursor page', async () => {
    const { data, response } = await admin.GET('/assignment/api/v1/tasks');
    expect(response.status).toBe(200);
    expect(Array.isArray(data!.results)).toBe(true);
    expect(data!.next === null || typeof data!.next === 'string').toBe(true);
  });

  it('inventory: lists bookings', async () => {
    const { data, response } = await admin.GET('/inventory/api/v1/bookings');
    expect(response.status).toBe(200);
    expect(Array.isArray(data!.results)).toBe(true);
  });

  it('commercial: creates a client and finds it in the list', async () => {
    const name = `Client ${randomUUID()}`;
    const created = await admin.POST('/commercial/api/v1/clients', { body: { name, category: 'Retail' } });
    expect(created.response.status).toBe(201);
    expect(created.data?.name).toBe(name);
  });

  it('payment: lists commission plans', async () => {
    const { response, data } = await admin.GET('/payment/api/v1/commissions/plans');
    expect(response.status).toBe(200);
    expect(data).toBeDefined();
  });

  it('documents: lists documents', async () => {
    const { data, response } = await admin.GET('/documents/api/v1/documents');
    expect(response.status).toBe(200);
    expect(Array.isArray(data!.results)).toBe(true);
  });

  it("chat-notifications: reads the caller's notification preferences", async () => {
    const { response, data } = await admin.GET('/api/v1/notifications/preferences');
    expect(response.status).toBe(200);
    expect(data).toBeDefined();
  });
});

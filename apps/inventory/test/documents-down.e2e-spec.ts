/**
 * inventory on a NATS of its own where the documents app does not run (acl beside it, for the
 * keys): checking a document finds no responder, so setting or attaching one answers 503
 * `upstream_unavailable` and changes nothing, while detaching (no document to check) still works
 * (docs/api/contract.md §4.5, §5).
 */
import { randomUUID } from 'node:crypto';
import {
  call,
  mintToken,
  queryDatabase,
  startNats,
  startPrivateStack,
  type PrivateNats,
  type PrivateStack,
} from '@media/testing';
import { line, reference } from './support';

let priv: PrivateStack;
let nats: PrivateNats;

beforeAll(async () => {
  // Its own NATS: on the shared one, the main stack's documents app would answer.
  nats = await startNats();
  priv = await startPrivateStack(['acl', 'inventory'], { NATS_URL: nats.url });
}, 240_000);

afterAll(async () => {
  await priv?.stop();
  await nats?.stop();
}, 60_000);

it('answers 503 upstream_unavailable when documents does not answer, and changes nothing', async () => {
  const { info } = priv;
  const base = `${info.urls.inventory}/inventory/api/v1/bookings`;
  const token = mintToken(info.keys, { permissions: ['bookings:read', 'bookings:write'] });
  const booking = await call<any>(base, '', {
    token,
    json: { reference: reference(), client_name: 'Acme', lines: [line()] },
  });
  expect(booking.status).toBe(201);
  const lineId = booking.body.lines[0].id as string;
  const assets = `/${booking.body.id}/lines/${lineId}/assets`;

  const attach = await call<any>(base, assets, {
    token,
    json: { name: 'Spot A', document_id: randomUUID() },
  });
  expect(attach.status).toBe(503);
  expect(attach.body.code).toBe('upstream_unavailable');

  const created = await call<any>(base, assets, { token, json: { name: 'Spot A' } });
  expect(created.status).toBe(201);
  const path = `${assets}/${created.body.id}`;
  const set = await call<any>(base, path, {
    method: 'PATCH',
    token,
    json: { document_id: randomUUID(), name: 'changed' },
  });
  expect(set.status).toBe(503);
  expect(set.body.code).toBe('upstream_unavailable');

  const rows = await queryDatabase<{ name: string; document_id: string | null }>(
    info.databases.inventory,
    'SELECT name, document_id FROM line_assets WHERE line_id = $1',
    [lineId],
  );
  expect(rows).toEqual([{ name: 'Spot A', document_id: null }]);

  // Detaching needs no document check.
  const detach = await call<any>(base, path, { method: 'PATCH', token, json: { document_id: null } });
  expect(detach.status).toBe(200);
});

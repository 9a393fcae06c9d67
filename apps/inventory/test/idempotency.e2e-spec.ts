/**
 * Idempotency keys on inventory's creates: bookings, lines and line assets (docs/api/contract.md
 * §7.1); the whole behaviour is in commercial's idempotency tests, the same platform piece.
 */
import { randomUUID } from 'node:crypto';
import { expectReplayOf, idempotencyKey, keyReused } from '@media/testing';
import { createBooking, inventory, inventoryDb, line, reference, writer } from './support';

describe('Idempotency-Key on inventory creates', () => {
  it('replays a booking create and stores one booking; another body with the key is 422', async () => {
    const token = writer();
    const headers = idempotencyKey();
    const json = { reference: reference(), client_name: 'Acme', lines: [line()] };
    const first = await inventory('/api/v1/bookings', { token, json, headers });
    expect(first.status).toBe(201);
    expectReplayOf(await inventory('/api/v1/bookings', { token, json, headers }), first);
    expect(
      await inventoryDb(`SELECT count(*)::int AS n FROM bookings WHERE reference = $1`, [json.reference]),
    ).toEqual([{ n: 1 }]);
    const other = await inventory('/api/v1/bookings', {
      token,
      json: { ...json, reference: reference() },
      headers,
    });
    expect(other.status).toBe(422);
    expect(other.body).toEqual(keyReused());
  });

  it('replays a line added to a booking, and an asset added to a line', async () => {
    const sub = randomUUID();
    const booking = await createBooking({}, writer(sub));
    const token = writer(sub);
    const linePath = `/api/v1/bookings/${booking.id}/lines`;
    const lineKey = idempotencyKey();
    const added = await inventory(linePath, { token, json: line({ channel: 'Retry' }), headers: lineKey });
    expect(added.status).toBe(201);
    expectReplayOf(
      await inventory(linePath, { token, json: line({ channel: 'Retry' }), headers: lineKey }),
      added,
    );
    expect(
      await inventoryDb(
        `SELECT count(*)::int AS n FROM booking_lines WHERE order_id = $1 AND channel = 'Retry'`,
        [booking.id],
      ),
    ).toEqual([{ n: 1 }]);

    const assetPath = `${linePath}/${added.body.id}/assets`;
    const assetKey = idempotencyKey();
    const asset = await inventory(assetPath, { token, json: { name: 'Spot A' }, headers: assetKey });
    expect(asset.status).toBe(201);
    expectReplayOf(await inventory(assetPath, { token, json: { name: 'Spot A' }, headers: assetKey }), asset);
    expect(
      await inventoryDb(`SELECT count(*)::int AS n FROM line_assets WHERE line_id = $1`, [added.body.id]),
    ).toEqual([{ n: 1 }]);
  });
});

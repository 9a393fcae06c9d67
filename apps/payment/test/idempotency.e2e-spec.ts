/**
 * Idempotency keys on payment's POSTs: plans, targets and collections (docs/api/contract.md
 * §7.1); the whole behaviour is in commercial's idempotency tests, the same platform piece.
 */
import { expectReplayOf, idempotencyKey, keyReused } from '@media/testing';
import { createUser, financeToken, payment, paymentDb, unique } from './support';

describe('Idempotency-Key on payment POSTs', () => {
  it('records one collection for a retried create and replays the answer; another amount with the key is 422', async () => {
    const bm = await createUser();
    const headers = idempotencyKey();
    const json = {
      bm_id: bm.id,
      category: unique('cat'),
      amount: '125.50',
      collected_at: '2026-02-03T10:00:00Z',
    };
    const first = await payment('/api/v1/collections', { token: financeToken(), json, headers });
    expect(first.status).toBe(201);
    expectReplayOf(await payment('/api/v1/collections', { token: financeToken(), json, headers }), first);
    expect(await paymentDb(`SELECT count(*)::int AS n FROM collections WHERE bm_id = $1`, [bm.id])).toEqual([
      { n: 1 },
    ]);
    const other = await payment('/api/v1/collections', {
      token: financeToken(),
      json: { ...json, amount: '999.00' },
      headers,
    });
    expect(other.status).toBe(422);
    expect(other.body).toEqual(keyReused());
  });

  it('replays a plan and a target', async () => {
    const category = unique('plan');
    const planKey = idempotencyKey();
    const plan = { category, tiers: [{ min_achievement_pct: '0', rate_pct: '1.5' }] };
    const firstPlan = await payment('/api/v1/commissions/plans', {
      token: financeToken(),
      json: plan,
      headers: planKey,
    });
    expect(firstPlan.status).toBeGreaterThanOrEqual(200);
    expectReplayOf(
      await payment('/api/v1/commissions/plans', { token: financeToken(), json: plan, headers: planKey }),
      firstPlan,
    );

    const bm = await createUser();
    const target = { bm_id: bm.id, category, year: 2026, month: 2, target_amount: '1000.00' };
    const targetKey = idempotencyKey();
    const firstTarget = await payment('/api/v1/commissions/targets', {
      token: financeToken(),
      json: target,
      headers: targetKey,
    });
    expect(firstTarget.status).toBeGreaterThanOrEqual(200);
    expectReplayOf(
      await payment('/api/v1/commissions/targets', {
        token: financeToken(),
        json: target,
        headers: targetKey,
      }),
      firstTarget,
    );
  });
});

/**
 * payment's audit trail (CONTRACT §8.1): a plan created with its tiers, a plan replaced (its old
 * tiers deleted, the new ones created), a target created then updated by the same upsert, and a
 * refused target (unknown user) recording nothing.
 */
import { randomUUID } from 'node:crypto';
import { recordedEntries, sealedEntries } from '@media/testing';
import { createUser, postPlan, postTarget, system, unique } from './support';

const db = () => system().databases.payment;

describe('the audit trail of payment', () => {
  it('records a plan created, and its tiers deleted and created when it is replaced', async () => {
    const category = unique('cat');
    const created = await postPlan(category, [['0', '1.5']]);
    expect(created.status).toBe(201);
    const replaced = await postPlan(category, [['50', '2.5']]);
    expect(replaced.status).toBe(200);
    const plan = created.body.id as string;
    const [planCreated] = await sealedEntries(db(), { type: 'commission_plan', id: plan }, 1);
    expect(planCreated).toMatchObject({
      action: 'commission_plan.created',
      changes: { category: [null, category] },
    });
    const tiers = await sealedEntries(db(), { type: 'commission_plan.tier', id: plan }, 3);
    expect(tiers.map((t) => t.action)).toEqual([
      'commission_plan.tier.created',
      'commission_plan.tier.deleted',
      'commission_plan.tier.created',
    ]);
    expect(tiers[1].changes.rate_pct[1]).toBeNull();
    expect(tiers[2].changes.min_achievement_pct[0]).toBeNull();
  });

  it('records a target created then updated, and nothing for a refused one', async () => {
    const bm = await createUser();
    const category = unique('cat');
    expect((await postPlan(category, [['0', '1']])).status).toBe(201);
    const first = await postTarget(bm.id, category, 2026, 3, '1000.00');
    expect([first.status, first.text]).toEqual([201, expect.any(String)]);
    const second = await postTarget(bm.id, category, 2026, 3, '1500.00');
    expect(second.status).toBe(200);
    const [created, updated] = await sealedEntries(db(), { type: 'commission_target', id: first.body.id }, 2);
    expect(created).toMatchObject({ action: 'commission_target.created', actor: { type: 'user' } });
    expect(updated).toMatchObject({ action: 'commission_target.updated' });
    expect(Object.keys(updated.changes)).toEqual(['target_amount']);

    const refused = await postTarget(randomUUID(), category, 2026, 4, '1.00');
    expect(refused.status).toBe(422);
    expect(await recordedEntries(db(), first.body.id)).toBe(2);
  });
});

/**
 * commercial's audit trail (CONTRACT §8.1): commercial's API only creates (clients, deals), so a
 * client and a deal created each record one entry with their fields, and a refused deal (unknown
 * client) records nothing. The won-revenue rollup its deals feed is derived data, not audited.
 */
import { randomUUID } from 'node:crypto';
import { queryDatabase, sealedEntries } from '@media/testing';
import { commercial, createClient, createDeal, salesToken, system, unique } from './support';

const db = () => system().databases.commercial;

describe('the audit trail of commercial', () => {
  it('records a client and a deal created, with their fields', async () => {
    const name = unique('audited');
    const client = await createClient(name, 'RETAIL');
    const deal = await createDeal(client.id, '1200.50', '2026-01-15');
    const [clientCreated] = await sealedEntries(db(), { type: 'client', id: client.id }, 1);
    expect(clientCreated).toMatchObject({
      app: 'commercial',
      action: 'client.created',
      actor: { type: 'user' },
      changes: { name: [null, name], category: [null, 'RETAIL'] },
    });
    const [dealCreated] = await sealedEntries(db(), { type: 'deal', id: deal.id }, 1);
    expect(dealCreated).toMatchObject({
      action: 'deal.created',
      changes: { client_id: [null, client.id], status: [null, 'WON'] },
    });
  });

  it('records nothing for a refused deal', async () => {
    // An amount no other test sends, so the count below sees only this refusal's would-be entry.
    const revenue = `${900_000 + Math.floor(Math.random() * 99_999)}.37`;
    const res = await commercial('/api/v1/deals', {
      token: salesToken(),
      json: {
        client_id: randomUUID(),
        contracted_revenue: revenue,
        contract_date: '2026-01-15',
        status: 'WON',
      },
    });
    expect(res.status).toBe(422);
    const recorded = await queryDatabase<{ n: number }>(
      db(),
      `SELECT count(*)::int AS n FROM audit_entries WHERE resource_type = 'deal' AND changes->'contracted_revenue'->>1 = $1`,
      [revenue],
    );
    expect(recorded[0].n).toBe(0);
  });
});

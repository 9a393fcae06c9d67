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
    const before = await queryDatabase<{ n: number }>(db(), `SELECT count(*)::int AS n FROM audit_entries`);
    const res = await commercial('/api/v1/deals', {
      token: salesToken(),
      json: {
        client_id: randomUUID(),
        contracted_revenue: '10.00',
        contract_date: '2026-01-15',
        status: 'WON',
      },
    });
    expect(res.status).toBe(422);
    const after = await queryDatabase<{ n: number }>(
      db(),
      `SELECT count(*)::int AS n FROM audit_entries WHERE resource_type = 'deal' AND changes->'contracted_revenue'->>1 = '10.00'`,
    );
    expect(before[0].n).toBeGreaterThanOrEqual(0);
    expect(after[0].n).toBe(0);
  });
});

import { newestFirst } from './paginator';

describe('newestFirst', () => {
  it('orders by the time, then the id of the same alias, both descending', () => {
    const order = newestFirst<{ id: string; createdAt: Date }>('m.created_at', (m) => m.createdAt);
    expect(order.columns).toEqual([
      { expression: 'm.created_at', direction: 'DESC', cast: 'timestamptz' },
      { expression: 'm.id', direction: 'DESC', cast: 'uuid' },
    ]);
    const row = { id: 'a0000000-0000-4000-8000-000000000000', createdAt: new Date('2026-11-26T10:00:00Z') };
    expect(order.key(row)).toEqual(['2026-11-26T10:00:00.000Z', row.id]);
  });
});

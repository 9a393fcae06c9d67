import { createHash } from 'node:crypto';
import { canonicalize } from 'json-canonicalize';
import { ChainWalker, entryHash, GENESIS_HASH, type AuditEntry } from './chain';

/** The definition itself: SHA-256 of prev_hash and the general RFC 8785 canonicalizer's text. */
function definitionHash(entry: object & { prev_hash: string }): string {
  const { hash: _hash, ...hashed } = entry as AuditEntry;
  return createHash('sha256').update(entry.prev_hash).update(canonicalize(hashed)).digest('hex');
}

const base: Omit<AuditEntry, 'hash'> = {
  id: '0b6f3c1e-6a43-4c39-9b2c-2f0c1d7a5e10',
  seq: 1,
  at: '2026-11-27T09:00:00.000Z',
  app: 'assignment',
  action: 'task.claimed',
  actor: { type: 'user', id: '8d1f2b7e-3c4a-4e5f-9a6b-7c8d9e0f1a2b', name: 'Edna Editor' },
  resource: { type: 'task', id: '5e4d3c2b-1a09-4f8e-8d7c-6b5a49382716' },
  request_id: 'req-1',
  cause: null,
  changes: { status: ['OPEN', 'CLAIMED'] },
  prev_hash: GENESIS_HASH,
};

describe('entryHash', () => {
  it.each<[string, Omit<AuditEntry, 'hash'> | Record<string, unknown>]>([
    ['a plain entry', base],
    [
      'nulls where the contract allows them',
      {
        ...base,
        actor: { ...base.actor, name: null },
        resource: { type: 'user', id: null },
        request_id: null,
      },
    ],
    [
      'a system actor and a cause',
      {
        ...base,
        actor: { type: 'system', id: 'assignment:escalation', name: null },
        cause: 'c0000000-0000-4000-8000-000000000001',
      },
    ],
    [
      'text that needs escaping, non-ASCII, astral and lone surrogates',
      {
        ...base,
        actor: { ...base.actor, name: 'Zoë "Z" \\ \n\t\u0001 \u2028 😀 \ud800' },
        action: 'é.ü',
        request_id: '</script>',
      },
    ],
    [
      'changes of every JSON kind, keys sorted by UTF-16 code units',
      {
        ...base,
        changes: {
          zeta: [null, { b: [1, 2.5, -0, 1e21, 1e-7], a: true }],
          é: ['x', 'y'],
          '😀': [0, 1],
          '\ufb33': [false, null],
          amount: ['12.50', '13.00'],
          A: [[], {}],
        },
      },
    ],
    ['a large seq', { ...base, seq: 9_007_199_254_740_991 }],
    ['the hash field present (ignored)', { ...base, hash: 'f'.repeat(64) }],
    ['an extra field (the general way)', { ...base, extra: 1 }],
    ['a field missing (the general way)', (({ cause: _cause, ...rest }) => rest)(base)],
    ['an actor with an extra field (the general way)', { ...base, actor: { ...base.actor, role: 'x' } }],
    ['a seq that is not an integer (the general way)', { ...base, seq: 1.5 }],
  ])('is the RFC 8785 hash for %s', (_case, entry) => {
    expect(entryHash(entry as AuditEntry)).toBe(definitionHash(entry as AuditEntry));
  });

  it('is the RFC 8785 hash for a thousand varied entries', () => {
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
    const text = () =>
      String.fromCharCode(
        ...Array.from({ length: Math.floor(next() * 12) }, () => Math.floor(next() * 0x3000)),
      );
    for (let i = 0; i < 1000; i++) {
      const entry = {
        ...base,
        seq: 1 + Math.floor(next() * 1e9),
        action: text(),
        actor: { type: next() < 0.5 ? 'user' : 'system', id: text(), name: next() < 0.3 ? null : text() },
        resource: { type: text(), id: next() < 0.2 ? null : text() },
        request_id: next() < 0.3 ? null : text(),
        cause: next() < 0.7 ? null : text(),
        changes: { [text()]: [text(), next() * 1e6], [text()]: [null, { [text()]: next() < 0.5 }] },
      } as Omit<AuditEntry, 'hash'>;
      expect(entryHash(entry)).toBe(definitionHash(entry));
    }
  });
});

describe('ChainWalker', () => {
  it('walks a chain hashed with entryHash and names the first break', () => {
    const first = { ...base, hash: entryHash(base) };
    const secondUnsealed = { ...base, seq: 2, prev_hash: first.hash };
    const second = { ...secondUnsealed, hash: entryHash(secondUnsealed) };
    const walker = new ChainWalker();
    expect([walker.next(first), walker.next(second)]).toEqual([null, null]);
    expect(walker.checkpoint({ app: 'assignment', seq: 2, hash: second.hash, at: base.at })).toBeNull();
    expect(walker.next({ ...second, seq: 3, prev_hash: second.hash })).toEqual({
      seq: 3,
      reason: 'hash_mismatch',
    });
  });
});

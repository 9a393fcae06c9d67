/**
 * Idempotency keys on multipart uploads (docs/api/contract.md §7.1): the fingerprint covers the
 * file's bytes, not the multipart boundary, which changes from one sending to the next. The
 * whole behaviour is in commercial's idempotency tests, the same platform piece.
 */
import { randomBytes } from 'node:crypto';
import { expectReplayOf, idempotencyKey, keyReused } from '@media/testing';
import { caller, db, documents, multipart, system, type Caller } from './support';

function send(who: Caller, content: Buffer, headers: Record<string, string>, filename = 'scan.pdf') {
  // A fresh boundary each time, as a client's retry would have.
  const { body, contentType } = multipart([
    { name: 'file', filename, contentType: 'application/pdf', content },
  ]);
  return documents('/api/v1/documents', {
    token: who.token,
    raw: body,
    headers: { 'content-type': contentType, ...headers },
  });
}

const storedBy = async (who: Caller) =>
  (
    await db<{ n: number }>(
      system().databases.documents,
      `SELECT count(*)::int AS n FROM documents WHERE uploaded_by = $1`,
      [who.id],
    )
  )[0].n;

describe('Idempotency-Key on POST /documents/api/v1/documents (multipart)', () => {
  it('stores one document for a retried upload and replays the answer byte for byte', async () => {
    const writer = caller();
    const content = randomBytes(200_000);
    const headers = idempotencyKey();
    const first = await send(writer, content, headers);
    expect(first.status).toBe(201);
    expectReplayOf(await send(writer, content, headers), first);
    expect(await storedBy(writer)).toBe(1);
  });

  it('refuses the key with other file bytes, or another file name, with 422', async () => {
    const writer = caller();
    const content = randomBytes(1000);
    const headers = idempotencyKey();
    expect((await send(writer, content, headers)).status).toBe(201);
    const changed = Buffer.from(content);
    changed[999] ^= 1;
    const otherBytes = await send(writer, changed, headers);
    expect(otherBytes.status).toBe(422);
    expect(otherBytes.body).toEqual(keyReused());
    const otherName = await send(writer, content, headers, 'renamed.pdf');
    expect(otherName.status).toBe(422);
    expect(await storedBy(writer)).toBe(1);
  });

  it('frees the key after a refused upload: the fixed one succeeds with the same key', async () => {
    const writer = caller();
    const headers = idempotencyKey();
    const { body, contentType } = multipart([{ name: 'not_file', content: 'x' }]);
    const refused = await documents('/api/v1/documents', {
      token: writer.token,
      raw: body,
      headers: { 'content-type': contentType, ...headers },
    });
    expect(refused.status).toBe(422);
    const fixed = await send(writer, randomBytes(10), headers);
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get('idempotent-replayed')).toBeNull();
  });

  it('stores one document when 10 uploads with one key race', async () => {
    const writer = caller();
    const content = randomBytes(50_000);
    const headers = idempotencyKey();
    const results = await Promise.all(Array.from({ length: 10 }, () => send(writer, content, headers)));
    const processed = results.filter((r) => r.status === 201 && !r.headers.get('idempotent-replayed'));
    expect(processed).toHaveLength(1);
    expect(results.every((r) => r.status === 201 || r.status === 409)).toBe(true);
    expect(await storedBy(writer)).toBe(1);
  });
});

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompactSign, exportJWK, generateKeyPair, type CryptoKey } from 'jose';
import type { AuditCheckpoint, AuditEntry } from '@media/core';
import { checkpointOf, exportLines, rehash, sealedChain } from '../test/exports';
import { loadAuditKeys, type AuditKeys } from './keys';
import { verifyExport } from './verify';

/** The tool's walk over in-memory lines; keys signed by a key pair of the test's own, standing in for acl's. */
const KID = 'test-kid';
let privateKey: CryptoKey;
let keys: AuditKeys;
const sign = (checkpoint: AuditCheckpoint, key: CryptoKey = privateKey, kid = KID) =>
  new CompactSign(new TextEncoder().encode(JSON.stringify(checkpoint)))
    .setProtectedHeader({ alg: 'RS256', kid })
    .sign(key);

beforeAll(async () => {
  const pair = await generateKeyPair('RS256', { extractable: true });
  const unrelated = await generateKeyPair('RS256', { extractable: true });
  privateKey = pair.privateKey;
  const jwk = async (key: CryptoKey, kid: string) => ({
    ...(await exportJWK(key)),
    kid,
    alg: 'RS256',
    use: 'sig',
  });
  const file = join(mkdtempSync(join(tmpdir(), 'audit-keys-')), 'audit-keys.json');
  writeFileSync(
    file,
    JSON.stringify({ keys: [await jwk(unrelated.publicKey, 'other-kid'), await jwk(pair.publicKey, KID)] }),
  );
  keys = await loadAuditKeys(file);
});

async function* each(lines: string[]) {
  yield* lines;
}
const verify = (lines: string[], partial = false) => verifyExport(each(lines), keys, { partial });

/** Ten entries with checkpoints after seq 4 and seq 10: 12 lines (line 5 and line 12 are checkpoints). */
async function exported(): Promise<{ entries: AuditEntry[]; lines: string[] }> {
  const entries = sealedChain('commercial', 10);
  return { entries, lines: await exportLines(entries, [4, 10], (c) => sign(c)) };
}

const parsed = (line: string) => JSON.parse(line) as Record<string, any>;

describe('verifyExport', () => {
  it('holds an untouched export: every entry walked, both checkpoints verified', async () => {
    const { entries, lines } = await exported();
    lines.push('');
    expect(await verify(lines)).toEqual({
      valid: true,
      app: 'commercial',
      entries: 10,
      start: { seq: 1, anchored_by_checkpoint: false },
      head: { seq: 10, hash: entries[9].hash },
      checkpoints: 2,
      checkpoint: { seq: 10, at: checkpointOf(entries[9]).at, kid: KID },
      kids: [KID],
      first_break: null,
    });
  });

  it('names an edited field as a hash_mismatch at its seq', async () => {
    const { lines } = await exported();
    lines[6] = JSON.stringify({ ...parsed(lines[6]), action: 'booking.deleted' });
    expect((await verify(lines)).first_break).toMatchObject({ seq: 6, reason: 'hash_mismatch', line: 7 });
  });

  it('names an edited entry re-hashed with every entry after it at the next checkpoint (checkpoint_mismatch)', async () => {
    const { entries, lines } = await exported();
    let prev = entries[4].hash;
    for (let seq = 6; seq <= 10; seq++) {
      const edited = rehash(
        { ...entries[seq - 1], ...(seq === 6 ? { action: 'booking.deleted' } : {}) },
        prev,
      );
      prev = edited.hash;
      lines[seq] = JSON.stringify(edited);
    }
    expect((await verify(lines)).first_break).toMatchObject({
      seq: 10,
      reason: 'checkpoint_mismatch',
      line: 12,
    });
  });

  it('names a deleted line as a gap at the missing seq', async () => {
    const { lines } = await exported();
    lines.splice(7, 1); // seq 7
    expect((await verify(lines)).first_break).toMatchObject({ seq: 7, reason: 'gap' });
  });

  it('names a deleted first line as a gap at seq 1', async () => {
    const { lines } = await exported();
    expect((await verify(lines.slice(1))).first_break).toMatchObject({ seq: 1, reason: 'gap', line: 1 });
  });

  it('names an inserted line as a gap where it stands', async () => {
    const { lines } = await exported();
    lines.splice(3, 0, lines[2]); // seq 3 twice
    expect((await verify(lines)).first_break).toMatchObject({ seq: 3, reason: 'gap', line: 4 });
  });

  it('names two swapped lines as a gap at the first', async () => {
    const { lines } = await exported();
    [lines[1], lines[2]] = [lines[2], lines[1]]; // seq 3 before seq 2
    expect((await verify(lines)).first_break).toMatchObject({ seq: 2, reason: 'gap', line: 2 });
  });

  it('names an altered checkpoint as a checkpoint_mismatch at its seq', async () => {
    const { lines } = await exported();
    const line = parsed(lines[4]);
    lines[4] = JSON.stringify({ ...line, checkpoint: { ...line.checkpoint, hash: 'e'.repeat(64) } });
    expect((await verify(lines)).first_break).toMatchObject({
      seq: 4,
      reason: 'checkpoint_mismatch',
      line: 5,
    });
  });

  it('names a checkpoint whose at was changed after signing as signature_invalid', async () => {
    const { lines } = await exported();
    const line = parsed(lines[4]);
    lines[4] = JSON.stringify({
      ...line,
      checkpoint: { ...line.checkpoint, at: '2030-01-01T00:00:00.000Z' },
    });
    expect((await verify(lines)).first_break).toMatchObject({
      seq: 4,
      reason: 'signature_invalid',
      detail: 'the JWS signs another checkpoint',
    });
  });

  it('names a forged signature (another key claiming the kid) as signature_invalid', async () => {
    const { lines } = await exported();
    const line = parsed(lines[11]);
    const forger = await generateKeyPair('RS256');
    lines[11] = JSON.stringify({ ...line, jws: await sign(line.checkpoint, forger.privateKey) });
    expect((await verify(lines)).first_break).toMatchObject({
      seq: 10,
      reason: 'signature_invalid',
      line: 12,
    });
  });

  it('names a signature of a key the audit keys do not hold, and a JWS that is not one, as signature_invalid', async () => {
    const { lines } = await exported();
    const line = parsed(lines[4]);
    const unknown = [...lines];
    unknown[4] = JSON.stringify({ ...line, jws: await sign(line.checkpoint, privateKey, 'nobody') });
    expect((await verify(unknown)).first_break).toMatchObject({ seq: 4, reason: 'signature_invalid' });
    const garbage = [...lines];
    garbage[4] = JSON.stringify({ ...line, jws: 'not.a-jws' });
    expect((await verify(garbage)).first_break).toMatchObject({ seq: 4, reason: 'signature_invalid' });
    const swapped = [...lines];
    swapped[4] = JSON.stringify({ ...line, jws: parsed(lines[11]).jws });
    expect((await verify(swapped)).first_break).toMatchObject({ seq: 4, reason: 'signature_invalid' });
  });

  it('names a malformed line with the seq expected there', async () => {
    const { lines } = await exported();
    lines[2] = '{"seq": 3, "app": "commercial"';
    expect((await verify(lines)).first_break).toMatchObject({ seq: 3, reason: 'malformed', line: 3 });
    lines[2] = '{"seq": 3}';
    expect((await verify(lines)).first_break).toMatchObject({ seq: 3, reason: 'malformed' });
  });

  it('names a line of another app as malformed', async () => {
    const { lines } = await exported();
    lines[2] = JSON.stringify({ ...parsed(lines[2]), app: 'payment' });
    expect((await verify(lines)).first_break).toMatchObject({ seq: 3, reason: 'malformed' });
  });

  it('walks an export that starts with a signed checkpoint from right after it (retention pruned before)', async () => {
    const { entries, lines } = await exported();
    const report = await verify(lines.slice(4));
    expect(report).toMatchObject({
      valid: true,
      entries: 6,
      start: { seq: 5, anchored_by_checkpoint: true },
      head: { seq: 10, hash: entries[9].hash },
      checkpoints: 2,
    });
  });

  it('accepts an export from a later seq without a checkpoint only when told it is partial', async () => {
    const { lines } = await exported();
    expect((await verify(lines.slice(5))).first_break).toMatchObject({ seq: 1, reason: 'gap' });
    expect(await verify(lines.slice(5), true)).toMatchObject({ valid: true, entries: 6, start: { seq: 5 } });
  });
});

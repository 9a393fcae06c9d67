/**
 * `npm run audit:verify` (the build's main.js, as the script runs it) on exports whose
 * checkpoints the stack's real acl signed over NATS (`acl.audit.sign-checkpoint`), checked with
 * nothing but a saved copy of acl's audit-keys.json, also across a rotation of acl's signing key.
 * The entries themselves are built here with `entryHash`, standing in for an app's export.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeProtectedHeader } from 'jose';
import type { AuditCheckpoint } from '@media/core';
import { adminToken, call, e2eStack, eventually, rpcTestClientForFile } from '@media/testing';
import { exportLines, sealedChain } from './exports';

const MAIN = join(__dirname, '..', '..', '..', 'dist', 'tools', 'audit-verify', 'src', 'main.js');
const rpc = rpcTestClientForFile(() => e2eStack().env.NATS_URL);
const dir = mkdtempSync(join(tmpdir(), 'audit-verify-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [MAIN, ...args], { timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** acl signs the checkpoint; answers the compact JWS. */
async function aclSigns(checkpoint: AuditCheckpoint): Promise<string> {
  const reply = await rpc.ask<{ kid: string; jws: string }>('acl.audit.sign-checkpoint', checkpoint);
  if (!reply.response) throw new Error(`acl refused to sign: ${JSON.stringify(reply.err)}`);
  return reply.response.jws;
}

const kidOf = (jws: string) => decodeProtectedHeader(jws).kid as string;

/** acl's audit-keys.json as fetched through the gateway, saved to a file. */
async function savedAuditKeys(name: string): Promise<string> {
  const res = await call(e2eStack().gatewayUrl, '/acl/.well-known/audit-keys.json');
  expect(res.status).toBe(200);
  const file = join(dir, name);
  writeFileSync(file, res.text);
  return file;
}

function saved(name: string, lines: string[]): string {
  const file = join(dir, name);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

const report = (result: Run) => JSON.parse(result.stdout) as Record<string, any>;

describe('npm run audit:verify', () => {
  let lines: string[];
  let keys: string;
  beforeAll(async () => {
    lines = await exportLines(sealedChain('content', 20), [8, 20], aclSigns);
    keys = await savedAuditKeys('audit-keys.json');
  });

  it('exits 0 on an export signed by acl, with only the saved audit-keys.json, and says what it checked', async () => {
    const result = await run(saved('valid.ndjson', lines), '--jwks', keys);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(
      /^valid: 20 entries of content walked from seq 1, head seq 20 [0-9a-f]{64}$/m,
    );
    expect(result.stdout).toMatch(/^checkpoints verified: 2 /m);
  });

  it('fetches the audit keys from a URL (the gateway’s audit-keys.json) as well', async () => {
    const url = `${e2eStack().gatewayUrl}/acl/.well-known/audit-keys.json`;
    const result = await run(saved('by-url.ndjson', lines), '--jwks', url, '--json');
    expect(result.code).toBe(0);
    expect(report(result)).toMatchObject({ valid: true, entries: 20, checkpoints: 2, first_break: null });
  });

  const edit = (index: number, change: (line: Record<string, any>) => Record<string, any>) => {
    const copy = [...lines];
    copy[index] = JSON.stringify(change(JSON.parse(copy[index])));
    return copy;
  };
  // Lines: entries 1..8 at indexes 0..7, the seq-8 checkpoint at 8, entries 9..20 at 9..20, the seq-20 checkpoint at 21.
  it.each([
    [
      'an edited field',
      () => edit(4, (e) => ({ ...e, actor: { ...e.actor, name: 'Mallory' } })),
      5,
      'hash_mismatch',
    ],
    ['a deleted line', () => lines.filter((_, i) => i !== 11), 11, 'gap'],
    ['an inserted line', () => [...lines.slice(0, 13), lines[12], ...lines.slice(13)], 12, 'gap'],
    ['two swapped lines', () => [...lines.slice(0, 2), lines[3], lines[2], ...lines.slice(4)], 3, 'gap'],
    [
      'an altered checkpoint',
      () => edit(8, (c) => ({ ...c, checkpoint: { ...c.checkpoint, seq: 7 } })),
      7,
      'checkpoint_mismatch',
    ],
    [
      'a forged signature',
      () => edit(21, (c) => ({ ...c, jws: c.jws.replace(/\.[^.]+$/, `.${'A'.repeat(342)}`) })),
      20,
      'signature_invalid',
    ],
    ['a malformed line', () => [...lines.slice(0, 6), '{"seq": 7', ...lines.slice(7)], 7, 'malformed'],
  ])('exits 1 on %s and names the first break', async (kind, tamper, seq, reason) => {
    const file = saved(`${kind.replace(/\W+/g, '-')}.ndjson`, tamper());
    const human = await run(file, '--jwks', keys);
    expect(human.code).toBe(1);
    expect(human.stdout).toContain(`first break: ${JSON.stringify({ seq, reason })}`);
    const json = await run(file, '--jwks', keys, '--json');
    expect(json.code).toBe(1);
    expect(report(json)).toMatchObject({ valid: false, first_break: { seq, reason } });
  });

  it('exits 2 when it cannot run: no such export, no such key file, no arguments', async () => {
    expect((await run(join(dir, 'missing.ndjson'), '--jwks', keys)).code).toBe(2);
    expect((await run(saved('any.ndjson', lines), '--jwks', join(dir, 'missing.json'))).code).toBe(2);
    const bare = await run();
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('usage: npm run audit:verify');
  });

  it('verifies checkpoints signed before and after a rotation of acl’s signing key with one saved audit-keys.json', async () => {
    const entries = sealedChain('payment', 12);
    const before = await exportLines(entries.slice(0, 6), [6], aclSigns);
    const oldKid = kidOf(JSON.parse(before[6]).jws);

    const admin = await adminToken(e2eStack());
    // A rotation within a minute of another one is refused (429); wait for one to be allowed.
    const rotated = await eventually(
      () => call(e2eStack().gatewayUrl, '/acl/api/v1/keys/rotate', { method: 'POST', token: admin }),
      (res) => res.status === 201,
      { timeoutMs: 90_000, intervalMs: 2_000 },
    );
    expect(rotated.status).toBe(201);
    // The new key signs once every replica publishes it (seconds later).
    await eventually(
      async () => kidOf(await aclSigns({ app: 'payment', seq: 1, hash: entries[0].hash, at: entries[0].at })),
      (kid) => kid === rotated.body.kid,
      { timeoutMs: 30_000, intervalMs: 500, orThrow: 'acl never signed with the rotated key' },
    );
    const after = await exportLines(entries.slice(6), [12], aclSigns);
    expect(kidOf(JSON.parse(after[6]).jws)).toBe(rotated.body.kid);

    const file = saved('rotated.ndjson', [...before, ...after]);
    const result = await run(file, '--jwks', await savedAuditKeys('after-rotation.json'), '--json');
    expect(result.code).toBe(0);
    expect(report(result)).toMatchObject({
      valid: true,
      entries: 12,
      checkpoints: 2,
      kids: [oldKid, rotated.body.kid],
    });
    // The key set saved before the rotation knows only the old key: the new checkpoint is unverifiable with it.
    const stale = await run(file, '--jwks', keys, '--json');
    expect(report(stale).first_break).toMatchObject({ seq: 12, reason: 'signature_invalid' });
  }, 150_000);
});

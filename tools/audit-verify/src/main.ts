import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { loadAuditKeys } from './keys';
import { verifyExport, type VerifyReport } from './verify';

/**
 * `npm run audit:verify -- <export.ndjson> [--jwks <url or file>] [--json] [--partial]`: verifies
 * an app's audit export offline (CONTRACT §8.3), reading it line by line in constant memory.
 * Exit 0: valid; 1: a break, named (`{seq, reason}`); 2: the command could not run (usage, an
 * unreadable file or key set).
 */
const USAGE = `usage: npm run audit:verify -- <export.ndjson | -> [--jwks <url or file>] [--json] [--partial]

  --jwks     acl's audit-keys.json, a file or a URL (default: the local gateway's,
             $GATEWAY_URL or http://localhost:3000, + /acl/.well-known/audit-keys.json)
  --json     print the report as JSON
  --partial  accept an export that starts after seq 1 with no checkpoint before it,
             trusting its first entry's prev_hash (an export from from_seq)`;

function defaultJwks(): string {
  const gateway = (process.env.GATEWAY_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
  return `${gateway}/acl/.well-known/audit-keys.json`;
}

function summary(report: VerifyReport, keysSource: string): string {
  const lines = [
    `${report.valid ? 'valid' : 'INVALID'}: ${report.entries} entries of ${report.app ?? '(none)'} walked from seq ${report.start.seq}${report.start.anchored_by_checkpoint ? ' (after a signed checkpoint)' : ''}, head seq ${report.head.seq} ${report.head.hash}`,
    `checkpoints verified: ${report.checkpoints}${report.kids.length ? ` (keys ${report.kids.join(', ')})` : ''} with ${keysSource}`,
  ];
  if (report.checkpoint) {
    const unsigned = report.head.seq - report.checkpoint.seq;
    lines.push(
      `last checkpoint: seq ${report.checkpoint.seq} at ${report.checkpoint.at}${unsigned > 0 ? `; ${unsigned} entries after it are not signed yet` : ''}`,
    );
  } else if (report.valid) {
    lines.push('no checkpoint: nothing in this export is signed, the chain only shows it is whole');
  }
  if (report.first_break) {
    const { seq, reason, line, detail } = report.first_break;
    lines.push(`first break: ${JSON.stringify({ seq, reason })} at line ${line}: ${detail}`);
  }
  return lines.join('\n');
}

async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs({
      allowPositionals: true,
      options: {
        jwks: { type: 'string' },
        json: { type: 'boolean', default: false },
        partial: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const [file, ...extra] = args.positionals;
  if (args.values.help || !file || extra.length > 0) {
    process.stderr.write(`${USAGE}\n`);
    return args.values.help ? 0 : 2;
  }
  const source = args.values.jwks ?? defaultJwks();
  let keys;
  try {
    keys = await loadAuditKeys(source);
  } catch (error) {
    process.stderr.write(`cannot read the audit keys: ${(error as Error).message}\n`);
    return 2;
  }
  const input = file === '-' ? process.stdin : createReadStream(file);
  const opened = new Promise<void>((resolve, reject) => {
    if (input === process.stdin) resolve();
    input.once('open', () => resolve()).once('error', reject);
  });
  try {
    await opened;
  } catch (error) {
    process.stderr.write(`cannot read ${file}: ${(error as Error).message}\n`);
    return 2;
  }
  const lines = createInterface({ input, crlfDelay: Infinity });
  const report = await verifyExport(lines, keys, { partial: args.values.partial });
  lines.close();
  input.destroy();
  process.stdout.write(`${args.values.json ? JSON.stringify(report) : summary(report, keys.source)}\n`);
  return report.valid ? 0 : 1;
}

main().then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    process.stderr.write(`audit:verify failed: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 2;
  },
);

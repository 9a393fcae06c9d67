/**
 * docs/api/webhooks.md's receiver example, compiled from the page as it is and run as its own
 * process: it verifies a real delivery (and refuses a forged one) as the page says.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { eventually, freePort } from '@media/testing';
import ts from 'typescript';
import { WebhooksHarness } from './webhooks-harness';

const ROOT = resolve(__dirname, '../../..');
const h = new WebhooksHarness();
let receiver: ChildProcess | undefined;
let output = '';

/** The TypeScript block after the page's `<!-- receiver-example -->` marker. */
function example(): string {
  const page = readFileSync(join(ROOT, 'docs/api/webhooks.md'), 'utf8');
  const block = /<!-- receiver-example -->\s*```ts\n([\s\S]*?)```/.exec(page);
  if (!block) throw new Error('docs/api/webhooks.md has no receiver example');
  return block[1];
}

beforeAll(async () => {
  await h.start();
  await h.boot();
}, 60_000);

afterAll(async () => {
  receiver?.kill('SIGTERM');
  await h.stop();
});

describe('the receiver example of docs/api/webhooks.md', () => {
  it('verifies a delivery with the endpoint secret and refuses a forged one', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/`;
    const { secret } = await h.endpoint(url, ['assignment.task.claimed']);
    const compiled = ts.transpileModule(example(), {
      compilerOptions: {
        module: ts.ModuleKind.CommonJS,
        target: ts.ScriptTarget.ES2022,
        esModuleInterop: true,
      },
    }).outputText;
    // Inside the repository, so that `standardwebhooks` resolves from its node_modules.
    const dir = join(ROOT, 'dist', 'docs-examples');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `webhook-receiver-${randomUUID()}.cjs`);
    writeFileSync(file, compiled);
    receiver = spawn(process.execPath, [file], {
      env: { PATH: process.env.PATH, WEBHOOK_SECRET: secret, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    receiver.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    receiver.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));

    const forged = async () => {
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': randomUUID(),
          'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
          'webhook-signature': 'v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
        },
        body: '{"type":"x","timestamp":"2026-01-01T00:00:00Z","data":{}}',
      });
      return res.status;
    };
    await eventually(
      () => forged().catch(() => 0),
      (status) => status !== 0,
      15_000,
    );
    expect(await forged()).toBe(400);

    const eventId = await h.publish('assignment.task.claimed', { task_id: randomUUID() });
    await eventually(
      async () => output,
      (text) => text.includes(eventId),
      15_000,
    );
    expect(output).toContain(`received assignment.task.claimed ${eventId}`);
    const attempts = await h.query<{ status_code: number }>(
      `SELECT a.status_code FROM webhook_attempts a JOIN webhook_messages m ON m.id = a.message_id
        WHERE m.event_id = $1`,
      [eventId],
    );
    expect(attempts).toEqual([{ status_code: 204 }]);
  });
});

/**
 * The resumable-upload examples of docs/api/documents.md, run as a reader would: the Node
 * script with tus-js-client and the curl loop, each against the system through the gateway,
 * with a 20 MB file (three chunks); the document each prints is the file.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { caller, documents, download, system } from './support';

const run = promisify(execFile);
const ROOT = resolve(__dirname, '../../..');
const page = readFileSync(join(ROOT, 'docs/api/documents.md'), 'utf8');

/** The first fenced block of `language` after `heading`. */
function example(heading: string, language: string): string {
  const section = page.slice(page.indexOf(heading));
  const match = new RegExp('```' + language + '\\n([\\s\\S]*?)```').exec(section);
  if (!match) throw new Error(`No ${language} block after ${heading}`);
  return match[1];
}

describe('the resumable-upload examples of docs/api/documents.md', () => {
  let dir: string;
  let file: string;
  const bytes = randomBytes(20_000_000);

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tus-doc-'));
    file = join(dir, 'spot.mp4');
    writeFileSync(file, bytes);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function expectDocument(token: string, id: string) {
    const record = await documents(`/api/v1/documents/${id}`, { token });
    expect(record.body).toEqual(
      expect.objectContaining({
        id,
        filename: 'spot.mp4',
        content_type: 'video/mp4',
        size: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      }),
    );
    expect((await download(system().gatewayUrl, id, token)).bytes.equals(bytes)).toBe(true);
  }

  it('uploads with the tus-js-client script', async () => {
    const who = caller();
    // Beside the repository's node_modules, so `tus-js-client` resolves as in a project.
    const script = join(ROOT, 'dist', `tus-doc-example-${Date.now()}.mjs`);
    writeFileSync(script, example('### With tus-js-client (Node)', 'js'));
    try {
      const { stdout } = await run('node', [script], {
        env: { ...process.env, GATEWAY: system().gatewayUrl, TOKEN: who.token, FILE: file },
      });
      await expectDocument(who.token, stdout.trim());
    } finally {
      rmSync(script, { force: true });
    }
  }, 120_000);

  it('uploads with the curl loop', async () => {
    const who = caller();
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', example('### With curl', 'bash')], {
      env: { ...process.env, GATEWAY: system().gatewayUrl, TOKEN: who.token, FILE: file },
      maxBuffer: 1024 * 1024,
    });
    await expectDocument(who.token, stdout.trim());
  }, 120_000);
});

/**
 * `npm run demo` fills the system it is pointed at and no other: GATEWAY_URL, else the
 * `gateway_url` that `npm start` writes to the data directory's embedded.json; with neither, or
 * with nothing answering there, it stops with a message saying so (the build's main.js, run as
 * `npm run demo` runs it).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@media/testing';

const MAIN = join(__dirname, '..', '..', '..', 'dist', 'tools', 'demo', 'src', 'main.js');

async function demo(env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  const { GATEWAY_URL: _ignored, ...inherited } = process.env;
  return promisify(execFile)(process.execPath, [MAIN], {
    env: { ...inherited, ...env },
    timeout: 30_000,
  }).then(
    () => ({ code: 0, stderr: '' }),
    (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
  );
}

let dir: string;
beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'demo-target-'))));
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('npm run demo: which system it fills', () => {
  it('stops when no system runs on the data directory and GATEWAY_URL is unset', async () => {
    const { code, stderr } = await demo({ DATA_DIR: dir });
    expect(code).toBe(1);
    expect(stderr).toContain(`no running system found: ${join(dir, 'embedded.json')} names none`);
  });

  it("follows embedded.json's gateway_url, and stops when nothing answers there", async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    await writeFile(join(dir, 'embedded.json'), JSON.stringify({ gateway_url: url, nats_url: 'inproc' }));
    const { code, stderr } = await demo({ DATA_DIR: dir });
    expect(code).toBe(1);
    expect(stderr).toContain(`no gateway answers at ${url} (from ${join(dir, 'embedded.json')})`);
  });

  it('prefers GATEWAY_URL over the state file', async () => {
    await writeFile(join(dir, 'embedded.json'), JSON.stringify({ gateway_url: 'http://127.0.0.1:1' }));
    const url = `http://127.0.0.1:${await freePort()}`;
    const { stderr } = await demo({ DATA_DIR: dir, GATEWAY_URL: url });
    expect(stderr).toContain(`no gateway answers at ${url} (from GATEWAY_URL)`);
  });
});

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { choosePort, readState, STATE_FILE, writeState } from './state';

describe('choosePort', () => {
  it('reuses the port saved at the first start while it is free', async () => {
    const findFree = jest.fn(async () => 50_000);
    await expect(choosePort(41_000, async () => true, findFree)).resolves.toEqual({
      port: 41_000,
      reused: true,
    });
    expect(findFree).not.toHaveBeenCalled();
  });

  it('takes a new free port when the saved one is taken now', async () => {
    await expect(
      choosePort(
        41_000,
        async () => false,
        async () => 50_000,
      ),
    ).resolves.toEqual({ port: 50_000, reused: false });
  });

  it('finds a free port on the first start', async () => {
    const isFree = jest.fn(async () => true);
    await expect(choosePort(undefined, isFree, async () => 50_001)).resolves.toEqual({
      port: 50_001,
      reused: false,
    });
    expect(isFree).not.toHaveBeenCalled();
  });
});

describe('embedded.json', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'embedded-state-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('round-trips the chosen ports and the nats-server pid', () => {
    writeState(dir, { postgres: { port: 41_000 }, nats: { port: 42_000, pid: 1234 } });
    expect(readState(dir)).toEqual({ postgres: { port: 41_000 }, nats: { port: 42_000, pid: 1234 } });
    expect(JSON.parse(readFileSync(join(dir, STATE_FILE), 'utf8')).postgres.port).toBe(41_000);
  });

  it('round-trips where the running system is: gateway_url and nats_url', () => {
    const running = { nats: { port: 42_000 }, gateway_url: 'http://127.0.0.1:3000', nats_url: 'inproc' };
    writeState(dir, running);
    expect(readState(dir)).toEqual(running);
  });

  it('reads a missing, broken or odd file as "nothing saved"', () => {
    expect(readState(dir)).toEqual({});
    writeFileSync(join(dir, STATE_FILE), '{not json');
    expect(readState(dir)).toEqual({});
    writeFileSync(join(dir, STATE_FILE), JSON.stringify({ postgres: { port: 'x' }, nats: { port: 99_999 } }));
    expect(readState(dir)).toEqual({});
  });
});

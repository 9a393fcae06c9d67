import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '@media/testing';
import { ChildLog, rotateLog } from './logfile';

describe('rotateLog', () => {
  let dir: string;
  let path: string;
  const options = { maxBytes: 100, keep: 3 };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'embedded-logs-'));
    path = join(dir, 'server.log');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('leaves a log at or under the limit as it is', () => {
    writeFileSync(path, 'x'.repeat(100));
    expect(rotateLog(path, options)).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe('x'.repeat(100));
    expect(existsSync(`${path}.1`)).toBe(false);
  });

  it('shifts the earlier files, keeps `keep` of them and empties the log', () => {
    for (const generation of ['a', 'b', 'c', 'd', 'e']) {
      writeFileSync(path, generation.repeat(101));
      expect(rotateLog(path, options)).toBe(true);
    }
    expect(statSync(path).size).toBe(0);
    expect(readFileSync(`${path}.1`, 'utf8')).toBe('e'.repeat(101));
    expect(readFileSync(`${path}.2`, 'utf8')).toBe('d'.repeat(101));
    expect(readFileSync(`${path}.3`, 'utf8')).toBe('c'.repeat(101));
    expect(existsSync(`${path}.4`)).toBe(false);
  });

  it("lets a server writing to the log's descriptor go on at the start of the emptied file", async () => {
    const log = new ChildLog(path);
    const fd = log.open();
    // A child holding the descriptor as a server does: one line per line read on its stdin.
    const child = spawn(
      process.execPath,
      [
        '-e',
        "require('readline').createInterface({ input: process.stdin }).on('line', (l) => console.log(l))",
      ],
      { stdio: ['pipe', fd, fd] },
    );
    closeSync(fd);
    const read = async () => readFileSync(path, 'utf8');
    const write = (line: string) => child.stdin?.write(`${line}\n`);
    try {
      write('y'.repeat(150));
      expect(await eventually(read, (text) => text.length > 150)).toBe(`${'y'.repeat(150)}\n`);
      expect(rotateLog(path, options)).toBe(true);
      write('after the rotation');

      expect(await eventually(read, (text) => text.length > 0)).toBe('after the rotation\n');
      expect(readFileSync(`${path}.1`, 'utf8')).toBe(`${'y'.repeat(150)}\n`);
      expect(log.tail()).toBe('    after the rotation');
    } finally {
      child.stdin?.end();
      await once(child, 'exit');
    }
  });
});

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * docs/configuration.md's table is generated from the config classes (`npm run docs:config`);
 * this fails when a variable was added, removed, re-defaulted or re-documented without
 * regenerating it.
 */
describe('docs/configuration.md', () => {
  it('is current with the config classes (npm run docs:config)', () => {
    const root = join(__dirname, '..', '..');
    const run = spawnSync(process.execPath, [join(root, 'scripts/docs-config.mjs'), '--check'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(run.stdout).toMatch(/is current \(\d+ variables\)/);
  });
});

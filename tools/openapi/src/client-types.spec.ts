import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { clientTypes, TYPES_FILE } from './client-types';

const ROOT = join(__dirname, '..', '..', '..');

describe("@media/client's generated types", () => {
  it('are current: regenerated from the apps in-process, they equal the committed file', async () => {
    const committed = await readFile(join(ROOT, TYPES_FILE), 'utf8');
    const regenerated = await clientTypes();
    // On failure: run `npm run client:generate` and commit libs/client/src/generated/openapi.ts.
    expect(regenerated === committed).toBe(true);
  }, 60_000);
});

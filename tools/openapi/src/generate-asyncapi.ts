/**
 * `npm run asyncapi:generate`: writes the AsyncAPI document the gateway serves at /asyncapi.json
 * and docs/events.md from libs/contracts. `--check` writes nothing and exits 1 when a committed
 * file is not current.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT } from './asyncapi-document';
import { asyncApiFiles } from './asyncapi-files';

async function main(): Promise<void> {
  const files = await asyncApiFiles();
  const check = process.argv.includes('--check');
  let stale = false;
  for (const [path, text] of Object.entries(files)) {
    if (check) {
      const committed = await readFile(join(ROOT, path), 'utf8').catch(() => '');
      if (committed !== text) {
        process.stderr.write(`${path} is not current: run \`npm run asyncapi:generate\` and commit it.\n`);
        stale = true;
      }
      continue;
    }
    await writeFile(join(ROOT, path), text);
    process.stdout.write(`wrote ${path}\n`);
  }
  if (stale) process.exit(1);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);

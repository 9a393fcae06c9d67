/**
 * `npm run client:generate`: writes libs/client's generated types from the merged OpenAPI
 * document, built in-process from the apps' code (no running stack, no database, no NATS).
 * `--check` writes nothing and exits 1 when the committed file is not current.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { clientTypes, TYPES_FILE } from './client-types';

async function main(): Promise<void> {
  const root = join(__dirname, '..', '..', '..', '..');
  const file = join(root, TYPES_FILE);
  const source = await clientTypes();
  if (process.argv.includes('--check')) {
    const committed = await readFile(file, 'utf8').catch(() => '');
    if (committed !== source) {
      process.stderr.write(`${TYPES_FILE} is not current: run \`npm run client:generate\` and commit it.\n`);
      process.exit(1);
    }
    process.stdout.write(`${TYPES_FILE} is current.\n`);
    return;
  }
  await writeFile(file, source);
  process.stdout.write(`wrote ${TYPES_FILE}\n`);
}

main().then(
  // Nest's preview leaves nothing open, but a timer of a library may: the work is done.
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);

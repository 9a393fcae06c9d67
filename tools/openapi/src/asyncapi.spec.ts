import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Parser, DiagnosticSeverity } from '@asyncapi/parser';
import * as contracts from '@media/contracts';
import { EVENT_SUBJECTS, RPC_SUBJECTS, SERVICE_NAMES, type ServiceName } from '@media/contracts';
import { asyncApiDocument, ROOT } from './asyncapi-document';
import { asyncApiFiles } from './asyncapi-files';
import { DEFINITIONS } from './merged-document';

type Operation = {
  action: 'send' | 'receive';
  channel: { $ref: string };
  bindings?: { nats?: { queue?: string } };
  tags: { name: string }[];
};
type Document = {
  channels: Record<string, { address: string | null }>;
  operations: Record<string, Operation>;
};

let files: Record<string, string>;
let document: Document;

beforeAll(async () => {
  const built = asyncApiDocument();
  files = await asyncApiFiles(built);
  document = built as unknown as Document;
  // CPU-bound (the document and its files rendered): over 60 s in a CI run at load 30.
}, 180_000);

/** `"<app> <subject>"` of every operation of one kind. */
function declared(action: Operation['action']): string[] {
  return Object.values(document.operations)
    .filter((op) => op.action === action)
    .map(
      (op) => `${op.tags[0].name} ${document.channels[op.channel.$ref.slice('#/channels/'.length)].address}`,
    )
    .sort();
}

/** The event constants (`AssignmentEvents.taskClaimed`) named in an app's files that enqueue on the outbox. */
async function published(app: ServiceName): Promise<string[]> {
  const constants = Object.fromEntries(EVENT_SUBJECTS.map((subject) => [subject, subject])) as Record<
    string,
    string
  >;
  const subjects = new Set<string>();
  const dir = join(ROOT, 'apps', app, 'src');
  for (const file of await readdir(dir, { recursive: true })) {
    if (!file.endsWith('.ts') || file.endsWith('.spec.ts')) continue;
    const text = await readFile(join(dir, file), 'utf8');
    if (!text.includes('outbox.enqueue(')) continue;
    for (const [, group, key] of text.matchAll(/\b(\w+Events)\.(\w+)/g)) {
      const subject = (contracts as unknown as Record<string, Record<string, string> | undefined>)[group]?.[
        key
      ];
      if (subject && constants[subject]) subjects.add(`${app} ${subject}`);
    }
  }
  return [...subjects];
}

describe('the AsyncAPI document (tools/openapi/src/asyncapi-document.ts)', () => {
  it('is current: regenerated from libs/contracts, the served module and docs/events.md equal the committed files', async () => {
    for (const [path, text] of Object.entries(files)) {
      const committed = await readFile(join(ROOT, path), 'utf8');
      // On failure: run `npm run asyncapi:generate` and commit both files.
      expect({ path, current: committed === text }).toEqual({ path, current: true });
    }
  });

  it('parses with @asyncapi/parser without an error or a warning', async () => {
    const { document: parsed, diagnostics } = await new Parser().parse(JSON.stringify(document));
    const problems = diagnostics
      .filter((d) => d.severity === DiagnosticSeverity.Error || d.severity === DiagnosticSeverity.Warning)
      .map((d) => `${d.code} ${d.message} at ${d.path.join('.')}`);
    expect(problems).toEqual([]);
    expect(parsed?.channels().length).toBe(2 * RPC_SUBJECTS.length + EVENT_SUBJECTS.length);
  }, 60_000);

  it("lists exactly the subjects the apps answer (@MessagePattern), each in its app's queue group", () => {
    const answered = SERVICE_NAMES.flatMap((app) =>
      (DEFINITIONS[app].rpc ?? []).map((endpoint) => `${app} ${endpoint.subject}`),
    ).sort();
    expect(answered.length).toBeGreaterThanOrEqual(RPC_SUBJECTS.length);
    expect(declared('receive')).toEqual(answered);
    const queues = Object.values(document.operations)
      .filter((op) => op.action === 'receive')
      .map((op) => [op.tags[0].name, op.bindings?.nats?.queue]);
    expect(queues.filter(([app, queue]) => app !== queue)).toEqual([]);
  });

  it('lists exactly the events the apps publish through their outbox', async () => {
    const publishers = (await Promise.all(SERVICE_NAMES.map(published))).flat().sort();
    expect(declared('send')).toEqual(publishers);
  });
});

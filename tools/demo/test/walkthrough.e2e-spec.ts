import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVICE_NAMES } from '@media/contracts';
import {
  completeOpenApi,
  startNats,
  startPrism,
  startPrivateStack,
  type PrismProxy,
  type PrivateNats,
  type PrivateStack,
} from '@media/testing';

import { seed } from '../src/seed';
import { differences, parseWalkthrough, Shell } from './walkthrough';

const PAGE = join(__dirname, '..', '..', '..', 'docs', 'walkthrough.md');
const README = join(__dirname, '..', '..', '..', 'README.md');

/** The README's "A five-minute tour" section: its command blocks run like the page's. */
function readmeTour(): string {
  const readme = readFileSync(README, 'utf8');
  const start = readme.indexOf('## A five-minute tour');
  return readme.slice(start, readme.indexOf('\n## ', start + 1));
}

/**
 * `npm run demo` and docs/walkthrough.md against a system of their own, with the gateway's
 * default rate limit: the seeder fills it (and a second run makes nothing), then every command
 * block of the page runs in one bash session and each request must answer the status and the
 * fields the page shows. Every request goes through Stoplight Prism's validating proxy, which
 * checks it and its answer against the gateway's OpenAPI document.
 */
describe('the demo data and the walkthrough', () => {
  let system: PrivateStack;
  // Its own NATS: on the shared one, the e2e stack's apps would answer this system's requests.
  let nats: PrivateNats;
  let prism: PrismProxy;
  const steps = parseWalkthrough(readFileSync(PAGE, 'utf8'));

  beforeAll(async () => {
    nats = await startNats();
    system = await startPrivateStack(SERVICE_NAMES, {
      NATS_URL: nats.url,
      RATE_LIMIT_PER_MINUTE: '1200',
      HEALTH_RATE_LIMIT_PER_MINUTE: '120',
    });
    prism = await startPrism(await completeOpenApi(system.info.gatewayUrl), system.info.gatewayUrl);
  }, 300_000);
  afterAll(async () => {
    await prism?.stop();
    await system?.stop();
    await nats?.stop();
  });

  it('npm run demo fills the system, and a second run makes nothing new', async () => {
    const options = { baseUrl: prism.url, admin: system.info.admin };
    const first = await seed(options);
    expect(first.madeTotal).toBeGreaterThan(300);
    for (const kind of [
      'users',
      'groups',
      'lineups',
      'tasks',
      'bookings',
      'deals',
      'collections',
      'rooms',
      'messages',
    ]) {
      expect({ kind, made: first.rows.get(kind)?.made ?? 0 }).toEqual({ kind, made: expect.any(Number) });
      expect(first.rows.get(kind)!.made).toBeGreaterThan(0);
    }
    const second = await seed(options);
    expect(Object.fromEntries([...second.rows].map(([kind, row]) => [kind, row.made]))).toEqual(
      Object.fromEntries([...second.rows].map(([kind]) => [kind, 0])),
    );
  }, 600_000);

  it('has a request for every seed endpoint, each with the answer it shows', () => {
    const requests = steps.filter((s) => s.expected);
    expect(requests.length).toBeGreaterThanOrEqual(15);
    const page = readFileSync(PAGE, 'utf8');
    for (let n = 1; n <= 14; n++) expect(page).toMatch(new RegExp(`^## ${n}\\. `, 'm'));
  });

  it('answers every command of docs/walkthrough.md as the page shows', async () => {
    const shell = new Shell({ API: prism.url });
    try {
      for (const step of steps) {
        const result = await shell.run(step);
        const where = `docs/walkthrough.md:${step.line}`;
        expect({ where, exit: result.exit, stderr: result.stderr }).toEqual({ where, exit: 0, stderr: '' });
        if (!step.expected) continue;
        expect({ where, status: result.status, body: result.stdout }).toMatchObject({
          where,
          status: step.expected.status,
        });
        if (step.expected.body === undefined) {
          expect({ where, body: result.stdout }).toEqual({ where, body: '' });
          continue;
        }
        let body: unknown;
        try {
          body = JSON.parse(result.stdout);
        } catch {
          throw new Error(`${where}: the answer is not JSON: ${result.stdout.slice(0, 500)}`);
        }
        expect({ where, differences: differences(step.expected.body, body) }).toEqual({
          where,
          differences: [],
        });
      }
    } finally {
      shell.close();
    }
  }, 300_000);

  it("runs the README's tour: every command block, in one shell, with API set as it says", async () => {
    const tour = parseWalkthrough(readmeTour());
    expect(tour.length).toBeGreaterThanOrEqual(3);
    const shell = new Shell({ API: prism.url });
    try {
      const outputs: string[] = [];
      for (const step of tour) {
        const result = await shell.run(step);
        const where = `README.md tour, block at line ${step.line} of the section`;
        expect({ where, exit: result.exit, stderr: result.stderr }).toEqual({ where, exit: 0, stderr: '' });
        outputs.push(result.stdout);
      }
      // The token of the first block reached the later ones: who am I, then the two errors.
      expect(outputs[1]).toContain('"email":"admin@demo.media.localhost"');
      expect(outputs[2]).toContain('"code":"not_authenticated"');
      expect(outputs[2]).toContain('"loc":["query","page_size"]');
    } finally {
      shell.close();
    }
  }, 120_000);

  it('sends only requests the OpenAPI document takes and gets only answers it describes (Prism)', async () => {
    await prism.stop();
    const exchanges = prism.exchanges();
    // The seeder's requests, twice, and the page's.
    expect(exchanges.length).toBeGreaterThan(400);
    // A request the API accepted must be valid by the document; any answer must match it. A
    // request the page shows refused (4xx) may be invalid by the document: that is its point.
    const wrong = exchanges.flatMap(({ request, status, violations }) =>
      violations
        .filter((v) => v.startsWith('response') || status === undefined || status < 400)
        .map((v) => `${request} ${status}: ${v}`),
    );
    expect(wrong).toEqual([]);
  });
});

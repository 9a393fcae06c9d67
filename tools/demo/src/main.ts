import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { stats } from './api';
import { CORRESPONDENTS, USERS, email, password } from './data';
import { seed } from './seed';

/**
 * `npm run demo`: fills a running system with the demo data set through the gateway.
 * GATEWAY_URL, else the gateway of the system `npm start` runs on this data directory
 * (`gateway_url` of DATA_DIR/embedded.json); the administrator from ADMIN_EMAIL and
 * ADMIN_PASSWORD, else from what `npm start` generated (DATA_DIR/secrets.json).
 */
const dataDir = (): string => {
  const dir = process.env.DATA_DIR ?? './.data';
  return isAbsolute(dir) ? dir : resolve(dir);
};

/** The gateway to seed: GATEWAY_URL, or the running `npm start`'s; never a guess. */
function gatewayUrl(): { url: string; from: string } {
  if (process.env.GATEWAY_URL)
    return { url: process.env.GATEWAY_URL.replace(/\/+$/, ''), from: 'GATEWAY_URL' };
  const file = join(dataDir(), 'embedded.json');
  const state = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { gateway_url?: unknown }) : {};
  if (typeof state.gateway_url !== 'string') {
    throw new Error(
      `no running system found: ${file} names none (start one with \`npm start\`), or set GATEWAY_URL to the gateway to fill`,
    );
  }
  return { url: state.gateway_url, from: file };
}

/** Fails clearly when nothing answers where the demo was pointed. */
async function reachable({ url, from }: { url: string; from: string }): Promise<void> {
  const res = await fetch(`${url}/health/live`, { signal: AbortSignal.timeout(5_000) }).catch(
    () => undefined,
  );
  if (!res?.ok) {
    throw new Error(
      `no gateway answers at ${url} (from ${from}): is \`npm start\` running? Or set GATEWAY_URL`,
    );
  }
}

function adminLogin(): { email: string; password: string } {
  if (process.env.ADMIN_EMAIL && process.env.ADMIN_PASSWORD) {
    return { email: process.env.ADMIN_EMAIL, password: process.env.ADMIN_PASSWORD };
  }
  const file = join(dataDir(), 'secrets.json');
  if (!existsSync(file)) {
    throw new Error(
      `no administrator: set ADMIN_EMAIL and ADMIN_PASSWORD, or run \`npm start\` first (it keeps them in ${file})`,
    );
  }
  const secrets = JSON.parse(readFileSync(file, 'utf8')) as { adminEmail?: string; adminPassword?: string };
  if (!secrets.adminPassword) {
    throw new Error(
      `${file} holds no administrator password (npm start was given ADMIN_PASSWORD): set ADMIN_EMAIL and ADMIN_PASSWORD`,
    );
  }
  return {
    email: process.env.ADMIN_EMAIL ?? secrets.adminEmail ?? 'admin@media.localhost',
    password: secrets.adminPassword,
  };
}

async function main() {
  const gateway = gatewayUrl();
  await reachable(gateway);
  const baseUrl = gateway.url;
  const started = Date.now();
  const report = await seed({
    baseUrl,
    admin: adminLogin(),
    log: (line) => process.stderr.write(`[demo] ${line}\n`),
  });
  const out = process.stdout;
  out.write(
    `\nDemo data at ${baseUrl} (${stats.requests} requests, ${((Date.now() - started) / 1000).toFixed(1)} s):\n`,
  );
  for (const [kind, { made, found }] of report.rows) {
    out.write(
      `  ${kind.padEnd(24)} ${String(made).padStart(4)} made${found ? `, ${found} already there` : ''}\n`,
    );
  }
  out.write(report.madeTotal === 0 ? '\nNothing new: the demo data was already there.\n' : '');
  out.write('\nUsers (email / password / roles):\n');
  for (const u of USERS) {
    out.write(
      `  ${email(u.key).padEnd(34)} ${password(u.key).padEnd(26)} ${u.roles.join(', ') || '(no role)'}\n`,
    );
  }
  for (const c of CORRESPONDENTS) {
    out.write(
      `  ${email(c.key).padEnd(34)} ${(c.accepts ? password(c.key) : '(invited)').padEnd(26)} CORRESPONDENT\n`,
    );
  }
  out.write(
    `\nNext: the walkthrough (docs/walkthrough.md), starting with\n` +
      `  curl -s -X POST ${baseUrl}/acl/api/v1/auth/token -H 'Content-Type: application/json' \\\n` +
      `    -d '{"email":"${email('admin')}","password":"${password('admin')}"}'\n` +
      `or Swagger UI at ${baseUrl}/docs\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`[demo] failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

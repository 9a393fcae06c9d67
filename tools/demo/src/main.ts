import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { stats } from './api';
import { CORRESPONDENTS, USERS, email, password } from './data';
import { seed } from './seed';

/**
 * `npm run demo`: fills a running system with the demo data set through the gateway.
 * GATEWAY_URL (default http://127.0.0.1:3000); the administrator from ADMIN_EMAIL and
 * ADMIN_PASSWORD, else from what `npm start` generated (DATA_DIR/secrets.json).
 */
function adminLogin(): { email: string; password: string } {
  if (process.env.ADMIN_EMAIL && process.env.ADMIN_PASSWORD) {
    return { email: process.env.ADMIN_EMAIL, password: process.env.ADMIN_PASSWORD };
  }
  const dir = process.env.DATA_DIR ?? './.data';
  const file = join(isAbsolute(dir) ? dir : resolve(dir), 'secrets.json');
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
  const baseUrl = (process.env.GATEWAY_URL ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');
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

/** What the test harness reads from its environment: where the real servers are. */
export const testEnv = {
  /** The PostgreSQL server test databases are created on. */
  databaseUrl: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  /** The NATS server the booted apps use. */
  natsUrl: process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222',
  /**
   * The apps the e2e run boots (comma-separated, e.g. `acl,content`; the gateway always runs):
   * every app by default, as CI runs it. Fewer apps boot faster while working on one of them.
   */
  e2eApps: process.env.E2E_APPS?.split(',')
    .map((app) => app.trim())
    .filter(Boolean),
  /** How long the stack may take to become ready (a loaded machine boots slowly). */
  bootTimeoutMs: Number(process.env.E2E_BOOT_TIMEOUT_MS ?? 180_000),
  /** Passed on to app processes, so they find the same binaries. */
  path: process.env.PATH ?? '',
} as const;

/** What the test harness reads from its environment: where the real servers are. */
export const testEnv = {
  /** The PostgreSQL server test databases are created on. */
  databaseUrl: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  /** The NATS server the booted apps use. */
  natsUrl: process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222',
  /** Passed on to app processes, so they find the same binaries. */
  path: process.env.PATH ?? '',
} as const;

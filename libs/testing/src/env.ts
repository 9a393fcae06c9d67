/** What the test harness reads from its environment: where the real servers are. */
export const testEnv = {
  /** The PostgreSQL server test databases are created on. */
  databaseUrl: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  /** The NATS server the booted apps use. */
  natsUrl: process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222',
  /** How long the fuzz suite runs (it visits every operation round-robin until then). */
  fuzzBudgetMs: Number(process.env.FUZZ_BUDGET_MS ?? 60_000),
  /** The fuzz suite's seed, to replay a run; a new one each run otherwise. */
  fuzzSeed: Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31),
  /**
   * The apps the e2e run boots (comma-separated, e.g. `acl,content`; the gateway always runs):
   * every app by default, as CI runs it. Fewer apps boot faster while working on one of them.
   */
  e2eApps: process.env.E2E_APPS?.split(',')
    .map((app) => app.trim())
    .filter(Boolean),
  /**
   * How long the stack may take to become ready: a loaded machine boots slowly (at a load
   * average of 20–25 on two cores, nine apps took just over three minutes), and `npm test`'s
   * e2e shards boot their stacks at the same time.
   */
  bootTimeoutMs: Number(process.env.E2E_BOOT_TIMEOUT_MS ?? 600_000),
  /** PostgreSQL's server binaries, for tests that run a cluster they can stop (initdb, pg_ctl). */
  postgresBin: process.env.TEST_POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin',
  /** Passed on to app processes, so they find the same binaries. */
  path: process.env.PATH ?? '',
  /** A directory the 3-node NATS cluster tests write each node's log to (none by default). */
  natsClusterLogs: process.env.NATS_CLUSTER_LOGS || undefined,
} as const;

/**
 * The variable naming the file that describes the e2e run's stack: the global setup writes the
 * file (one per run, so that e2e runs side by side, as `npm test`'s shards are, each find their
 * own) and sets the variable, which Jest hands to the run's test files (its workers inherit the
 * global setup's environment). Read when asked, since the global setup sets it after this module
 * is loaded.
 */
export const e2eStackFile = {
  variable: 'E2E_STACK_FILE',
  get(): string | undefined {
    return process.env[this.variable] || undefined;
  },
  set(file: string): void {
    process.env[this.variable] = file;
  },
} as const;

export interface PollOptions {
  /** How long to keep probing (default 5 s). */
  timeoutMs?: number;
  /** The pause between probes (default 100 ms). */
  intervalMs?: number;
  /**
   * Throw on timeout instead of resolving with the last value: the error names this (`true`: a
   * generic message). A probe that throws then counts as "not yet" and its last error is named too.
   */
  orThrow?: string | true;
}

type Probe<T> = () => T | Promise<T>;

/** The `ok` of a probe that answers `undefined` until what it looks for is there. */
export const isDefined = <T>(value: T | undefined): value is T => value !== undefined;

/**
 * Probes every 100 ms until `ok(value)` holds or the timeout passed. By default it resolves with
 * the last value either way, so the test's own assertion on it says what was seen; with `orThrow`
 * it fails on timeout instead.
 */
export async function eventually<T, U extends T>(
  probe: Probe<T>,
  ok: (value: T) => value is U,
  options: PollOptions & { orThrow: string | true },
): Promise<U>;
export async function eventually<T>(
  probe: Probe<T>,
  ok: (value: T) => boolean,
  within?: number | PollOptions,
): Promise<T>;
export async function eventually<T>(
  probe: Probe<T>,
  ok: (value: T) => boolean,
  within: number | PollOptions = {},
): Promise<T> {
  const {
    timeoutMs = 5_000,
    intervalMs = 100,
    orThrow,
  } = typeof within === 'number' ? { timeoutMs: within } : within;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  const attempt = async (): Promise<{ value?: T; done: boolean }> => {
    if (orThrow === undefined) {
      const value = await probe();
      return { value, done: ok(value) };
    }
    try {
      const value = await probe();
      return { value, done: ok(value) };
    } catch (error) {
      lastError = error;
      return { done: false };
    }
  };
  let seen = await attempt();
  while (!seen.done && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, intervalMs));
    seen = await attempt();
  }
  if (seen.done || orThrow === undefined) return seen.value as T;
  const what = orThrow === true ? 'condition not met' : orThrow;
  throw new Error(
    `not within ${timeoutMs} ms: ${what}${lastError ? ` (last error: ${String(lastError)})` : ''}`,
  );
}

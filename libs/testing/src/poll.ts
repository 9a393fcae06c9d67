/**
 * Probes every 100 ms until `ok(value)` holds or `timeoutMs` passed; resolves with the last value
 * either way, so the test's own assertion on it says what was seen.
 */
export async function eventually<T>(
  probe: () => Promise<T>,
  ok: (value: T) => boolean,
  timeoutMs = 5_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await probe();
  while (!ok(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    value = await probe();
  }
  return value;
}

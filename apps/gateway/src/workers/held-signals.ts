/**
 * Runs `start` with SIGTERM and SIGINT held: one that comes meanwhile does not kill the process
 * outright but is delivered again once `start` has resolved (when runProcess has put its own
 * handlers in place), so it gets the graceful stop. With GATEWAY_WORKERS the first worker serves
 * requests while another is still starting: a primary killed then would take every worker's
 * connections with it, and a worker killed between listening and its handlers would exit by the
 * signal instead of draining.
 */
export async function holdingSignals<T>(start: () => Promise<T>): Promise<T> {
  const held: NodeJS.Signals[] = [];
  const hold = (signal: NodeJS.Signals) => held.push(signal);
  process.on('SIGTERM', hold);
  process.on('SIGINT', hold);
  const release = () => {
    process.off('SIGTERM', hold);
    process.off('SIGINT', hold);
  };
  try {
    const started = await start();
    // runProcess adds its handlers as soon as this resolves, before the next turn of the loop.
    setImmediate(() => {
      release();
      if (held.length > 0) process.kill(process.pid, held[0]);
    });
    return started;
  } catch (error) {
    release();
    throw error;
  }
}

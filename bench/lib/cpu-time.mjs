/**
 * CPU time of processes from /proc (Linux only): steadier than throughput on a shared machine,
 * where what a run achieves depends on what else holds the cores.
 */
import { readFileSync } from 'node:fs';

/** CPU time (user + system) of a process so far, in ms; 0 once it is gone. */
export function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in USER_HZ (100)
  } catch {
    return 0;
  }
}

/** The PostgreSQL backends (pids) connected to database `name` now, seen through `db`. */
export async function backendsOf(db, name) {
  const { rows } = await db.query(`SELECT pid FROM pg_stat_activity WHERE datname = $1`, [name]);
  return rows.map((r) => r.pid);
}

/** CPU ms so far of `pids`, summed. */
export const cpuMsOf = (pids) => pids.reduce((sum, pid) => sum + cpuMs(pid), 0);

import { statSync } from 'node:fs';
import { dirname, parse, resolve } from 'node:path';

/** Who a server will run as: uid and groups (an unknown uid means "a user not created yet"). */
export interface Identity {
  uid?: number;
  gids: number[];
}

export interface StatLike {
  mode: number;
  uid: number;
  gid: number;
}

type Access = 'r' | 'w' | 'x';
const BITS: Record<Access, number> = { r: 4, w: 2, x: 1 };

/** Whether the classic owner/group/other bits grant `access` to `who` (uid 0 always passes). */
export function allows(stat: StatLike, who: Identity, access: Access): boolean {
  if (who.uid === 0) return true;
  const bit = BITS[access];
  if (who.uid !== undefined && stat.uid === who.uid) return ((stat.mode >> 6) & bit) !== 0;
  if (who.gids.includes(stat.gid)) return ((stat.mode >> 3) & bit) !== 0;
  return (stat.mode & bit) !== 0;
}

function defaultStat(path: string): StatLike | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/**
 * The first directory on the way from `/` to `target` that `who` may not enter, or undefined.
 * Directories that do not exist yet are skipped: the runner creates them with a mode it chooses.
 */
export function firstBlockedDirectory(
  target: string,
  who: Identity,
  stat: (path: string) => StatLike | undefined = defaultStat,
): string | undefined {
  const chain: string[] = [];
  let current = resolve(target);
  const root = parse(current).root;
  while (current !== root) {
    chain.unshift(current);
    current = dirname(current);
  }
  chain.unshift(root);
  for (const directory of chain) {
    const info = stat(directory);
    if (info && !allows(info, who, 'x')) return directory;
  }
  return undefined;
}

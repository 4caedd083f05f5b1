import { readdirSync, readFileSync } from 'node:fs';

/**
 * True while any process of the group `pgid` is alive. Zombies do not count: an exited
 * process whose parent has not reaped it yet (common under a container init that never
 * calls wait) still answers `kill(pid, 0)`, so on Linux the group is read from /proc.
 */
export function processGroupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    // EPERM: the group exists but belongs to someone else; still alive.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (process.platform !== 'linux') return true;
  return livingMembers(pgid) > 0;
}

/** Processes of group `pgid` that are not zombies, from /proc/<pid>/stat (proc(5)). */
function livingMembers(pgid: number): number {
  let count = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // "pid (comm) state ppid pgrp …"; comm may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') count += 1;
  }
  return count;
}

/** True while process `pid` exists and is not a zombie. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (process.platform !== 'linux') return true;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/**
 * Stops a whole process group (the shell and everything it started, which share the
 * group because the shell was spawned `detached`): SIGTERM first so programs can clean
 * up, SIGKILL after `graceMs` for whatever is left. Resolves when the group is gone or
 * SIGKILL was sent.
 */
export async function killProcessGroup(pgid: number, graceMs = 2000): Promise<void> {
  if (!signalGroup(pgid, 'SIGTERM')) return;
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    if (!processGroupAlive(pgid)) return;
  }
  signalGroup(pgid, 'SIGKILL');
}

function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * Which process holds a pending delivery of the SQLite ledger: `host pid start`, where `start` is the process's
 * start time in clock ticks since boot (field 22 of `/proc/<pid>/stat`; empty where there is no /proc), so that a
 * process id reused by a later process is not mistaken for the holder.
 */
export function currentHolder(): string {
  return `${hostname()} ${process.pid} ${startTicks(process.pid) ?? ''}`;
}

/** The start time of process `pid` in clock ticks since boot, or undefined where it cannot be read. */
function startTicks(pid: number): string | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces or parentheses: count from the last ")".
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[19];
}

/**
 * True when the holder is known to be gone: a process of this host whose id no longer exists, or now belongs to a
 * process started at another time. A holder of another host is never gone as far as this process can tell.
 */
export function holderIsGone(holder: string): boolean {
  const [host, pidText, start] = holder.split(' ');
  const pid = Number(pidText);
  if (host !== hostname() || !Number.isSafeInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return start !== '' && start !== startTicks(pid);
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
  const now = startTicks(pid);
  return start !== undefined && start !== '' && now !== undefined && now !== start;
}

import fs from "node:fs";
import path from "node:path";

/**
 * PGlite lets exactly one process open a data directory; a second one would corrupt it. This lock
 * file (holding the owner's pid and, on Linux, its start time) makes every second opener refuse
 * with a clear message instead. A lock left by a process that no longer runs is taken over.
 */
export class DatabaseLockedError extends Error {
  override name = "DatabaseLockedError";
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by another process (pid ${pid}), probably the running site. ` +
        `Stop it first (Ctrl+C in its terminal), or point DATABASE_URL at PostgreSQL to share one database between processes.`,
    );
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * When a process started (Linux: field 22 of /proc/PID/stat, clock ticks since boot), or null where
 * that cannot be read. Written into the lock with the pid, it tells a lock holder that still runs
 * from a process that got the dead holder's pid later (after a reboot, say): a crash must not need
 * a hand to delete the lock (docs/operations.md, "Crashes").
 */
function startOf(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // The fields after the command name, which is in parentheses and may hold spaces itself.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

/** Whether the process named by a lock's text still holds it. */
function holds(pid: number, start: string | undefined): boolean {
  if (!isAlive(pid)) return false;
  const now = start ? startOf(pid) : null;
  return now === null || now === start;
}

export function acquireDataDirLock(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, "db.lock");
  const start = startOf(process.pid);
  const mine = start === null ? String(process.pid) : `${process.pid}\n${start}`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, mine, { flag: "wx" });
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        // Released by close(), the lock needs no exit handler: one per open would pile up in a
        // process that opens data directories many times (the tests, which run the tools in-process).
        process.removeListener("exit", release);
        try {
          if (fs.readFileSync(lockPath, "utf8") === mine) fs.unlinkSync(lockPath);
        } catch {
          // already gone
        }
      };
      process.once("exit", release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const [pid = "", recordedStart] = fs.readFileSync(lockPath, "utf8").split("\n");
      const owner = Number.parseInt(pid, 10);
      if (Number.isInteger(owner) && owner !== process.pid && holds(owner, recordedStart)) {
        throw new DatabaseLockedError(dataDir, owner);
      }
      // Stale lock from a process that died (kill -9, a crash): remove it and try once more.
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not lock ${dataDir}`);
}

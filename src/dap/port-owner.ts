// Which process listens on a local TCP port, read from /proc: how an attached debuggee's pid is learned.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

/** TCP state LISTEN in /proc/net/tcp. */
const LISTEN = "0A";

/** The pid listening on `port` (any local address), or undefined where /proc cannot tell. */
export function portOwner(port: number): number | undefined {
  const inodes = listeningInodes(port);
  if (inodes.size === 0) return undefined;
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((entry) => /^\d+$/.test(entry));
  } catch {
    return undefined;
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // gone, or not ours to read
    }
    for (const fd of fds) {
      try {
        const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
        if (inodes.has(/^socket:\[(\d+)\]$/.exec(target)?.[1] ?? "")) return Number(pid);
      } catch {
        // closed meanwhile
      }
    }
  }
  return undefined;
}

function listeningInodes(port: number): Set<string> {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  const inodes = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let rows: string[];
    try {
      rows = readFileSync(table, "utf8").split("\n").slice(1);
    } catch {
      continue;
    }
    for (const row of rows) {
      const fields = row.trim().split(/\s+/);
      if (fields[1]?.endsWith(`:${hexPort}`) && fields[3] === LISTEN && fields[9]) inodes.add(fields[9]);
    }
  }
  return inodes;
}

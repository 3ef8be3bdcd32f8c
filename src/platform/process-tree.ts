// Signalling a whole process tree: the process group on POSIX, `taskkill /T` on Windows.
import { spawnSync } from "node:child_process";
import { HOST, type OsFamily } from "./os.ts";

export type TreeSignal = "SIGTERM" | "SIGKILL" | "SIGINT";

interface TreeKiller {
  /** Whether children are spawned detached, which makes them group leaders on POSIX. */
  detachChildren: boolean;
  signalTree(pid: number, signal: TreeSignal): void;
}

export function treeKiller(family: OsFamily = HOST.family, deps = { kill: process.kill.bind(process), taskkill }): TreeKiller {
  if (family === "windows") {
    return {
      // On Windows `detached` opens a new console window; the tree is found by taskkill instead.
      detachChildren: false,
      signalTree(pid, signal) {
        deps.taskkill(pid, signal === "SIGKILL");
      },
    };
  }
  return {
    detachChildren: true,
    signalTree(pid, signal) {
      try {
        deps.kill(-pid, signal); // the whole group: the child was spawned as its leader
      } catch {
        deps.kill(pid, signal); // not a group leader (or already gone): the process alone
      }
    },
  };
}

function taskkill(pid: number, force: boolean): void {
  spawnSync("taskkill", ["/PID", String(pid), "/T", ...(force ? ["/F"] : [])], { stdio: "ignore", windowsHide: true });
}

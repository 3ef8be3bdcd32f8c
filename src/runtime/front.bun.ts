// Serving behind a front thread (Bun on Linux and macOS): the front holds the public port and answers
// plain tools/list itself; the main thread's listener moves to a unix socket, where the front passes
// it everything else. Where this cannot be set up, the caller serves directly.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { ListFrontFeed } from "../http/list-front.ts";
import { isEmbeddedPath } from "../platform/embedded-paths.ts";
import { FRONT_THREAD_NAME } from "../platform/priority.ts";
import type { FromFront, ToFront } from "./front-protocol.ts";
import type { FetchHandler, Listening } from "./primitives.ts";

/** How long the front thread may take to start listening before the main thread serves alone. */
const FRONT_START_TIMEOUT_MS = 10_000;
/** A unix socket path must fit sockaddr_un (104 bytes on macOS, 108 on Linux). */
const MAX_SOCKET_PATH = 100;
/** Times a crashed front thread is started again before the main thread serves the port itself. */
export const MAX_FRONT_RESTARTS = 3;

const compiled = isEmbeddedPath(Bun.main);

/** A front thread started ahead of listen (prestartFront), with the first error it hit meanwhile. */
let early: { worker: Worker; failure?: string } | undefined;

/**
 * Starts the front thread booting now, on the other core, while the main thread loads the server's
 * modules: listen then finds it ready instead of waiting 30–50 ms for it. Nothing where there is no
 * front (Windows).
 */
export function prestartFront(): void {
  if (early || process.platform === "win32") return;
  try {
    const worker = spawnFrontWorker();
    const started: { worker: Worker; failure?: string } = { worker };
    // Before listen attaches its own listeners, an error would otherwise go unseen.
    worker.addEventListener("error", (event) => (started.failure ??= (event as ErrorEvent).message || "unknown error"));
    early = started;
  } catch {
    // listen starts one itself, and reports why it cannot
  }
}

/** The prestarted front thread if it is still sound, else a new one. */
function takeFrontWorker(): Worker {
  const started = early;
  early = undefined;
  if (started && started.failure === undefined) return started.worker;
  started?.worker.terminate();
  return spawnFrontWorker();
}

function spawnFrontWorker(): Worker {
  // A compiled binary embeds the worker as another entrypoint (compile.ts), beside main.
  const entry = compiled ? join(dirname(Bun.main), "runtime", "front-worker.bun.ts") : new URL("./front-worker.bun.ts", import.meta.url).href;
  // The name keeps it at the main thread's priority (platform/priority.ts).
  return new Worker(entry, { name: FRONT_THREAD_NAME });
}

/**
 * Listens at host:port through a front thread; undefined when the platform or the front thread
 * cannot (the caller then serves directly). A port that cannot be bound is an error, as when
 * serving directly.
 */
export async function listenBehindFront(fetch: FetchHandler, host: string, port: number, feed: ListFrontFeed): Promise<Listening | undefined> {
  const place = socketPlace();
  if (!place) {
    early?.worker.terminate();
    early = undefined;
    return undefined;
  }
  const { socket, remove: removeSocket } = place;
  // idleTimeout 0 as on any listener here (long calls, SSE streams); Bun honours it on a unix
  // socket too, though its typings offer it only with a port.
  const unixOptions: { unix: string; fetch: FetchHandler } = Object.assign({ unix: socket, fetch }, { idleTimeout: 0 });
  const main = Bun.serve(unixOptions);
  const closeMain = () => {
    void main.stop(true);
    removeSocket();
  };
  let running: RunningFront;
  try {
    running = await startFront(host, port, socket, feed);
  } catch (error) {
    closeMain();
    if (error instanceof FrontUnavailable) {
      console.error(`sidecar: ${error.message}; serving from the main thread alone`);
      return undefined;
    }
    throw error;
  }
  let closing = false;
  let restarts = 0;
  let direct: ReturnType<typeof Bun.serve> | undefined;
  const boundPort = running.port;
  // A crashed front takes the public port with it: start another on the same port, and after
  // MAX_FRONT_RESTARTS have the main thread serve it alone.
  const restartOnCrash = (front: RunningFront) => {
    void front.crashed.then(async (reason) => {
      if (closing) return;
      if (restarts++ < MAX_FRONT_RESTARTS) {
        console.error(`sidecar: the front thread crashed (${reason}); starting it again on port ${boundPort}`);
        try {
          running = await startFront(host, boundPort, socket, feed);
          restartOnCrash(running);
          return;
        } catch (error) {
          console.error(`sidecar: the front thread could not start again (${(error as Error).message})`);
        }
      }
      console.error(`sidecar: the front thread crashed (${reason}) ${restarts} times; the main thread serves port ${boundPort} alone from now on`);
      try {
        direct = Bun.serve({ fetch, hostname: host, port: boundPort, idleTimeout: 0 });
      } catch (error) {
        console.error(`sidecar: could not serve port ${boundPort} from the main thread (${(error as Error).message}); stop this sidecar and start another`);
      }
    });
  };
  restartOnCrash(running);
  return {
    port: boundPort,
    collectGarbage: (deep) => running.collectGarbage(deep),
    async close() {
      closing = true;
      await running.stop();
      await direct?.stop(true);
      closeMain();
    },
  };
}

/**
 * Where the main thread listens. Linux: an abstract socket, which has no file to leave behind even
 * after SIGKILL (and, like the loopback port it replaces, any local user may connect; the token
 * guard stands as before). macOS: a socket file in a private directory. Windows: none.
 */
function socketPlace(): { socket: string; remove(): void } | undefined {
  if (process.platform === "linux") return { socket: `\0sidecar-${process.pid}-${randomUUID()}`, remove: () => {} };
  if (process.platform === "win32") return undefined;
  const dir = mkdtempSync(join(tmpdir(), "sidecar-front-"));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  const socket = join(dir, "main.sock");
  if (socket.length <= MAX_SOCKET_PATH) return { socket, remove };
  remove();
  return undefined;
}

/** The front thread could not run at all (not a port problem): serve without it. */
class FrontUnavailable extends Error {}

interface RunningFront {
  port: number;
  /** Settles with the reason once the thread is gone (its port free again); after stop() too, when nobody waits. */
  crashed: Promise<string>;
  collectGarbage(deep: boolean): void;
  stop(): Promise<void>;
}

async function startFront(host: string, port: number, socket: string, feed: ListFrontFeed): Promise<RunningFront> {
  let worker: Worker;
  try {
    worker = takeFrontWorker();
  } catch (error) {
    throw new FrontUnavailable(`the front thread could not start (${(error as Error).message})`);
  }
  const send = (message: ToFront) => worker.postMessage(message);
  let stopped: (() => void) | undefined;
  let crash: (reason: string) => void = () => {};
  const crashed = new Promise<string>((resolve) => (crash = resolve));
  let failure: string | undefined;
  const listening = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new FrontUnavailable(`the front thread did not listen within ${FRONT_START_TIMEOUT_MS} ms`)), FRONT_START_TIMEOUT_MS);
    worker.addEventListener("message", (event: MessageEvent<FromFront>) => {
      const message = event.data;
      if (message.type === "listening") {
        clearTimeout(timer);
        resolve(message.port);
      } else if (message.type === "failed") {
        clearTimeout(timer);
        reject(new Error(message.message));
      } else if (message.type === "touched") feed.touched(message.ids);
      else stopped?.();
    });
    worker.addEventListener("error", (event) => {
      clearTimeout(timer);
      failure = (event as ErrorEvent).message || "unknown error";
      reject(new FrontUnavailable(`the front thread failed (${failure})`));
    });
    // The thread's port is free only once the thread is gone, a few ms after its error: a restart
    // that bound on the error alone raced it (EADDRINUSE).
    worker.addEventListener("close", () => crash(failure ?? "it exited"));
  });
  send({ type: "start", host, port, socket, setup: feed.setup });
  // In order after "start": the front knows the lists and sessions before its first request.
  const unwatch = feed.watch(send);
  let bound: number;
  try {
    bound = await listening;
  } catch (error) {
    unwatch();
    worker.terminate();
    throw error;
  }
  return {
    port: bound,
    crashed,
    collectGarbage: (deep) => send({ type: "collect", deep }),
    async stop() {
      unwatch();
      await new Promise<void>((resolve) => {
        stopped = resolve;
        send({ type: "stop" });
        setTimeout(resolve, 2_000).unref?.();
      });
      worker.terminate();
    },
  };
}

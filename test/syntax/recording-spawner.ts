// Real parse workers for tests of the pool: each one kept, so a test can end it as a crash or an
// out-of-memory kill would, and every message posted to it recorded.
import { bunPrimitives } from "../../src/runtime/bun.ts";
import type { ToWorker } from "../../src/syntax/worker-protocol.ts";

export interface RecordingSpawner {
  spawn: () => Worker;
  spawned: Worker[];
  sent: Array<{ worker: number; message: ToWorker }>;
}

export function recordingSpawner(): RecordingSpawner {
  const spawned: Worker[] = [];
  const sent: RecordingSpawner["sent"] = [];
  return {
    spawned,
    sent,
    spawn() {
      const worker = bunPrimitives.spawnParseWorker!();
      const index = spawned.push(worker) - 1;
      const post = worker.postMessage.bind(worker);
      worker.postMessage = (message: ToWorker) => {
        sent.push({ worker: index, message });
        post(message);
      };
      return worker;
    },
  };
}

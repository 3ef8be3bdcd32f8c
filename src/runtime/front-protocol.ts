// Messages between the main thread and the front thread (src/runtime/front-worker.bun.ts).
import type { FrontSetup, FrontUpdate } from "../http/list-front.ts";

export type ToFront =
  | { type: "start"; host: string; port: number; socket: string; setup: FrontSetup }
  | FrontUpdate
  | { type: "collect"; deep: boolean }
  | { type: "stop" };

export type FromFront =
  | { type: "listening"; port: number; tid?: number }
  | { type: "failed"; message: string }
  | { type: "touched"; ids: string[] }
  | { type: "stopped" };

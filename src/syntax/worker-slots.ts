// The parse workers of a run, as threads: started on the first search, each sent the tree-sitter
// runtime and the grammars its jobs need, a message posted and its answer awaited (or cancelled),
// and a worker that dies replaced, up to MAX_WORKER_RESTARTS, after which parsing moves to the
// main thread (fallbackReason says why). What the workers are asked is the pool's (parse-pool.ts).
import type { CompiledGrammars } from "./grammars.ts";
import { SearchCancelled } from "./file-search.ts";
import { PatternError } from "./pattern.ts";
import { UNCOUNTED_MESSAGES, type FromWorker, type ToWorker } from "./worker-protocol.ts";

/** How long a worker may take to load the tree-sitter runtime before the pool gives up on workers. */
const WORKER_START_TIMEOUT_MS = 15_000;

/**
 * Workers started again after one died, per run. A worker that keeps dying (a grammar that crashes
 * on some file) must not be restarted for ever: past this, parsing moves to the main thread.
 */
export const MAX_WORKER_RESTARTS = 3;

export type SpawnWorker = () => Worker;

/** The worker serving a call died before answering. */
export class WorkerDied extends Error {}

export interface WorkerSlot {
  worker: Worker;
  /** Its place in the count of messages posted (ParseWorkers.posted). */
  index: number;
  /** Settles once the worker answered its hello; a restarted worker gets a new one. */
  ready: Promise<void>;
  grammars: Set<string>;
  pending: Map<number, { resolve(answer: FromWorker): void; reject(e: Error): void }>;
}

/** The messages a worker answers; send() numbers each, so that its answer finds it. */
type AnsweredMessage = Extract<ToWorker, { type: "list" | "list-all" | "warm-list" | "compile" | "job" | "settle" }>;
type WithoutId<M> = M extends unknown ? Omit<M, "id"> : never;

export interface WorkerOptions {
  /** Absent, or throwing, means in-thread parsing. */
  spawnWorker?: SpawnWorker;
  workers: number;
  cacheChars: number;
}

export class ParseWorkers {
  private slots: Promise<WorkerSlot[]> | undefined;
  /** The id of the next message sent: unique in the run. */
  private nextMessage = 1;
  private restarts = 0;
  private closing = false;
  /** Why workers are not used, when they are not (reported by doctor and the tool's stats). */
  fallbackReason: string | undefined;
  /**
   * Messages posted to each worker, counted here and read by the worker mid-parse: a parse ahead of
   * need (its warm-up, the trees a search freed) stops for a message it has not heard yet.
   */
  private readonly posted: Int32Array;

  constructor(
    private readonly options: WorkerOptions,
    /** Compiled once for all workers (parse-pool.ts): a restarted worker instantiates the same module. */
    private readonly modules: CompiledGrammars,
    /** The file homes every worker shares (file-homes.ts), a restarted worker too. */
    private readonly homes: SharedArrayBuffer,
  ) {
    this.posted = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT * Math.max(1, options.workers)));
  }

  /** Every message to a worker goes through here, so that it is counted (UNCOUNTED_MESSAGES aside) before it is sent. */
  private postTo(slot: WorkerSlot, message: ToWorker, worker: Worker = slot.worker): void {
    if (!UNCOUNTED_MESSAGES.has(message.type)) Atomics.add(this.posted, slot.index, 1);
    worker.postMessage(message);
  }

  /**
   * Resolves once every started worker has done all it was given, the keeping of the trees a
   * search freed included: what the next search will find cached is then cached.
   */
  async whenIdle(): Promise<void> {
    const slots = (await this.slots?.catch(() => [])) ?? [];
    await Promise.all(
      slots.map(async (slot) => {
        const answer = await this.send(slot, { type: "settle" });
        if (answer.type !== "settled") throw new Error(`a parse worker answered a settle with ${answer.type}`);
      }),
    );
  }

  /** Sends a message to every live worker, once they have started (none when they never did). */
  tell(message: ToWorker): void {
    void this.slots?.then((slots) => {
      for (const slot of slots) this.postTo(slot, message);
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    const slots = await this.slots?.catch(() => []);
    for (const slot of slots ?? []) {
      for (const pending of slot.pending.values()) pending.reject(new Error("The parser shut down with the run."));
      slot.worker.terminate();
    }
  }

  /**
   * Posts a message that is answered (list, compile, job, settle) and waits for the answer. An
   * abort tells the worker to stop and settles the call at once: the caller is not kept waiting on
   * a worker deep in a walk or a parse (its late answer finds nothing pending and is dropped).
   */
  async send(slot: WorkerSlot, request: WithoutId<AnsweredMessage>, signal?: AbortSignal): Promise<FromWorker> {
    const message = { ...request, id: this.nextMessage++ } as AnsweredMessage;
    await slot.ready;
    await this.sendGrammars(slot, message.type === "job" ? [message.job.language] : message.type === "list" ? [message.language] : message.type === "compile" ? message.languages : []);
    const cancel = () => {
      this.postTo(slot, { type: "cancel", id: message.id });
      slot.pending.get(message.id)?.reject(new SearchCancelled());
      slot.pending.delete(message.id);
    };
    try {
      return await new Promise((resolve, reject) => {
        slot.pending.set(message.id, { resolve, reject });
        this.postTo(slot, message);
        if (signal?.aborted) cancel();
        else signal?.addEventListener("abort", cancel, { once: true });
      });
    } finally {
      // A listener left behind keeps a call's signal alive as long as the run's (a composite signal
      // with listeners lives while a source can still abort), and with it this job's file list.
      signal?.removeEventListener("abort", cancel);
    }
  }

  /** Posts a message nobody waits an answer to, once the worker is ready and holds these grammars. */
  async post(slot: WorkerSlot, message: Extract<ToWorker, { type: "prime" }>, languages: readonly string[]): Promise<void> {
    await this.sendGrammars(slot, languages);
    this.postTo(slot, message);
  }

  /** Posts `slot` the grammars it does not hold yet, in order (a message sent after them finds them there). */
  async sendGrammars(slot: WorkerSlot, languages: readonly string[]): Promise<void> {
    await slot.ready;
    for (const language of languages) {
      if (slot.grammars.has(language)) continue;
      const worker = slot.worker;
      const module = await this.modules.grammarModule(language);
      if (slot.grammars.has(language) || slot.worker !== worker) continue;
      this.postTo(slot, { type: "grammar", id: language, module }, worker);
      slot.grammars.add(language);
    }
  }

  start(): Promise<WorkerSlot[]> {
    this.slots ??= this.spawnAll().catch((error: Error) => {
      this.fallbackReason = `parse workers could not start (${error.message}); parsing on the main thread`;
      return [];
    });
    return this.slots;
  }

  private async spawnAll(): Promise<WorkerSlot[]> {
    const { spawnWorker, workers } = this.options;
    // `workers: 0` is a choice, not a fallback: nothing to note on every answer.
    if (workers < 1) return [];
    if (!spawnWorker) {
      this.fallbackReason = "no worker support in this runtime; parsing on the main thread";
      return [];
    }
    // Compiled while the workers load their code, not before they start; each gets it in its hello
    // (a failure reaches every worker as an error, and with it the readiness wait).
    this.modules.runtimeModule().catch(() => {});
    const started: WorkerSlot[] = [];
    try {
      for (let k = 0; k < workers; k++) started.push(this.startSlot(spawnWorker, k));
      await Promise.all(started.map((slot) => slot.ready));
      return started;
    } catch (error) {
      this.closing = true; // these workers end here: their exits are no crashes
      for (const slot of started) slot.worker.terminate();
      throw error;
    }
  }

  private startSlot(spawnWorker: SpawnWorker, index: number): WorkerSlot {
    const worker = spawnWorker();
    const slot: WorkerSlot = { worker, index, ready: readyOrTimeout(worker), grammars: new Set(), pending: new Map() };
    this.listen(slot, worker);
    return slot;
  }

  /** Sends `worker` (the slot's, new or replaced) its hello, and hears its answers and its death. */
  private listen(slot: WorkerSlot, worker: Worker): void {
    slot.ready.catch(() => {}); // a replacement nobody waits on yet must not be an unhandled rejection
    worker.addEventListener("message", (event: MessageEvent<FromWorker>) => {
      const message = event.data;
      if (message.type === "ready") return;
      const pending = slot.pending.get(message.id);
      if (!pending) return;
      slot.pending.delete(message.id);
      if (message.type !== "failed") pending.resolve(message);
      else pending.reject(message.patternError ? new PatternError(message.message) : new Error(message.message));
    });
    let died = false;
    const onDeath = (why: string) => {
      if (died || this.closing || slot.worker !== worker) return;
      died = true;
      this.replace(slot, worker, why);
    };
    worker.addEventListener("error", (event) => onDeath((event as ErrorEvent).message || "unknown error"));
    worker.addEventListener("close", () => onDeath("it exited"));
    this.modules.runtimeModule().then(
      (runtime) => {
        // A new worker has heard nothing: its count starts again.
        Atomics.store(this.posted, slot.index, 0);
        const { cacheChars, workers } = this.options;
        this.postTo(slot, { type: "hello", runtime, cacheChars, homes: this.homes, workers, posted: this.posted.buffer as SharedArrayBuffer, slot: slot.index }, worker);
      },
      (error: Error) => worker.dispatchEvent(new ErrorEvent("error", { message: `the tree-sitter runtime did not compile: ${error.message}` })),
    );
  }

  /**
   * A worker died: the calls it was serving are told (each tries once more, on its replacement), and
   * a new worker takes its place, its cache empty. After MAX_WORKER_RESTARTS deaths parsing moves
   * to the main thread for the rest of the run.
   */
  private replace(slot: WorkerSlot, dead: Worker, why: string): void {
    dead.terminate();
    const restart = this.restarts < MAX_WORKER_RESTARTS && this.options.spawnWorker !== undefined;
    const error = new WorkerDied(
      `a parse worker died while searching, twice (last: ${why}); ${restart ? "a new one took its place" : "parsing moves to the main thread"}: call again, or narrow path if it happens again.`,
    );
    for (const pending of slot.pending.values()) pending.reject(error);
    slot.pending.clear();
    if (!restart) {
      this.fallbackReason = `parse workers died ${this.restarts + 1} times (last: ${why}); parsing on the main thread from now on`;
      return;
    }
    this.restarts++;
    try {
      const worker = this.options.spawnWorker!();
      slot.worker = worker;
      slot.ready = readyOrTimeout(worker);
      slot.grammars = new Set();
      this.listen(slot, worker);
    } catch (spawnError) {
      this.fallbackReason = `a parse worker died and no new one could start (${(spawnError as Error).message}); parsing on the main thread from now on`;
    }
  }
}

function readyOrTimeout(worker: Worker): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${WORKER_START_TIMEOUT_MS} ms`)), WORKER_START_TIMEOUT_MS);
    worker.addEventListener("message", function onReady(event: MessageEvent<FromWorker>) {
      if (event.data.type !== "ready") return;
      clearTimeout(timer);
      worker.removeEventListener("message", onReady);
      resolve();
    });
    worker.addEventListener("error", (event) => {
      clearTimeout(timer);
      reject(new Error((event as ErrorEvent).message || "the worker failed to load"));
    });
  });
}

// The run's server installer: one install per server at a time in this process, progress for whoever waits, the install policy.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ServerSpec } from "../catalog.ts";
import { NO_BUN, type BunRuntime } from "./bun.ts";
import { installPlanOf, ServerCache, sha256, type InstallPlan } from "./cache.ts";
import { lockHolder } from "./install-lock.ts";
import { installServer } from "./installer.ts";
import preloadSource from "./server.preload.js" with { type: "text" };

type InstallPolicy = "auto" | "never";

export class ServerProvisioner {
  readonly cache: ServerCache;
  private readonly installs = new Map<string, Promise<string>>();
  private readonly listeners = new Set<(message: string) => void>();
  private readonly shutdown = new AbortController();
  private preloadPath?: string;

  constructor(
    cacheDir: string,
    readonly policy: InstallPolicy,
    private readonly catalog: readonly ServerSpec[],
    /** sidecarBun(trust): the run's trust decides which `bun` on PATH may serve under Node. */
    readonly bun: BunRuntime | undefined,
  ) {
    this.cache = new ServerCache(cacheDir);
  }

  plan(spec: ServerSpec): InstallPlan | undefined {
    return installPlanOf(spec, this.catalog);
  }

  /** The install folder of the server's npm install when it is complete; nothing is installed. */
  installedDir(spec: ServerSpec): string | undefined {
    const plan = this.plan(spec);
    return plan && this.cache.installed(plan);
  }

  /** "installing … (this sidecar)" or "(pid N)" while an install of it runs anywhere on this machine. */
  installing(spec: ServerSpec): string | undefined {
    const plan = this.plan(spec);
    if (!plan) return undefined;
    if (this.installs.has(plan.key)) return `installing ${plan.key} from npm`;
    const holder = lockHolder(join(this.cache.root, ".locks", `${plan.key}.lock`));
    return holder ? `installing ${plan.key} from npm (another sidecar, pid ${holder.pid})` : undefined;
  }

  /** Installs the server's npm install, or joins the install already running; resolves to its folder. */
  install(spec: ServerSpec): Promise<string> {
    const plan = this.plan(spec);
    if (!plan) return Promise.reject(new Error(`${spec.id} is not installed from npm`));
    const bun = this.bun;
    if (!bun) return Promise.reject(new Error(NO_BUN));
    let running = this.installs.get(plan.key);
    if (!running) {
      const entries = this.catalog.filter((other) => this.plan(other)?.key === plan.key).map((other) => other.npm!.entry);
      running = installServer(this.cache, plan, { bun, entries, signal: this.shutdown.signal, onProgress: (message) => this.tell(message) }).finally(() => this.installs.delete(plan.key));
      this.installs.set(plan.key, running);
    }
    return running;
  }

  /** Hears every install step until the returned function is called (an lsp call forwards them as MCP progress). */
  onProgress(listener: (message: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The preload every npm server starts with (server.preload.js), written once into the cache (or,
   * when the cache is read-only or its path has a space, which BUN_OPTIONS cannot carry, into a
   * private temporary folder: never a guessable path another user could plant).
   */
  preload(): string {
    this.preloadPath ??= (/\s/.test(this.cache.root) ? undefined : writePreload(join(this.cache.root, ".runtime"))) ?? writePreload(mkdtempSync(join(tmpdir(), "sidecar-runtime-")))!;
    return this.preloadPath;
  }

  /** Stops installs in progress (each removes its staging folder). */
  close(): void {
    this.shutdown.abort();
  }

  private tell(message: string): void {
    for (const listener of this.listeners) listener(message);
  }
}

function writePreload(dir: string): string | undefined {
  const path = join(dir, `server-preload-${sha256(preloadSource).slice(0, 12)}.js`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(path, preloadSource);
    return path;
  } catch {
    return undefined;
  }
}

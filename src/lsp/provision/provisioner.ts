// The run's server installer: one install per server at a time in this process, progress for whoever waits, the install policy.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ServerSpec } from "../catalog.ts";
import { sidecarBun, NO_BUN, type BunRuntime } from "./bun.ts";
import { installPlanOf, ServerCache, sha256, type InstallPlan } from "./cache.ts";
import { lockHolder } from "./install-lock.ts";
import { installServer } from "./installer.ts";
import preloadSource from "./server.preload.js" with { type: "text" };

export type InstallPolicy = "auto" | "never";

/** Files every npm server is started with: an empty Bun config (so a checkout's bunfig.toml is never read) and the preload (server.preload.js). */
export interface RuntimeFiles {
  bunfig: string;
  preload: string;
}

export class ServerProvisioner {
  readonly cache: ServerCache;
  private readonly installs = new Map<string, Promise<string>>();
  private readonly listeners = new Set<(message: string) => void>();
  private readonly shutdown = new AbortController();
  private runtimeFiles?: RuntimeFiles;

  constructor(
    cacheDir: string,
    readonly policy: InstallPolicy,
    private readonly catalog: readonly ServerSpec[],
    readonly bun: BunRuntime | undefined = sidecarBun(),
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
   * The empty bunfig.toml and the preload script, written once into the cache (or, when the cache is
   * read-only, into a private temporary folder: never a guessable path another user could plant).
   */
  files(): RuntimeFiles {
    this.runtimeFiles ??= writeRuntimeFiles(join(this.cache.root, ".runtime")) ?? writeRuntimeFiles(mkdtempSync(join(tmpdir(), "sidecar-runtime-")))!;
    return this.runtimeFiles;
  }

  /** Stops installs in progress (each removes its staging folder). */
  close(): void {
    this.shutdown.abort();
  }

  private tell(message: string): void {
    for (const listener of this.listeners) listener(message);
  }
}

function writeRuntimeFiles(dir: string): RuntimeFiles | undefined {
  const files = { preload: join(dir, `server-preload-${sha256(preloadSource).slice(0, 12)}.js`), bunfig: join(dir, "bunfig.toml") };
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(files.preload, preloadSource);
    writeFileSync(files.bunfig, "# Empty on purpose: servers the sidecar runs never read a checkout's bunfig.toml.\n");
    return files;
  } catch {
    return undefined;
  }
}

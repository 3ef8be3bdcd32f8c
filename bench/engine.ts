// In-process search benches run the engine as `sidecar serve` runs it: started over with the
// product's engine options (platform/engine-options.ts), which the engine reads only when it
// starts. Run as `bun bench/…`, a bench measured the engine's defaults, not the product. A caller
// that set any of the options keeps its own choice, as a harness would (`BUN_JSC_useFTLJIT=true`
// measures without them); the bench prints which engine ran.
import { ENGINE_OPTIONS, startOverWithEngineOptions } from "../src/platform/engine-options.ts";

/** Starts this bench over with serve's engine options, unless the caller set any; which engine runs. */
export function engineAsServe(): string {
  const callers = Object.keys(ENGINE_OPTIONS).filter((name) => process.env[name] !== undefined).map((name) => `${name}=${process.env[name]}`);
  const engine = startOverWithEngineOptions(); // returns only once started over, or when it will not be
  if (engine === "own") return `engine: as serve starts it (${Object.entries(ENGINE_OPTIONS).map(([name, value]) => `${name}=${value}`).join(" ")})`;
  if (engine === "caller's") return `engine: the caller's options (${callers.join(" ")}), not serve's`;
  return "engine: its defaults (this runtime cannot start itself over), not serve's options";
}

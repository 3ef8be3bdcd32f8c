// Doctor checks for eval: which Python interpreters exist here, what they can render, and
// whether the sidecar binary can run its own JavaScript kernel.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { DoctorGroup, DoctorRow } from "../doctor/check.ts";
import { findExecutable, mayRun, programTrust, trustedEnv, type ProgramTrust } from "../platform/executables.ts";
import { missingBridge } from "./bridge-client.ts";
import { KernelFactory } from "./factory.ts";
import { choosePython } from "./launch.ts";

/** Asking an interpreter about itself; a hung interpreter is reported, not waited on. */
const PROBE_TIMEOUT_MS = 15_000;
const GROUP = "kernels";
const LIBRARIES = [
  { module: "pandas", hint: "apt-get install python3-pandas, or %pip install pandas in a virtualenv" },
  { module: "matplotlib", hint: "apt-get install python3-matplotlib, or %pip install matplotlib in a virtualenv" },
  { module: "IPython", hint: "apt-get install python3-ipython (without it a built-in rewriter handles %pip, %cd, !cmd, %%bash, %timeit)" },
];
// `-c` puts the folder it starts in (the checkout) first on sys.path, where a json.py would shadow the
// standard library's and run: that entry goes before any import.
const PROBE = `import os, sys
sys.path[:] = [p for p in sys.path if p not in ("", os.getcwd())]
import importlib.util as u, json
print(json.dumps({"version": sys.version.split()[0], "executable": sys.executable,
  "found": {m: u.find_spec(m) is not None for m in sys.argv[1:]}}))`;

interface Probe {
  version: string;
  executable: string;
  found: Record<string, boolean>;
}

function probe(python: string, trust: ProgramTrust): Promise<Probe | string> {
  return new Promise((resolve) => {
    execFile(python, ["-c", PROBE, ...LIBRARIES.map((l) => l.module)], { cwd: trust.workdir, env: trustedEnv(process.env, trust), timeout: PROBE_TIMEOUT_MS }, (error, stdout) => {
      if (error) resolve((error as NodeJS.ErrnoException).code === "ENOENT" ? "not found" : error.message.split("\n")[0]!);
      else resolve(JSON.parse(stdout) as Probe);
    });
  });
}

async function interpreterRows(python: string, trust: ProgramTrust, chosen: boolean): Promise<DoctorRow[]> {
  const found = await probe(python, trust);
  const name = chosen ? `${python} (eval's default)` : python;
  if (typeof found === "string") {
    return [{ group: GROUP, name, ok: false, detail: found, hint: "install python3, or set resources.kernels.python in the run config" }];
  }
  return [
    { group: GROUP, name, ok: true, detail: `Python ${found.version} at ${found.executable}` },
    ...LIBRARIES.map(({ module, hint }) => ({
      group: GROUP,
      name: `  ${module}`,
      ok: found.found[module] === true,
      optional: true,
      detail: found.found[module] ? `importable from ${python}` : `not importable from ${python}`,
      ...(found.found[module] ? {} : { hint }),
    })),
  ];
}

async function javascriptRow(trust: ProgramTrust, selfCommand: readonly string[]): Promise<DoctorRow> {
  const kernels = new KernelFactory({}, trust.workdir, trust, selfCommand, missingBridge());
  try {
    const report = await kernels.execute({ language: "javascript", code: "6 * 7", reset: false, signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    const ok = report.outcome.ending.kind === "finished" && report.outcome.ending.status === "ok";
    return { group: GROUP, name: "javascript", ok, detail: ok ? `kernel mode runs (${report.interpreter})` : "kernel mode started but could not run a cell" };
  } catch (error) {
    return { group: GROUP, name: "javascript", ok: false, detail: (error as Error).message, hint: "rebuild the binary with `bun compile.ts`" };
  } finally {
    await kernels.close();
  }
}

export const kernelChecks: DoctorGroup = async ({ workdir, runtime, resources, trust: word }) => {
  const trust = programTrust(word ?? "none", workdir);
  const settings = resources?.kernels ?? {};
  const chosen = choosePython(settings, trust);
  // Each by its path (platform/executables.ts): a bare name run here would be found on the whole PATH.
  const candidates = [...new Set([chosen, findExecutable("python3", { trust }), "/usr/bin/python3", join(workdir, ".venv", "bin", "python")])].filter(
    (python): python is string => python !== undefined && existsSync(python),
  );
  // Untrusted (the default), an interpreter inside the checkout is the checkout's code: it is named, not run.
  const skipped = candidates.filter((python) => !mayRun(python, trust));
  const probed = candidates.filter((python) => !skipped.includes(python));
  const rows = await Promise.all(probed.map((python) => interpreterRows(python, trust, python === chosen)));
  const missing = chosen === undefined && !settings.enclosure ? [notFound(settings.python ?? "python3")] : [];
  return [...missing, ...skipped.map((python) => notProbed(python, python === chosen)), ...rows.flat(), await javascriptRow(trust, runtime.selfCommand)];
};

function notFound(python: string): DoctorRow {
  return { group: GROUP, name: `${python} (eval's default)`, ok: false, detail: "not found on PATH (outside the checkout, unless the workspace is trusted)", hint: "install python3, or set resources.kernels.python in the run config" };
}

function notProbed(python: string, chosen: boolean): DoctorRow {
  return {
    group: GROUP,
    name: chosen ? `${python} (eval's default)` : python,
    ok: true,
    optional: true,
    detail: "not run to probe it: it is inside the checkout, and the workspace is not trusted",
    hint: 'set "trust": "workspace" in the run config (the harness does when its user trusts this folder)',
  };
}

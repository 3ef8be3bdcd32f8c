// Preloaded (bun --preload) into every npm language server the sidecar runs, and inherited by the Bun
// processes it forks (tsserver):
// - stdout is the protocol's: console output goes to stderr (astro's language server logged with
//   console.info, which its LSP library does not redirect, and the stream broke);
// - for an untrusted workspace (SIDECAR_GUARD_WORKDIR), no module is loaded and no program started
//   from inside it: a second line behind each server's own settings (docs/lsp.md, Workspace trust).
"use strict";
const { dirname, isAbsolute, resolve } = require("node:path");
const { realpathSync } = require("node:fs");
const { format } = require("node:util");

for (const name of ["log", "info", "debug", "warn", "error", "trace", "dir"]) {
  console[name] = (...args) => process.stderr.write(`${format(...args)}\n`);
}

const workdir = process.env.SIDECAR_GUARD_WORKDIR;
if (workdir) {
  const roots = [workdir];
  try {
    roots.push(realpathSync(workdir));
  } catch {}
  const inside = (path) => {
    const candidates = [path];
    try {
      candidates.push(realpathSync(path));
    } catch {}
    return candidates.some((candidate) => roots.some((root) => candidate === root || candidate.startsWith(root + "/")));
  };
  const refuse = (what) => {
    throw new Error(`sidecar: refused to ${what}: it is inside the workspace, which is not trusted`);
  };
  const pathOf = (specifier, importer) => {
    const path = specifier.startsWith("file://") ? decodeURIComponent(new URL(specifier).pathname) : specifier.replace(/\?.*$/, "");
    if (isAbsolute(path)) return path;
    if (path.startsWith(".") && importer) return resolve(dirname(importer), path);
    return undefined;
  };

  Bun.plugin({
    name: "sidecar-workspace-guard",
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) => {
        const path = pathOf(args.path, args.importer);
        if ((path && inside(path)) || (args.importer && isAbsolute(args.importer) && inside(args.importer))) refuse(`load ${path ?? args.path}`);
        return undefined;
      });
    },
  });

  // A program path, given or relative to the spawn's working directory.
  const checkProgram = (command, options) => {
    if (typeof command !== "string" || !command.includes("/")) return;
    const cwd = options && typeof options.cwd === "string" ? options.cwd : process.cwd();
    const path = isAbsolute(command) ? command : resolve(cwd, command);
    if (inside(path)) refuse(`run ${path}`);
  };
  const childProcess = require("node:child_process");
  for (const name of ["spawn", "spawnSync", "execFile", "execFileSync"]) {
    const original = childProcess[name];
    childProcess[name] = function (command, args, options) {
      checkProgram(command, Array.isArray(args) ? options : args);
      return original.apply(this, arguments);
    };
  }
  for (const name of ["exec", "execSync"]) {
    const original = childProcess[name];
    childProcess[name] = function (command, options) {
      checkProgram(typeof command === "string" ? command.trim().split(/\s+/)[0] : command, typeof options === "object" ? options : undefined);
      return original.apply(this, arguments);
    };
  }
  for (const name of ["spawn", "spawnSync"]) {
    const original = Bun[name];
    Bun[name] = function (first, second) {
      const cmd = Array.isArray(first) ? first : first && first.cmd;
      checkProgram(cmd && cmd[0], Array.isArray(first) ? second : first);
      return original.apply(this, arguments);
    };
  }
}

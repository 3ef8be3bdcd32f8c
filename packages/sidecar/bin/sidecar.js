#!/usr/bin/env node
// `npx @sidecar-mcp/sidecar …`: runs this platform's sidecar binary, which npm installed as the one
// optional dependency whose os and cpu match (the esbuild/biome pattern); exit code and signals pass through.
"use strict";
const { spawn } = require("node:child_process");

const os = process.platform === "win32" ? "windows" : process.platform;
const target = `${os}-${process.arch}`;
const pkg = `@sidecar-mcp/sidecar-${target}`;
const TARGETS = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "windows-x64"];

function binaryPath() {
  if (process.env.SIDECAR_BINARY) return process.env.SIDECAR_BINARY;
  if (!TARGETS.includes(target)) {
    fail(`sidecar has no build for ${target}; builds exist for ${TARGETS.join(", ")}.`);
  }
  try {
    return require.resolve(`${pkg}/bin/sidecar${os === "windows" ? ".exe" : ""}`);
  } catch {
    fail(
      `the package ${pkg}, which carries the sidecar binary for this platform, is not installed. ` +
        "npm installs it as an optional dependency: reinstall without --omit=optional / --no-optional " +
        `(or install ${pkg} directly), or set SIDECAR_BINARY to a sidecar binary.`,
    );
  }
}

function fail(message) {
  process.stderr.write(`sidecar (npm): ${message}\n`);
  process.exit(1);
}

const child = spawn(binaryPath(), process.argv.slice(2), { stdio: "inherit" });
// The sidecar stops itself when its parent (this process) exits; a signal sent here reaches it first.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
child.on("error", (error) => fail(`could not start ${child.spawnfile}: ${error.message}`));
child.on("exit", (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  } else {
    process.exit(code ?? 1);
  }
});

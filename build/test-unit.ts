// `npm run test:unit`: the fast tier for the edit-test loop. Every test file runs except those that
// drive a language server, a debug adapter, Chromium or a compiled binary; each left out is named
// here with what it drives, so a new slow file is added with its reason, not to an unreadable flag.
// Usage: bun build/test-unit.ts [more bun test arguments]
export {};

const LEFT_OUT: ReadonlyArray<readonly [pattern: string, drives: string]> = [
  ["test/lsp/**", "language servers"],
  ["test/dap/**", "debug adapters"],
  ["test/kernel/**", "kernels under load, pandas, matplotlib"],
  ["test/release/**", "compiled binaries and archives"],
  ["test/runtime/**", "the compiled binary's runtime"],
  ["test/hardening/{special-files,location-links,file-names,read-only,checker-reach}.test.ts", "pyright, clangd"],
  ["test/hardening/path-escapes-server.test.ts", "pyright"],
  ["test/hardening/debug-temp-files.test.ts", "debugpy"],
  ["test/hardening/{*-faults,retained-calls,sidecar-signals,write-race}.test.ts", "language servers, adapters and kernels killed mid-call"],
  ["test/cli/doctor.test.ts", "every installed server and adapter"],
  ["test/console/{operator-browser,console-browser,console-resources,page-secret-browser}.test.ts", "Chromium"],
  ["test/syntax/compiled-workers.test.ts", "the compiled binary"],
  ["test/platform/priority.test.ts", "child processes under nice"],
  ["test/harness-client/wire-types.test.ts", "the TypeScript compiler (8 s of CPU; npm run typecheck checks the same types)"],
  ["test/http/clients-{http,stdio}.test.ts", "the MCP Inspector under node, against spawned sidecars (20 s of CPU)"],
  ["test/hardening/pattern-abuse.test.ts", "a 1 MiB file matched node by node (7 s of CPU; past its 120 s bound on the loaded machine)"],
  ["test/answer/code-table.test.ts", "pyright, debugpy and a server that indexes forever (90 s: its not_ready row waits out the indexing bound)"],
  ["test/hardening/planted-path.test.ts", "every kind of child behind a planted PATH: language servers, debug adapters, kernels"],
  ["test/http/limits.test.ts", "serve spawned under Bun and under Node, bodies up to 65 MiB (10 s of CPU)"],
  ["test/syntax/languages.test.ts", "the ast-grep CLI once per language case (9 s of CPU)"],
];

const command = [
  process.execPath,
  "test",
  "--timeout",
  "30000",
  // Files run in four worker processes: most of this tier's time is spent waiting (sockets, child
  // processes, timers), so on two cores four at once took 184 s where one at a time took 343 s.
  "--parallel=4",
  // Longest files first (their last measured times), so no long file starts last and runs alone.
  // Refresh after adding a slow file: `bun build/test-unit.ts --update-timings`.
  "--timings=build/test-timings.json",
  ...LEFT_OUT.map(([pattern]) => `--path-ignore-patterns=${pattern}`),
  ...process.argv.slice(2),
];
console.error(`test:unit leaves out the tests of ${LEFT_OUT.map(([, drives]) => drives).join("; ")} (build/test-unit.ts); npm test runs them.`);
// Runs here start no warm-up unless the test asks for one (test/helpers/sidecar.ts): npm test keeps
// the default, so the warm-up still runs beside every search there.
const child = Bun.spawn(command, { stdio: ["inherit", "inherit", "inherit"], env: { ...process.env, SIDECAR_TEST_NO_WARM_UP: "1" } });
process.exit(await child.exited);

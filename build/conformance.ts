// The official MCP conformance suite (@modelcontextprotocol/conformance) against a sidecar run:
// `npx bun build/conformance.ts`. Every server scenario is either applicable, and must pass with
// no warning, or named here as not applicable with the reason; a scenario the suite adds fails the
// run until it is sorted. Exits 1 on any failure or warning.
//
// The run is in-process on the embedded defaults plus the tools the scenarios call by name
// (build/conformance-tools.ts). The suite's client sends no Authorization header, so it talks to a
// loopback proxy that adds the default surface's token and passes everything else on unchanged,
// Host and Origin included. For test_reconnection the proxy also cuts the call's event stream right
// after its first event, as a dropped connection would: the client must resume it with
// Last-Event-ID and get the answer.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { embeddedDefaults } from "../src/config/defaults.ts";
import { settle } from "../src/config/load.ts";
import { RunLog } from "../src/log/log.ts";
import { startRun } from "../src/run/start.ts";
import { bunPrimitives } from "../src/runtime/bun.ts";
import { conformanceTools } from "./conformance-tools.ts";

const ROOT = join(import.meta.dir, "..");
const SUITE = join(ROOT, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
/** A scenario that takes longer than this is stuck. */
const SCENARIO_TIMEOUT_MS = 120_000;

/** Scenarios of what sidecar does; each must pass with no warning. */
const APPLICABLE = [
  "server-initialize",
  "ping",
  "tools-list",
  "tools-call-simple-text",
  "tools-call-image",
  "tools-call-error",
  "tools-call-with-progress",
  "server-sse-polling",
  "server-sse-multiple-streams",
  "dns-rebinding-protection",
  "logging-set-level",
  "tools-call-with-logging",
  "tools-call-elicitation",
  "elicitation-sep1034-defaults",
  "elicitation-sep1330-enums",
];

/** Applicable, and failing until the named work lands. One that passes fails the run, so this list stays true. */
const AWAITING: Record<string, string> = {};

/** What sidecar does not offer, so the scenario has nothing to test. */
const NOT_APPLICABLE: Record<string, string> = {
  "completion-complete": "sidecar offers no prompts or resource templates to complete",
  "tools-call-audio": "no sidecar tool answers with audio",
  "tools-call-embedded-resource": "no sidecar tool answers with embedded resources",
  "tools-call-mixed-content": "no sidecar tool answers with embedded resources",
  "tools-call-sampling": "sidecar never asks the client to sample a model",
  "json-schema-2020-12": "tool input schemas are generated from valibot schemas, not passed through from a tool's author",
  "resources-list": "sidecar offers no resources",
  "resources-read-text": "sidecar offers no resources",
  "resources-read-binary": "sidecar offers no resources",
  "resources-templates-read": "sidecar offers no resources",
  "resources-subscribe": "sidecar offers no resources",
  "resources-unsubscribe": "sidecar offers no resources",
  "prompts-list": "sidecar offers no prompts",
  "prompts-get-simple": "sidecar offers no prompts",
  "prompts-get-with-args": "sidecar offers no prompts",
  "prompts-get-embedded-resource": "sidecar offers no prompts",
  "prompts-get-with-image": "sidecar offers no prompts",
};

interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  errorMessage?: string;
}

async function main(): Promise<number> {
  const listed = await serverScenarios();
  const unsorted = listed.filter((name) => !APPLICABLE.includes(name) && !(name in NOT_APPLICABLE));
  const gone = APPLICABLE.filter((name) => !listed.includes(name));
  if (unsorted.length > 0 || gone.length > 0) {
    console.log(`conformance: the suite's server scenarios changed: new ${unsorted.join(", ") || "none"}; gone ${gone.join(", ") || "none"}. Sort them in build/conformance.ts.`);
    return 1;
  }
  const workdir = mkdtempSync(join(tmpdir(), "sidecar-conformance-"));
  const results = mkdtempSync(join(tmpdir(), "sidecar-conformance-results-"));
  const log = new RunLog(); // no sink: the report is the output
  const run = await startRun(settle(embeddedDefaults(), { workdir }), bunPrimitives, { extraTools: conformanceTools(log), log });
  const proxy = tokenProxy(run.url, run.surfaces.default!);
  let failed = 0;
  try {
    for (const scenario of APPLICABLE) {
      const checks = await runScenario(scenario, proxy.url, results);
      const bad = checks.filter((check) => check.status === "FAILURE" || check.status === "WARNING");
      const counts = ["SUCCESS", "WARNING", "FAILURE"].map((status) => `${checks.filter((c) => c.status === status).length} ${status.toLowerCase()}`).join(", ");
      const awaiting = AWAITING[scenario];
      if (awaiting && bad.length > 0) {
        console.log(`AWAITING ${scenario}: ${counts} (${awaiting})`);
        continue;
      }
      if (awaiting) {
        console.log(`FAIL ${scenario}: passes now; take it out of AWAITING in build/conformance.ts`);
        failed++;
        continue;
      }
      console.log(`${bad.length === 0 && checks.length > 0 ? "PASS" : "FAIL"} ${scenario}: ${counts}`);
      for (const check of bad) console.log(`  ${check.status} ${check.id}: ${check.errorMessage ?? ""}`);
      if (bad.length > 0 || checks.length === 0) failed++;
    }
    for (const [scenario, why] of Object.entries(NOT_APPLICABLE)) console.log(`n/a ${scenario}: ${why}`);
  } finally {
    proxy.stop();
    await run.close();
    rmSync(workdir, { recursive: true, force: true });
    rmSync(results, { recursive: true, force: true });
  }
  const awaiting = Object.keys(AWAITING).length;
  const outcome = failed === 0 ? "every applicable scenario passes with no warning" : `${failed} scenario(s) failed or warned`;
  console.log(`conformance: ${outcome}${awaiting ? `, besides ${awaiting} awaiting work named above` : ""}`);
  return failed === 0 ? 0 : 1;
}

/** The server scenarios the installed suite lists. */
async function serverScenarios(): Promise<string[]> {
  const child = Bun.spawn([process.execPath, SUITE, "list"], { stdout: "pipe", stderr: "inherit" });
  const text = await new Response(child.stdout).text();
  await child.exited;
  const server = text.slice(text.indexOf("Server scenarios"), text.indexOf("Client scenarios"));
  return [...server.matchAll(/^\s*-\s+(\S+)/gm)].map((m) => m[1]!);
}

/** Runs one scenario through the suite's CLI; its checks. */
async function runScenario(scenario: string, url: string, results: string): Promise<Check[]> {
  const output = join(results, scenario);
  const child = Bun.spawn([process.execPath, SUITE, "server", "--url", url, "--scenario", scenario, "-o", output], { stdout: "ignore", stderr: "pipe", timeout: SCENARIO_TIMEOUT_MS });
  const stderr = await new Response(child.stderr).text();
  await child.exited;
  const dir = (() => {
    try {
      return readdirSync(output).find((name) => name.startsWith(`server-${scenario}`));
    } catch {
      return undefined;
    }
  })();
  if (!dir) {
    console.log(`  (no results from the suite for ${scenario}; its stderr: ${stderr.trim().slice(0, 2000)})`);
    return [];
  }
  return JSON.parse(readFileSync(join(output, dir, "checks.json"), "utf8")) as Check[];
}

/**
 * A loopback proxy adding the bearer token. Everything else passes unchanged, Host and Origin
 * included (dns-rebinding-protection sends foreign ones). A test_reconnection call's event stream
 * is cut after its first event, as by a dropped connection.
 */
function tokenProxy(target: string, token: string) {
  const origin = new URL(target).origin;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const headers = new Headers(request.headers);
      headers.set("authorization", `Bearer ${token}`);
      const body = request.method === "POST" ? await request.text() : undefined;
      const upstream = await fetch(`${origin}${url.pathname}${url.search}`, { method: request.method, headers, body, redirect: "manual" });
      const cut = body !== undefined && /"name"\s*:\s*"test_reconnection"/.test(body) && upstream.headers.get("content-type")?.startsWith("text/event-stream");
      return new Response(cut ? firstEventOnly(upstream.body!) : upstream.body, { status: upstream.status, headers: upstream.headers });
    },
  });
  return { url: `http://127.0.0.1:${server.port}/mcp`, stop: () => server.stop(true) };
}

/** The stream up to the end of its first event (comments before it pass too), then ended; the rest is dropped. */
function firstEventOnly(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let seen = "";
  return new ReadableStream({
    async pull(controller) {
      const { value, done } = await reader.read();
      if (done) return controller.close();
      seen += decoder.decode(value, { stream: true });
      const end = /(^|\n)(id|data|event):[^\n]*\n(?:[^\n]+\n)*\n/.exec(seen);
      if (!end) return controller.enqueue(value);
      controller.enqueue(new TextEncoder().encode(seen.slice(0, end.index + end[0].length)));
      controller.close();
      await reader.cancel("the proxy drops the connection");
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

process.exit(await main());

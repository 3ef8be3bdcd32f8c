// The run at a glance for the operator page: what each resource of the run holds right now (language
// servers, the debug session, kernels, workers, diagnostics on write). Read every few seconds, so
// nothing here starts, probes or waits on anything.
import type { GlanceRow, GlanceSection } from "../questions/page/page-routes.ts";
import type { Surface, ToolRegistry } from "../tool/registry.ts";
import type { RunResources } from "../tools/run-resources.ts";
import { lastOutcome, type WorkerRecord } from "../workers/worker-record.ts";
import { residentBytes } from "../platform/resident-memory.ts";

/** A worker's result or a last error is cut to this many characters in its row. */
const DETAIL_CHARS = 300;
/** Diagnostics rows shown at most (the ledger may hold thousands after a bad write). */
const DIAGNOSTIC_ROWS = 50;

export function runGlance(services: RunResources, registry: ToolRegistry, surfaces: readonly Surface[]): GlanceSection[] {
  const { languageServers, debug, kernels, workers, conversation } = services;
  return [
    ...(languageServers ? [languageServerSection(services)] : []),
    ...(debug && conversation ? [debugSection(services)] : []),
    ...(kernels ? [kernelSection(services)] : []),
    ...(workers ? [workerSection(workers.list())] : []),
    ...(languageServers ? [diagnosticSection(services)] : []),
    {
      title: "Surfaces and their tools",
      rows: surfaces.map((surface) => {
        const tools = registry.forSurface(surface).map((tool) => tool.name);
        return { name: surface.name, state: surface.tiers.join(", "), detail: tools.length ? tools.join(", ") : "no tools" };
      }),
    },
    {
      title: "Run",
      rows: [
        { name: "workdir", state: "", detail: services.workdir },
        ...(conversation ? [{ name: "conversation", state: "", detail: conversation }] : []),
        ...(services.questions ? [{ name: "questions", state: services.questions.board ? "this page" : "harness port", detail: services.questions.space ? `space ${services.questions.space}` : "no space: ask_user is off" }] : []),
      ],
    },
  ];
}

function languageServerSection(services: RunResources): GlanceSection {
  const rows = services.languageServers!.supervisor.started().map((server) => ({
    name: server.server,
    state: server.state,
    detail: joined([`root ${server.root || "."}`, processFacts(server.pid), server.lastError ? `last error: ${cut(server.lastError)}` : undefined]),
  }));
  return { title: "Language servers", rows, empty: "None started yet: a server starts on the first lsp call or write for its language." };
}

function debugSection(services: RunResources): GlanceSection {
  const debug = services.debug!;
  const session = debug.sessionFor(services.conversation!);
  const rows: GlanceRow[] = session
    ? [
        {
          name: session.label,
          state: session.state,
          detail: joined([
            session.live ? processFacts(session.programPid, "program pid") : undefined,
            session.live ? `ends in ${Math.ceil(debug.ttlLeft(session) / 60_000)} min unless used (TTL)` : undefined,
          ]),
        },
      ]
    : [];
  return { title: "Debug session", rows, empty: "No debug session: the debug tool's launch or attach starts one." };
}

function kernelSection(services: RunResources): GlanceSection {
  const rows = services.kernels!.kernels().map((kernel) => ({
    name: kernel.language,
    state: kernel.state,
    detail: joined([
      kernel.interpreter || undefined,
      kernel.executionCount ? `${kernel.executionCount} cell${kernel.executionCount === 1 ? "" : "s"} run` : undefined,
      kernel.waiting ? `${kernel.waiting} waiting` : undefined,
      processFacts(kernel.pid),
    ]),
  }));
  return { title: "Kernels", rows, empty: "No kernel yet: eval starts one per language on first use." };
}

function workerSection(records: WorkerRecord[]): GlanceSection {
  const rows = records.map((record) => {
    const outcome = lastOutcome(record);
    const running = record.state === "running" || record.state === "queued";
    return {
      name: `${record.id} ${record.label}`.trim(),
      state: record.state,
      detail: joined([
        `${record.tier}, generation ${record.generation}`,
        running && record.lastProgress ? `now: ${cut(record.lastProgress)}` : undefined,
        !running && outcome?.result ? `result: ${cut(outcome.result)}` : undefined,
        !running && outcome?.note ? outcome.note : undefined,
      ]),
    };
  });
  return { title: "Workers", rows, empty: "No worker spawned yet (vibe_spawn)." };
}

function diagnosticSection(services: RunResources): GlanceSection {
  const findings = services.languageServers!.ledger.findings();
  const rows = findings.slice(0, DIAGNOSTIC_ROWS).map((finding) => ({
    // The ledger keys files as the agent's answers name them: relative to the workdir already.
    name: finding.path,
    state: finding.severity,
    detail: `${finding.code ? `[${finding.code}] ` : ""}${cut(finding.message)}${finding.count > 1 ? ` (${finding.count} times)` : ""}`,
  }));
  const more = findings.length > DIAGNOSTIC_ROWS ? `${DIAGNOSTIC_ROWS} of ${findings.length} shown` : undefined;
  return { title: "Diagnostics on write", rows, empty: "None held: the agent has been told of no open diagnostic in the files it wrote.", ...(more ? { note: more } : {}) };
}

/** "pid 4242, 85 MB" from /proc, or just the pid where memory cannot be read. */
function processFacts(pid: number | undefined, label = "pid"): string | undefined {
  if (pid === undefined) return undefined;
  const bytes = residentBytes(pid);
  return bytes === undefined ? `${label} ${pid}` : `${label} ${pid}, ${Math.round(bytes / 2 ** 20)} MB`;
}

function joined(parts: (string | undefined)[]): string {
  return parts.filter((part): part is string => Boolean(part)).join("; ");
}

function cut(text: string): string {
  const line = text.trim().replace(/\s+/g, " ");
  return line.length <= DETAIL_CHARS ? line : `${line.slice(0, DETAIL_CHARS)}…`;
}

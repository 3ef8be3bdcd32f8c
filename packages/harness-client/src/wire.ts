// The JSON a harness exchanges with sidecar besides MCP (docs/harness.md): the ready line, question
// cards and outcomes, permission decisions, the tool bridge, diagnostics on write, errors, and the
// worker contract. test/harness-client/types-in-sync.test.ts holds these to the sidecar's own types.
import type { RouteErrorCode, ToolErrorCode } from "./error-codes.ts";

/** The one JSON line `sidecar serve` prints on stdout when it is ready. */
export interface ReadyLine {
  /** The MCP endpoint, e.g. http://127.0.0.1:41234/mcp. */
  url: string;
  /** The operator page's link (a one-time ticket in its fragment): the run's console, served by every run. */
  page?: string;
  /** Surface name → its bearer token. */
  surfaces: Record<string, string>;
  pid: number;
  version: string;
}

export type CardKind = "question" | "permission";

export interface CardOption {
  /** "o1"… for questions, "allow"/"deny" for permission prompts; answers name ids, never labels. */
  id: string;
  label: string;
  description: string | null;
}

/** What the sidecar sends a question port (`POST {port}/questions`). */
export interface QuestionCard {
  id: string;
  /** 1, 2, 3… in this run: the number the operator sees. */
  number: number;
  kind: CardKind;
  space: string;
  /** The MCP surface whose ask_user call asked; null for /harness/permission. */
  surface: string | null;
  question: string;
  context: string | null;
  options: CardOption[];
  allow_free_text: boolean;
  multi_select: boolean;
  /** ISO time after which the sidecar withdraws the card. */
  expires_at: string;
}

/** A final outcome a question port reports for a card. */
export type CardOutcome =
  | { outcome: "answered"; option_ids?: string[]; text?: string | null }
  | { outcome: "skipped" }
  | { outcome: "timeout" }
  | { outcome: "no_human"; reason: string };

/** What a port answers to `POST /questions` and to each long poll. */
export type PortReply = CardOutcome | { outcome: "pending" };

/** `DELETE {port}/questions/{id}`'s body: why the sidecar withdrew the card. */
export interface Withdrawal {
  reason: "cancelled" | "timeout";
}

/** `POST /harness/permission`'s body. */
export interface PermissionRequest {
  question: string;
  context?: string | null;
  space?: string;
}

/** Its answer: only `allowed` means "do it". */
export interface PermissionDecision {
  outcome: "allowed" | "denied" | "timeout" | "no_human" | "failed" | "cancelled";
  reason?: string;
}

/** What the sidecar posts to the run config's bridge URL when a cell calls `tool()`. */
export interface BridgeRequest {
  tool: string;
  arguments: Record<string, unknown>;
  conversation: string | null;
  origin: { tool: "eval"; language: string };
}

/** The bridge's answer. */
export type BridgeAnswer = { ok: true; result: unknown } | { ok: false; denied: true; message: string } | { ok: false; denied?: false; message: string };

export type Freshness = "fresh" | "timed_out" | "unsupported";

export interface DiagnosticRow {
  path: string;
  line: number;
  severity: "error" | "warning" | "info" | "hint";
  code?: string;
  source?: string;
  message: string;
}

/** `POST /harness/after-write`'s answer. */
export interface AfterWriteAnswer {
  /** The least fresh of the files: `fresh` only when every file's diagnostics arrived. */
  status: Freshness;
  /** Only what the write caused: errors already in a file before it are counted in `already`, not listed. */
  new: DiagnosticRow[];
  files: {
    path: string;
    status: Freshness;
    reason?: string;
    /** What the file was compared with: the server's copy, git's, none (created), or nothing known. */
    baseline?: "server" | "checkout" | "created" | "unknown";
    new: DiagnosticRow[];
    /** Errors and warnings there before the write too. */
    already: number;
    /** Errors and warnings the write fixed. */
    fixed: number;
    /** With no text before the write known: its diagnostics, of which nobody can say which are new. */
    unverified?: DiagnosticRow[];
  }[];
  /** Other files whose diagnostics changed with no earlier record to compare with (not listed). */
  uncompared: number;
  /** clangd: files that include a written header and were not open before the write: their errors and warnings, new or not nobody can tell. */
  includers?: { path: string; unverified: DiagnosticRow[] }[];
  /** Ready to append to the write's result; empty when there is nothing to say. */
  text: string;
}

/** The body of every error from a route other than /mcp. */
export interface RouteError {
  error: { code: RouteErrorCode; message: string };
}

/** `structuredContent` of every MCP tool error result. */
export interface ToolError {
  error: {
    /** Stable: branch on this, never on the message (docs/harness.md lists every code). */
    code: ToolErrorCode;
    message: string;
    details?: Record<string, unknown>;
  };
}

/** The environment a worker process is started with (the worker contract). */
export interface WorkerEnvironment {
  SIDECAR_BRIEF_FILE: string;
  SIDECAR_RESULT_FILE: string;
  SIDECAR_WORKER_ID: string;
  SIDECAR_WORKER_GENERATION: string;
  SIDECAR_WORKER_TIER: "fast" | "good";
  SIDECAR_WORKER_SURFACE: string;
  /** Comma-separated: "read" or "read,write,exec". */
  SIDECAR_WORKER_TIERS: string;
}

/** A worker's own view of the contract, read from its environment. */
export function workerContext(env: Record<string, string | undefined> = process.env): WorkerEnvironment & { tiers: string[] } {
  const get = (name: keyof WorkerEnvironment) => {
    const value = env[name];
    if (value === undefined) throw new Error(`${name} is not set: this process was not started by sidecar as a worker.`);
    return value;
  };
  const tier = get("SIDECAR_WORKER_TIER");
  if (tier !== "fast" && tier !== "good") throw new Error(`SIDECAR_WORKER_TIER is ${tier}, not fast or good.`);
  const tiers = env.SIDECAR_WORKER_TIERS ?? "";
  return {
    SIDECAR_BRIEF_FILE: get("SIDECAR_BRIEF_FILE"),
    SIDECAR_RESULT_FILE: get("SIDECAR_RESULT_FILE"),
    SIDECAR_WORKER_ID: get("SIDECAR_WORKER_ID"),
    SIDECAR_WORKER_GENERATION: get("SIDECAR_WORKER_GENERATION"),
    SIDECAR_WORKER_TIER: tier,
    SIDECAR_WORKER_SURFACE: env.SIDECAR_WORKER_SURFACE ?? "",
    SIDECAR_WORKER_TIERS: tiers,
    tiers: tiers ? tiers.split(",") : [],
  };
}

// One line of the call record (`<stateDir>/calls.jsonl`): a call's facts, with long argument strings
// cut (keeping their length) so the record stays small and a line stays readable.
import { WRITTEN_META } from "../tool/invoke.ts";
import type { CallReport } from "./call-report.ts";

/** Argument strings longer than this are cut in the record. */
export const RECORDED_STRING_CHARS = 200;
/** Arrays longer than this keep their first items in the record. */
const RECORDED_ARRAY_ITEMS = 20;
/** Objects nested deeper than this are summarised. */
const RECORDED_DEPTH = 6;

type CallOutcome = "ok" | "error" | "cancelled";

/** The record's line (JSON field names are the file's). */
export interface CallEntry {
  /** The run this call belongs to (runs may share a stateDir). */
  run: string;
  /** 1, 2, 3… in this run. */
  id: number;
  time: string;
  surface: string;
  tool: string;
  arguments: unknown;
  outcome: CallOutcome;
  /** The error's stable code, with outcome "error". */
  code?: string;
  duration_ms: number;
  /** Bytes of the answer's text and images. */
  answer_bytes: number;
  /** Files the call changed (resolve accept, lsp_rename), workspace-relative. */
  files?: string[];
}

export function callEntry(run: string, id: number, report: CallReport, stringChars = RECORDED_STRING_CHARS): CallEntry {
  const outcome: CallOutcome = report.cancelled ? "cancelled" : report.result.isError ? "error" : "ok";
  const code = outcome === "error" ? errorCodeOf(report.result.structuredContent) : undefined;
  const written = report.result._meta?.[WRITTEN_META];
  const files = Array.isArray(written) ? written.filter((p): p is string => typeof p === "string") : undefined;
  return {
    run,
    id,
    time: new Date(report.startedAt).toISOString(),
    surface: report.surface,
    tool: report.tool,
    arguments: cutStrings(report.arguments, stringChars, 0),
    outcome,
    ...(code ? { code } : {}),
    duration_ms: Math.round(report.durationMs),
    answer_bytes: answerBytes(report.result),
    ...(files?.length ? { files } : {}),
  };
}

/** Bytes of the answer's text and (base64) images: what the client received, near enough. */
function answerBytes(result: CallReport["result"]): number {
  let bytes = 0;
  for (const block of result.content) {
    if (block.type === "text") bytes += Buffer.byteLength(block.text);
    else if (block.type === "image" || block.type === "audio") bytes += block.data.length;
  }
  return bytes;
}

function errorCodeOf(structured: unknown): string | undefined {
  const code = (structured as { error?: { code?: unknown } } | undefined)?.error?.code;
  return typeof code === "string" ? code : undefined;
}

/** The value with every string past `max` characters cut, saying how long it was. */
export function cutStrings(value: unknown, max: number, depth: number): unknown {
  if (typeof value === "string") return value.length <= max ? value : `${value.slice(0, max)}… (${value.length} characters in all)`;
  if (value === null || typeof value !== "object") return value;
  if (depth >= RECORDED_DEPTH) return Array.isArray(value) ? `[${value.length} items]` : "{…}";
  if (Array.isArray(value)) {
    const kept = value.slice(0, RECORDED_ARRAY_ITEMS).map((item) => cutStrings(item, max, depth + 1));
    return value.length > RECORDED_ARRAY_ITEMS ? [...kept, `… ${RECORDED_ARRAY_ITEMS} of ${value.length} items shown`] : kept;
  }
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, cutStrings(item, max, depth + 1)]));
}

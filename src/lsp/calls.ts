// The `calls` action: a function's call hierarchy, incoming or outgoing, one row per call site.
import type { CallHierarchyIncomingCall, CallHierarchyItem, CallHierarchyOutgoingCall } from "vscode-languageserver-protocol";
import type { PlaceRow } from "./present.ts";
import { requireProvider, type Target } from "./queries.ts";
import { kindName as symbolKindName } from "./symbol-kinds.ts";

/** One call in a call hierarchy: the calling (incoming) or called (outgoing) function, and where the call is. */
export interface CallRow extends PlaceRow {
  /** The caller (incoming) or callee (outgoing). */
  name: string;
  kind: string;
}

/**
 * The calls into (incoming) or out of (outgoing) the function at the target: one row per call site,
 * the site's line shown. Incoming call sites are in the caller's file, outgoing ones in the target's.
 */
export async function calls(target: Target, direction: "incoming" | "outgoing", signal?: AbortSignal): Promise<CallRow[]> {
  const { client } = target.handle;
  requireProvider(client, "callHierarchyProvider", "calls");
  const items = await client.query<CallHierarchyItem[] | null>("textDocument/prepareCallHierarchy", { textDocument: { uri: target.document.uri }, position: target.position }, signal);
  const lines = target.supervisor.lines();
  const rows: CallRow[] = [];
  for (const item of items ?? []) {
    if (direction === "incoming") {
      const answer = await client.query<CallHierarchyIncomingCall[] | null>("callHierarchy/incomingCalls", { item }, signal);
      for (const call of answer ?? []) {
        for (const range of call.fromRanges) rows.push({ ...lines.place(call.from.uri, range.start.line, range.start.character), name: call.from.name, kind: symbolKindName(call.from.kind) });
      }
    } else {
      const answer = await client.query<CallHierarchyOutgoingCall[] | null>("callHierarchy/outgoingCalls", { item }, signal);
      for (const call of answer ?? []) {
        for (const range of call.fromRanges) rows.push({ ...lines.place(item.uri, range.start.line, range.start.character), name: call.to.name, kind: symbolKindName(call.to.kind) });
      }
    }
  }
  const seen = new Set<string>();
  return rows
    .filter((row) => !seen.has(`${row.path}:${row.line}:${row.column}:${row.name}`) && seen.add(`${row.path}:${row.line}:${row.column}:${row.name}`))
    .sort((a, b) => a.path.localeCompare(b.path) || a.line - b.line || a.column - b.column);
}


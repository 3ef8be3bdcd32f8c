// The error body of every route that is not /mcp (the harness's /harness/*, the operator page):
// plain JSON `{"error": {"code", "message"}}`, never a JSON-RPC envelope, with a stable code.

/** Every code a route's error body may carry, with its meaning (docs/harness.md lists them, checked by a test). */
export const ROUTE_ERROR_CODES = {
  unauthorized: "No bearer token, or one that no surface of this run has.",
  wrong_surface: "A surface's token, but the route needs another's: every /harness route needs the default surface's.",
  invalid_body: "The body is not JSON, or not the shape the route takes; the message shows a correct one.",
  no_space: "A question needs a space, and neither the body nor the run config names one.",
  bad_host: "The Host header is not a host name or address with an optional port.",
  forbidden_host: "The Host header is not a loopback name (against DNS rebinding); --allow-remote lifts this.",
  forbidden_origin: "The Origin header is not a loopback origin.",
  body_too_large: "The body is larger than 4 MiB.",
  not_found: "No such route in this run (a route exists only when the run has its resource).",
  internal_error: "A sidecar bug; the request may be retried.",
  page_secret_required: "An operator page route without the page's secret (no MCP token opens them).",
  ticket_spent: "The page link's ticket was already used, or belongs to another run.",
  not_same_origin: "The operator page takes answers only as JSON from its own origin.",
  card_not_pending: "The card is no longer pending: answered, withdrawn or timed out.",
  answer_does_not_fit: "The answer does not fit the card (an unknown or repeated option, two on a single-select card, nothing chosen, or Skip on a permission).",
  call_not_kept: "The operator page no longer keeps that call (it keeps the newest 200); calls.jsonl in the stateDir has it.",
} as const satisfies Record<string, string>;

export type RouteErrorCode = keyof typeof ROUTE_ERROR_CODES;

export function routeError(status: number, code: RouteErrorCode, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ error: { code, message } }, { status, headers: { "Cache-Control": "no-store", ...headers } });
}

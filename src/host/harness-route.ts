// The shape of an HTTP route a domain offers the harness (or the operator page), handed to the
// HTTP layer as data so that no domain imports it.
import type { Surface } from "../tool/registry.ts";

/** A route the harness calls (diagnostics on write, vibe switch, permission prompts, …). */
export interface HarnessRoute {
  method: "GET" | "POST" | "DELETE";
  /** Path under the app root, e.g. "/harness/after-write". */
  path: string;
  /** Which surfaces' tokens may call it; default just "default". */
  surfaces?: readonly string[];
  /** Routes that authenticate by themselves (e.g. the operator page with its own secret). */
  public?: boolean;
  handle(request: Request, surface: Surface | undefined): Promise<Response> | Response;
}

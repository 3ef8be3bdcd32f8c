// What the front thread knows to answer a plain tools/list without the main thread: each surface's
// token and serialized list, and which session belongs to which surface. The main thread owns all
// of it and sends every change (FrontUpdate); the front only ever answers the case where every
// guard passes, and hands anything else on to the main thread, whose answers and errors stay the
// only ones. Why a front at all: under load a tools/list waited on the main thread behind other
// calls' work and its garbage collections (docs/architecture.md).
import { bearerToken, isLoopbackHost, isLoopbackOrigin, matchToken } from "./guard.ts";
import { toolsListResponse } from "./tools-list-answer.ts";

export interface FrontSurface {
  name: string;
  token: string;
}

/** What the front starts with. */
export interface FrontSetup {
  surfaces: readonly FrontSurface[];
  /** The loopback Host/Origin checks are off (--allow-remote). */
  allowRemote: boolean;
  /** The MCP protocol versions the main thread's SDK accepts (the front does not load the SDK). */
  protocolVersions: readonly string[];
}

/** A change the main thread tells the front about. */
export type FrontUpdate =
  | { type: "list"; surface: string; json: string }
  | { type: "session"; id: string; surface: string }
  | { type: "ended"; id: string };

/** The main thread's side: the setup, and every update from now on (current state first). */
export interface ListFrontFeed {
  setup: FrontSetup;
  watch(listener: (update: FrontUpdate) => void): () => void;
  /** Sessions the front answered for since it last said, so their idle time restarts. */
  touched(ids: readonly string[]): void;
}

/** Largest request body the front reads to see whether it is a tools/list (one is about 60 bytes). */
export const FRONT_BODY_PEEK_BYTES = 64 * 1024;

export class ListFront {
  private readonly lists = new Map<string, string>();
  private readonly sessions = new Map<string, string>();
  private touchedSince = new Set<string>();

  constructor(private readonly setup: FrontSetup) {}

  apply(update: FrontUpdate): void {
    if (update.type === "list") this.lists.set(update.surface, update.json);
    else if (update.type === "session") this.sessions.set(update.id, update.surface);
    else this.sessions.delete(update.id);
  }

  /**
   * The answer to a POST /mcp (its headers and parsed body) that is a plain tools/list on a known
   * session of the token's surface; undefined for anything else.
   */
  answer(headers: Headers, body: unknown): Response | undefined {
    if (!this.setup.allowRemote) {
      if (!isLoopbackHost(headers.get("host") ?? "")) return undefined;
      const origin = headers.get("origin");
      if (origin !== null && !isLoopbackOrigin(origin)) return undefined;
    }
    const sessionId = headers.get("mcp-session-id");
    if (sessionId === null) return undefined;
    const surface = this.sessions.get(sessionId);
    const json = surface === undefined ? undefined : this.lists.get(surface);
    if (json === undefined || matchToken(bearerToken(headers.get("authorization") ?? undefined), this.setup.surfaces)?.name !== surface) return undefined;
    const response = toolsListResponse(body, headers, sessionId, json, this.setup.protocolVersions);
    if (response) this.touchedSince.add(sessionId);
    return response;
  }

  /** Sessions answered for since the last call. */
  takeTouched(): string[] {
    const ids = [...this.touchedSince];
    this.touchedSince = new Set();
    return ids;
  }
}

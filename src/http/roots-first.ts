// `serve --stdio` with no workdir: the MCP handshake is answered before the run exists, so that the
// client can say which folder it has open (`roots/list`). The session is then handed to the run's own
// Server, which is told the same handshake (its answer to it dropped: the client has one already)
// and every message the client sent meanwhile, in order.
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, RequestId } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { StdioTransport } from "./stdio-transport.ts";

/** How long the client has to answer `roots/list`; its requests wait that long at most. */
const ROOTS_ANSWER_TIMEOUT_MS = 10_000;

interface ClientRoot {
  uri: string;
  name?: string;
}

/** What the client said about its roots. */
export type RootsAnswer =
  | { kind: "roots"; roots: ClientRoot[] }
  /** It declared no `roots` capability. */
  | { kind: "undeclared" }
  /** It declared one but `roots/list` failed or went unanswered. */
  | { kind: "failed"; problem: string }
  /** It closed the session before the handshake ended. */
  | { kind: "ended" };

/**
 * The answer to roots/list, read more loosely than the SDK's schema, which refuses the whole list
 * for one root that is not file://: such a root is named in the log rather than in a schema dump.
 */
const RootsListed = z.looseObject({ roots: z.array(z.looseObject({ uri: z.string(), name: z.string().optional() })) });

type Method = { method?: string; id?: RequestId; result?: unknown; error?: unknown };

export class RootsFirstSession {
  /** initialize and notifications/initialized, as the client sent them. */
  private readonly handshake: JSONRPCMessage[] = [];
  /** Everything else the client sent before the run's Server took over. */
  private readonly held: JSONRPCMessage[] = [];
  private initializeId: RequestId | undefined;
  /** Where the client's messages go: the handshake's Server, then the run's. */
  private route: (message: JSONRPCMessage) => void = (message) => this.held.push(message);

  constructor(
    private readonly stdio: StdioTransport,
    /** A later `notifications/roots/list_changed`: one checkout per process, so it is only told. */
    private readonly onRootsChanged: () => void,
  ) {}

  /**
   * Answers the handshake with `server` (built as the run's sessions are, so its answer is theirs),
   * then asks for the roots once the client says it is initialized.
   */
  async askRoots(server: Server): Promise<RootsAnswer> {
    const answer = Promise.withResolvers<RootsAnswer>();
    const front = this.detachable();
    server.oninitialized = () => {
      if (!server.getClientCapabilities()?.roots) return answer.resolve({ kind: "undeclared" });
      server
        .request({ method: "roots/list" }, RootsListed, { timeout: ROOTS_ANSWER_TIMEOUT_MS })
        .then((result) => answer.resolve({ kind: "roots", roots: result.roots }))
        .catch((error: Error) => answer.resolve({ kind: "failed", problem: error.message }));
    };
    this.route = (message) => {
      const m = message as Method;
      if (m.method === "initialize" || m.method === "notifications/initialized") {
        if (m.method === "initialize") this.initializeId = m.id;
        this.handshake.push(message);
        front.onmessage?.(message);
      } else if (this.initializeId === undefined || m.method === undefined || m.method === "ping") {
        // Before initialize (a probe such as Claude Code's server/discover, which the run's Server
        // would refuse alike), the answer to roots/list, and ping: answered now, not held.
        front.onmessage?.(message);
      } else this.held.push(message);
    };
    this.stdio.onmessage = (message) => this.take(message);
    await server.connect(front);
    await this.stdio.start();
    void this.stdio.done.then(() => answer.resolve({ kind: "ended" }));
    const result = await answer.promise;
    this.route = (message) => this.held.push(message);
    await server.close();
    return result;
  }

  /** The session for the run's Server: the handshake and the held messages first, then the live ones. */
  get transport(): Transport {
    const stdio = this.stdio;
    let answeredInitialize = false;
    const session: Transport = {
      start: async () => {
        stdio.onclose = () => session.onclose?.();
        // After connect() returns: the session's listeners are in place by then (http/surface-server.ts).
        setTimeout(() => {
          for (const message of this.handshake) session.onmessage?.(message);
          while (this.held.length > 0) session.onmessage?.(this.held.shift()!);
          this.route = (message) => session.onmessage?.(message);
        }, 0);
      },
      send: (message) => {
        const answer = message as Method;
        if (!answeredInitialize && answer.id === this.initializeId && answer.method === undefined) {
          answeredInitialize = true; // answered already, by the handshake's Server
          return Promise.resolve();
        }
        return stdio.send(message);
      },
      close: () => stdio.close(),
    };
    return session;
  }

  private take(message: JSONRPCMessage): void {
    if ((message as Method).method === "notifications/roots/list_changed") this.onRootsChanged();
    else this.route(message);
  }

  /** The handshake Server's transport: it sends on stdio, and closing it leaves stdio open. */
  private detachable(): Transport {
    const front: Transport = {
      start: async () => {},
      send: (message) => this.stdio.send(message),
      close: async () => front.onclose?.(),
    };
    return front;
  }
}

// A client of the V8 inspector (Chrome DevTools Protocol) over the WebSocket `node --inspect` opens.
import type { ProtocolMapping } from "devtools-protocol/types/protocol-mapping";

/** Node's own inspector domain (not in Chrome's protocol): the worker threads a program starts. */
interface NodeWorkerCommands {
  "NodeWorker.enable": { paramsType: [{ waitForDebuggerOnStart: boolean }]; returnType: Record<string, never> };
  "NodeWorker.detach": { paramsType: [{ sessionId: string }]; returnType: Record<string, never> };
  "NodeWorker.sendMessageToWorker": { paramsType: [{ sessionId: string; message: string }]; returnType: Record<string, never> };
}
interface NodeWorkerEvents {
  "NodeWorker.attachedToWorker": [{ sessionId: string; workerInfo: { workerId: string; type: string; title: string; url: string } }];
}

type Commands = ProtocolMapping.Commands & NodeWorkerCommands;
type Events = ProtocolMapping.Events & NodeWorkerEvents;
type Params<M extends keyof Commands> = Commands[M]["paramsType"] extends [] ? undefined : Commands[M]["paramsType"][0];

/** How long one inspector command may take: V8 answers in milliseconds unless the program is stuck in native code. */
const CDP_COMMAND_TIMEOUT_MS = 15_000;
/** How long opening the inspector's WebSocket may take. */
const CDP_CONNECT_TIMEOUT_MS = 10_000;

class CdpError extends Error {
  constructor(
    readonly method: string,
    message: string,
  ) {
    super(message);
    this.name = "CdpError";
  }
}

interface Pending {
  method: string;
  resolve(result: unknown): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

export class CdpClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly handlers = new Map<string, Set<(params: never) => void>>();
  private closedReason: string | undefined;
  private readonly closeListeners: ((reason: string) => void)[] = [];

  private constructor(private readonly socket: WebSocket) {
    socket.onmessage = (message) => this.receive(String(message.data));
    socket.onclose = () => this.closed("the inspector closed its connection");
    socket.onerror = () => this.closed("the inspector connection failed");
  }

  /** Opens the inspector's WebSocket (the runtime's global WebSocket: Bun, Deno and Node 22+ have one). */
  static connect(url: string): Promise<CdpClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url);
      const timer = setTimeout(() => {
        socket.close();
        reject(new Error(`The inspector at ${url} did not accept a connection within ${CDP_CONNECT_TIMEOUT_MS} ms.`));
      }, CDP_CONNECT_TIMEOUT_MS);
      socket.onopen = () => {
        clearTimeout(timer);
        resolve(new CdpClient(socket));
      };
      socket.onerror = () => {
        clearTimeout(timer);
        reject(new Error(`Cannot connect to the inspector at ${url}.`));
      };
    });
  }

  get closedWhy(): string | undefined {
    return this.closedReason;
  }

  send<M extends keyof Commands>(method: M, ...params: Params<M> extends undefined ? [] : [Params<M>]): Promise<Commands[M]["returnType"]> {
    if (this.closedReason) return Promise.reject(new CdpError(method, `Cannot send ${method}: ${this.closedReason}.`));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new CdpError(method, `The inspector did not answer ${method} within ${CDP_COMMAND_TIMEOUT_MS} ms.`));
      }, CDP_COMMAND_TIMEOUT_MS);
      this.pending.set(id, { method, resolve: resolve as (result: unknown) => void, reject, timer });
      this.socket.send(JSON.stringify({ id, method, params: params[0] ?? {} }));
    });
  }

  on<E extends keyof Events>(event: E, handler: (params: Events[E][0]) => void): void {
    let set = this.handlers.get(event);
    if (!set) this.handlers.set(event, (set = new Set()));
    set.add(handler as (params: never) => void);
  }

  onClose(listener: (reason: string) => void): void {
    if (this.closedReason) listener(this.closedReason);
    else this.closeListeners.push(listener);
  }

  close(): void {
    this.closed("the debug session closed the inspector connection");
    this.socket.close();
  }

  private receive(text: string): void {
    let message: { id?: number; method?: string; params?: unknown; result?: unknown; error?: { message: string } };
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (message.id !== undefined) {
      const pending = this.pending.get(message.id);
      if (!pending) return;
      this.pending.delete(message.id);
      clearTimeout(pending.timer);
      if (message.error) pending.reject(new CdpError(pending.method, message.error.message));
      else pending.resolve(message.result);
    } else if (message.method) {
      for (const handler of this.handlers.get(message.method) ?? []) handler(message.params as never);
    }
  }

  private closed(reason: string): void {
    if (this.closedReason) return;
    this.closedReason = reason;
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.reject(new CdpError(pending.method, `${pending.method} was not answered: ${reason}.`));
      this.pending.delete(id);
    }
    for (const listener of this.closeListeners.splice(0)) listener(reason);
  }
}

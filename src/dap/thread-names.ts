// The debuggee's thread names, kept between stops: a `threads` request costs debugpy tens of ms.
import type { DebugProtocol } from "@vscode/debugprotocol";
import { ToolFailure } from "../answer/failure.ts";
import type { DapConnection } from "./connection.ts";

export class ThreadNames {
  private names = new Map<number, string>();

  constructor(private readonly connection: DapConnection) {}

  /** The adapter's current thread list; also refreshes the names reports use. */
  async list(): Promise<DebugProtocol.Thread[]> {
    const body = await this.connection.request<DebugProtocol.ThreadsResponse>("threads").catch(() => undefined);
    const threads = body?.threads ?? [];
    this.names = new Map(threads.map((thread) => [thread.id, thread.name]));
    return threads;
  }

  /** A thread's name, asking the adapter only for a thread not seen since the last thread event. */
  async name(id: number): Promise<string | undefined> {
    if (!this.names.has(id)) await this.list();
    return this.names.get(id);
  }

  /** The first thread the adapter lists, for a request that needs one when no stop named it. */
  async any(): Promise<number> {
    const first = (await this.list())[0];
    if (!first) throw new ToolFailure("The debuggee reports no threads; it may be exiting. Call status.");
    return first.id;
  }

  /** A thread started or exited: the next report asks again. */
  forget(): void {
    this.names.clear();
  }
}

// How `sidecar console` gets a fresh one-time link to a running sidecar's console: a Unix socket in
// the user's private runs folder (platform/own-runs.ts). Never over MCP or HTTP: whoever can reach
// the link can answer the agent's questions, so only the OS user running the sidecar may mint one.
import { chmodSync, rmSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { ensureOwnRunsFolder, runSocket } from "../platform/own-runs.ts";

/** What a run tells about itself, with or without a link. */
export interface RunFacts {
  pid: number;
  workdir: string;
  /** ISO time the run started. */
  since: string;
  /** A fresh one-time link to its console, when one was asked for. */
  page?: string;
}

/** The one line a client sends: "facts" (which run is this?) or "link" (mint one). */
export type ChannelAsk = "facts" | "link";

/** A request longer than this is not one of ours. */
const MAX_ASK_BYTES = 16;

interface LinkChannel {
  path: string;
  close(): Promise<void>;
}

/** Serves this run's facts and fresh links on `<runs folder>/<pid>.sock` until closed. */
export async function openLinkChannel(folder: string, facts: Omit<RunFacts, "page">, mintLink: () => string): Promise<LinkChannel> {
  const path = runSocket(ensureOwnRunsFolder(folder), facts.pid);
  rmSync(path, { force: true }); // a socket left by an earlier process with this pid, killed before it could remove it
  const server = createServer((socket) => answer(socket, facts, mintLink));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(path, () => resolve());
  });
  chmodSync(path, 0o600);
  return { path, close: () => closeServer(server, path) };
}

function answer(socket: Socket, facts: Omit<RunFacts, "page">, mintLink: () => string): void {
  let asked = "";
  let answered = false;
  socket.setEncoding("utf8");
  socket.on("error", () => socket.destroy());
  socket.on("data", (chunk: string) => {
    if (answered) return;
    asked += chunk;
    const newline = asked.indexOf("\n");
    if (newline < 0 && asked.length <= MAX_ASK_BYTES) return;
    answered = true;
    const ask = asked.slice(0, Math.max(newline, 0)).trim();
    const reply: RunFacts = ask === "link" ? { ...facts, page: mintLink() } : { ...facts };
    socket.end(ask === "link" || ask === "facts" ? `${JSON.stringify(reply)}\n` : "");
  });
}

async function closeServer(server: Server, path: string): Promise<void> {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(path, { force: true });
}

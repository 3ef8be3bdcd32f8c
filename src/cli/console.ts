// `sidecar console [--pid N]`: a fresh one-time link to the console of a sidecar this OS user runs,
// asked for through the user's private runs folder (console/link-channel.ts), never over MCP.
import { existsSync, readdirSync, rmSync } from "node:fs";
import { connect } from "node:net";
import type { ChannelAsk, RunFacts } from "../console/link-channel.ts";
import { notPrivate, ownRunsFolder, runSocket } from "../platform/own-runs.ts";
import { UsageError, type CliFlags } from "./args.ts";

/** A run that does not answer within this is treated as gone. */
const RUN_ANSWER_TIMEOUT_MS = 5_000;

export async function consoleCommand(flags: CliFlags): Promise<number> {
  const pid = flags.pid === undefined ? undefined : Number(flags.pid);
  if (pid !== undefined && !(Number.isInteger(pid) && pid > 0)) throw new UsageError(`--pid takes a process id (a positive whole number), not ${JSON.stringify(flags.pid)}.`);
  const folder = ownRunsFolder();
  if (!existsSync(folder)) return none(folder);
  const problem = notPrivate(folder);
  if (problem) throw new UsageError(`${problem}, so no link is asked for there; remove it, and the next sidecar makes it again, private to you.`);

  if (pid !== undefined) {
    const run = await ask(runSocket(folder, pid), "link");
    if (!run) throw new UsageError(`No sidecar of yours runs with pid ${pid} (or it did not answer); \`sidecar console\` without --pid lists the ones that do.`);
    return print(run);
  }
  const sockets = readdirSync(folder).filter((name) => /^\d+\.sock$/.test(name));
  const runs = (await Promise.all(sockets.map((name) => ask(`${folder}/${name}`, "facts")))).filter((run) => run !== undefined);
  if (runs.length === 0) return none(folder);
  if (runs.length > 1) {
    const list = runs.map((run) => `  --pid ${run.pid}   ${run.workdir}   (since ${run.since})`).join("\n");
    throw new UsageError(`${runs.length} sidecars of yours are running; name one:\n${list}`);
  }
  const run = await ask(runSocket(folder, runs[0]!.pid), "link");
  if (!run) throw new UsageError(`The sidecar with pid ${runs[0]!.pid} stopped before it gave a link.`);
  return print(run);
}

function print(run: RunFacts): number {
  process.stdout.write(`${run.page}\n`);
  process.stderr.write(`sidecar: the console of pid ${run.pid}, serving ${run.workdir}; the link opens it once, in one browser.\n`);
  return 0;
}

function none(folder: string): number {
  process.stderr.write(`sidecar: no sidecar of yours is running (none answers in ${folder}). A sidecar run as another user, or inside a container, is not reachable from here.\n`);
  return 1;
}

/** The run's answer on its socket; undefined when nobody answers there (its socket is then removed, if the run is gone). */
function ask(socket: string, what: ChannelAsk): Promise<RunFacts | undefined> {
  return new Promise((resolve) => {
    let reply = "";
    const connection = connect(socket);
    const timer = setTimeout(() => connection.destroy(), RUN_ANSWER_TIMEOUT_MS);
    connection.setEncoding("utf8");
    connection.on("connect", () => connection.write(`${what}\n`));
    connection.on("data", (chunk: string) => (reply += chunk));
    connection.on("error", (error: NodeJS.ErrnoException) => {
      // Left by a run that was killed: nothing listens on it any more.
      if (error.code === "ECONNREFUSED") rmSync(socket, { force: true });
    });
    connection.on("close", () => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(reply) as RunFacts);
      } catch {
        resolve(undefined);
      }
    });
  });
}

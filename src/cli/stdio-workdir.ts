// `serve --stdio` with neither --workdir nor a config: the checkout is the client's first file:// root;
// without one, the current directory, unless that is / or the home folder, where desktop clients
// start their servers (serving it would search the whole disk, or every project at once).
import { fileURLToPath } from "node:url";
import type { RootsAnswer } from "../http/roots-first.ts";
import type { RunLog } from "../log/log.ts";
import { UsageError } from "./args.ts";

export function workdirFromRoots(answer: Exclude<RootsAnswer, { kind: "ended" }>, cwd: string, home: string, log: RunLog): string {
  const named = answer.kind === "roots" ? answer.roots.map((root) => root.uri) : [];
  const folders = answer.kind === "roots" ? answer.roots.filter((root) => root.uri.startsWith("file://")) : [];
  if (folders.length > 0) {
    const workdir = fileURLToPath(folders[0]!.uri);
    const others = named.length > 1 ? `; of its ${named.length} roots (${named.join(", ")}) only the first is served, one checkout per process` : "";
    log.info("run.workdir", `serving ${workdir}, the client's root${others}`, { workdir, roots: named });
    return workdir;
  }
  const why =
    answer.kind === "undeclared"
      ? "the client declared no MCP roots"
      : answer.kind === "failed"
        ? `the client did not list its roots (${answer.problem})`
        : named.length > 0
          ? `none of the client's roots is a file:// folder (${named.join(", ")})`
          : "the client listed no roots";
  if (cwd === "/" || cwd === home) {
    throw new UsageError(`serve --stdio has no checkout to serve: ${why}, and it was started in ${cwd === "/" ? "/" : "the home folder"}, which is not served whole; pass the checkout with --workdir.`);
  }
  log.info("run.workdir", `serving the current directory ${cwd}: ${why}`, { workdir: cwd, roots: named });
  return cwd;
}

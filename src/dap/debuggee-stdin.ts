// What a launched program reads as stdin: given text, a workspace file, or nothing (end of input).
import { randomBytes } from "node:crypto";
import { rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ToolFailure } from "../answer/failure.ts";
import { resolveInWorkdir } from "../workspace/paths.ts";
import { shownPath } from "../workspace/shown-path.ts";
import type { AdapterEntry } from "./catalog.ts";

export type StdinChoice = { text: string } | { file: string };

interface DebuggeeStdin {
  /** The file the program reads; /dev/null when nothing was given, so a read gets end of input. */
  path: string;
  /** Files to remove when the session ends. */
  scratch: string[];
  remove(): void;
}

let stdinFiles = 0;

export function debuggeeStdin(workdir: string, adapter: AdapterEntry, choice: StdinChoice | undefined): DebuggeeStdin {
  if (choice && adapter.id === "dart") {
    throw new ToolFailure("The dart adapter cannot feed a program's stdin; read the input from a file in the program instead.", { code: "unsupported" });
  }
  if (!choice) return { path: "/dev/null", scratch: [], remove: () => {} };
  if ("file" in choice) {
    const path = resolveInWorkdir(workdir, choice.file);
    let regular = false;
    try {
      regular = statSync(path).isFile();
    } catch {
      throw new ToolFailure(`stdin_file ${shownPath(choice.file)} does not exist in the workspace; pass a path relative to the workspace root.`, { code: "file_not_found" });
    }
    // A FIFO would block whoever opens it; a device could never end.
    if (!regular) throw new ToolFailure(`stdin_file ${shownPath(choice.file)} is not a regular file; pass a file whose content the program should read.`, { code: "not_a_regular_file" });
    return { path, scratch: [], remove: () => {} };
  }
  // A random name, created exclusively: the shared temp folder is every local user's, and a name
  // they can guess could be a link planted to a file of ours (or a file of theirs, to read the text).
  const path = join(tmpdir(), `sidecar-debug-stdin-${process.pid}-${++stdinFiles}-${randomBytes(8).toString("hex")}`);
  writeFileSync(path, choice.text, { mode: 0o600, flag: "wx" });
  return { path, scratch: [path], remove: () => rmSync(path, { force: true }) };
}

// A python3 first on PATH (outside the workdir, whose PATH entries an untrusted run skips) that
// records each start, then runs the real one: the debugger's background probe runs it, so a test
// can tell whether and when that probe started. PATH is restored when it is disposed.
import { existsSync } from "node:fs";
import { tempDir } from "./temp-dir.ts";

export interface RecordingPython extends AsyncDisposable {
  /** Whether anything has started this python3 yet. */
  started(): boolean;
}

export async function recordingPython(): Promise<RecordingPython> {
  const tools = await tempDir();
  const marker = `${tools.path}/started`;
  await tools.write({ "bin/python3": `#!/bin/sh\necho x >> ${marker}\nexec /usr/bin/python3 "$@"\n` });
  await Bun.$`chmod +x ${tools.path}/bin/python3`;
  const saved = process.env.PATH;
  process.env.PATH = `${tools.path}/bin:${saved}`;
  return {
    started: () => existsSync(marker),
    async [Symbol.asyncDispose]() {
      process.env.PATH = saved;
      await tools[Symbol.asyncDispose]();
    },
  };
}

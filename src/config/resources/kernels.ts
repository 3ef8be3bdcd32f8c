// Settings of the kernel factory resource (eval).
import * as v from "valibot";
import { configObject, nonEmptyString } from "./shared.ts";

export const DEFAULT_INACTIVITY_SECONDS = 300;

const enclosureSettings = configObject({
  /**
   * The command prefix that executes a command inside the conversation's enclosure, e.g.
   * ["docker", "exec", "-i", "conv-42"]. The kernel's own argv is appended to it.
   */
  prefix: v.pipe(
    v.array(nonEmptyString("a command word"), "expected the exec prefix as a list of words"),
    v.minLength(1, "expected at least one word in the exec prefix, e.g. [\"docker\", \"exec\", \"-i\", \"NAME\"]"),
  ),
  /** Shown in messages ("the enclosure conv-42 is not running"); default the prefix itself. */
  name: v.optional(nonEmptyString("an enclosure name")),
});

export const kernelSettings = configObject({
  /**
   * The Python interpreter: a command name or a path (relative paths from the workdir). Default:
   * the workdir's .venv/bin/python or venv/bin/python, else `python3`.
   */
  python: v.optional(nonEmptyString("a Python interpreter path or command")),
  /** The cell's inactivity budget in seconds: any output resets it; bridged tool calls suspend it. */
  inactivitySeconds: v.optional(
    v.pipe(
      v.number("expected the inactivity budget in seconds as a number"),
      v.minValue(0.1, "expected an inactivity budget of at least 0.1 s"),
      v.maxValue(86_400, "expected an inactivity budget of at most a day (86400 s)"),
    ),
  ),
  /** Run kernels inside the conversation's enclosure through this exec prefix (never on the host then). */
  enclosure: v.optional(enclosureSettings),
});
export type KernelSettings = v.InferOutput<typeof kernelSettings>;

// The eval tool: a cell in the run's persistent Python or JavaScript kernel.
import * as v from "valibot";
import { defineTool } from "../tool/define.ts";
import type { ErrorCode } from "../answer/error-codes.ts";
import type { KernelFactory } from "../kernel/factory.ts";
import { renderCell, type CellStatus } from "./eval-render.ts";
import description from "./eval.txt" with { type: "text" };

/** The code of a cell that did not end ok: it raised, or it was stopped before it ended. */
const CELL_CODES: Record<Exclude<CellStatus, "ok">, ErrorCode> = {
  error: "cell_error",
  interrupted: "cell_interrupted",
  timed_out: "cell_interrupted",
  died: "cell_interrupted",
  cancelled: "cancelled",
};

/** The label asks for 5-10 words; a little either side is accepted rather than bounced. */
const DESCRIPTION_WORDS = { min: 3, max: 15 };
/** That count as a pattern, so the input schema shows clients the bound the tool enforces. */
const DESCRIPTION_PATTERN = new RegExp(`^\\s*\\S+(?:\\s+\\S+){${DESCRIPTION_WORDS.min - 1},${DESCRIPTION_WORDS.max - 1}}\\s*$`);

const input = v.strictObject({
  code: v.pipe(
    v.string("expected the cell's code as a string"),
    v.maxLength(1_000_000, "expected a cell under 1 MB of code"),
    v.description("The cell: Python (with IPython idioms such as %pip and !cmd) or JavaScript/TypeScript source, under 1 MB."),
  ),
  description: v.pipe(
    v.string("expected a short description (5-10 words) of what the cell does"),
    v.trim(),
    v.regex(DESCRIPTION_PATTERN, "expected 5-10 words (3 to 15 accepted) saying what the cell does, e.g. \"load sales.csv and show its columns\""),
    v.description('5-10 words saying what the cell does, shown as its label, e.g. "load sales.csv and show its columns".'),
  ),
  language: v.optional(
    v.pipe(v.picklist(["python", "javascript"], 'expected "python" or "javascript"'), v.description("The kernel to run the cell in; javascript runs TypeScript too.")),
    "python",
  ),
  reset: v.optional(v.pipe(v.boolean("expected reset as true or false"), v.description("true discards the kernel and all its state before the cell runs.")), false),
});

const output = v.object({
  label: v.string(),
  language: v.picklist(["python", "javascript"]),
  status: v.picklist(["ok", "error", "interrupted", "timed_out", "cancelled", "died"]),
  stopped: v.optional(v.picklist(["interrupted", "killed"])),
  execution_count: v.number(),
  elapsed_ms: v.number(),
  interpreter: v.string(),
  where: v.string(),
  images: v.number(),
  cut_bytes: v.number(),
  notes: v.array(v.string()),
});

/** How often a running cell reports progress. */
const CELL_PROGRESS_INTERVAL_MS = 5_000;

export function evalTool(kernels: KernelFactory) {
  return defineTool({
    name: "eval",
    tier: "exec",
    title: "Run a Python or JavaScript cell",
    description,
    input,
    output,
    // MCP clients cancel a call after 60 s without progress by default, far inside the cell's own
    // inactivity budget (300 s): a running cell reports every CELL_PROGRESS_INTERVAL_MS.
    heartbeatMs: CELL_PROGRESS_INTERVAL_MS,
    async run(args, ctx) {
      // What the heartbeat says follows the cell: a cell waiting behind another has not run yet.
      const called = Date.now();
      let phase: { name: "waiting" | "starting" | "running"; since: number } = { name: "waiting", since: called };
      const seconds = (since: number) => Math.round((Date.now() - since) / 1000);
      ctx.describeWork(() =>
        phase.name === "running"
          ? `the ${args.language} cell has run for ${seconds(phase.since)} s`
          : phase.name === "starting"
            ? `the ${args.language} kernel is starting for this cell (${seconds(phase.since)} s)`
            : `the ${args.language} cell is waiting for its turn (${seconds(called)} s): another cell of this kernel is running`,
      );
      let waits = 0;
      const report = await kernels.execute({
        language: args.language,
        code: args.code,
        reset: args.reset,
        signal: ctx.signal,
        onWait: (message) => ctx.progress({ progress: ++waits, message }),
        onPhase: (name) => (phase = { name, since: Date.now() }),
      });
      const cell = renderCell(report, args.description);
      return {
        text: cell.text,
        images: cell.images,
        isError: cell.status !== "ok",
        ...(cell.status !== "ok" ? { errorCode: CELL_CODES[cell.status] } : {}),
        data: {
          label: args.description,
          language: args.language,
          status: cell.status,
          ...(cell.stopped ? { stopped: cell.stopped } : {}),
          execution_count: report.outcome.count,
          elapsed_ms: Math.round(report.outcome.elapsedMs),
          interpreter: report.interpreter,
          where: report.where,
          images: cell.images.length,
          cut_bytes: cell.cutBytes,
          notes: report.notes,
        },
      };
    },
  });
}

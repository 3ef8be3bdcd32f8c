// The debug tool's input: one object for every operation, with what each operation needs checked once.
import * as v from "valibot";
import { ADAPTER_IDS } from "../dap/catalog.ts";

export const OPERATIONS = [
  "adapters",
  "status",
  "breakpoints",
  "function_breakpoints",
  "exceptions",
  "launch",
  "restart",
  "attach",
  "continue",
  "pause",
  "step_over",
  "step_in",
  "step_out",
  "run_to",
  "threads",
  "stack",
  "scopes",
  "variables",
  "evaluate",
  "set_variable",
  "output",
  "terminate",
] as const;
export type Operation = (typeof OPERATIONS)[number];

const id = (what: string) => v.pipe(v.number(`expected ${what} as a number`), v.integer(`expected ${what} as an integer`), v.minValue(0, `expected ${what} ≥ 0`));
const text = (what: string) => v.pipe(v.string(`expected ${what} as a string`), v.minLength(1, `expected a non-empty ${what}`));
const lineNumber = v.pipe(v.number("expected a line number"), v.integer("expected whole line numbers"), v.minValue(1, "lines are 1-based"));

/** Metadata only: what a client that shows the schema (or a model reading only it) learns of an argument. */
const said = <T extends v.GenericSchema>(schema: T, description: string) => v.pipe(schema, v.description(description));

const breakpointOptions = {
  condition: v.optional(said(text("condition"), "A breakpoint's condition, an expression in the program's language: it stops only when true.")),
  hit_condition: v.optional(said(text("hit_condition"), "A breakpoint's hit condition, e.g. \"5\" or \">= 5\" (the adapter's syntax): it stops only on those hits.")),
  log_message: v.optional(said(text("log_message"), "Makes it a logpoint: this message (with {expression} parts) goes to the program's output instead of stopping.")),
};

const lineEntry = v.union(
  [lineNumber, v.strictObject({ line: said(lineNumber, "The 1-based line of file to stop at."), ...breakpointOptions })],
  'expected each line as a number or {line, condition?, hit_condition?, log_message?}',
);
const functionEntry = v.union(
  [text("function name"), v.strictObject({ name: said(text("function name"), "The function's name as the adapter knows it (Go: main.spin)."), condition: breakpointOptions.condition, hit_condition: breakpointOptions.hit_condition })],
  "expected each function as a name or {name, condition?, hit_condition?}",
);

/** Arguments each operation cannot do without. */
const REQUIRED: Partial<Record<Operation, readonly string[]>> = {
  breakpoints: ["file", "lines"],
  function_breakpoints: ["functions"],
  exceptions: ["filters"],
  launch: ["program"],
  attach: ["port"],
  run_to: ["file", "line"],
  scopes: ["frame_id"],
  variables: ["reference"],
  evaluate: ["expression"],
  set_variable: ["name", "value"],
};

export const debugInput = v.pipe(
  v.strictObject({
    operation: said(
      v.picklist(OPERATIONS, `expected operation as one of ${OPERATIONS.join(", ")}`),
      "What to do; the tool's description gives the usual flow and the arguments each operation takes.",
    ),
    file: v.optional(said(text("file path"), "With breakpoints or run_to: the source file, workspace-relative.")),
    lines: v.optional(
      said(
        v.array(lineEntry, "expected lines as a list"),
        "With breakpoints: the 1-based lines of file to stop at (a number, or {line, condition?, hit_condition?, log_message?}), replacing its earlier ones; [] clears them.",
      ),
    ),
    line: v.optional(said(lineNumber, "With run_to: the 1-based line of file to run to (a temporary breakpoint).")),
    ...breakpointOptions,
    functions: v.optional(
      said(
        v.array(functionEntry, "expected functions as a list"),
        "With function_breakpoints: the functions to stop in (a name, or {name, condition?, hit_condition?}), replacing the earlier ones; [] clears them.",
      ),
    ),
    filters: v.optional(
      said(
        v.array(v.string("expected each filter as a string"), "expected filters as a list of exception filter names"),
        "With exceptions: the adapter's exception filters to stop on, by id or label (raised, uncaught, user_uncaught…); status lists them.",
      ),
    ),
    program: v.optional(
      said(text("program path"), "With launch: what to debug, workspace-relative: a .py file, a Go package directory or .go file, or a compiled binary."),
    ),
    args: v.optional(
      said(
        v.array(v.string("expected each program argument as a string"), "expected args as a list of strings"),
        "With launch: the program's command-line arguments, passed with no shell (use stdin or stdin_file for input).",
      ),
    ),
    child_processes: v.optional(
      said(
        v.boolean("expected child_processes as true or false"),
        "With launch (debugpy only): also debug the Python processes the program starts; their stops are reported with the process's pid. Off by default.",
      ),
    ),
    stdin: v.optional(said(v.string("expected stdin as the text the program reads"), "With launch: the text the program reads on its standard input.")),
    stdin_file: v.optional(said(text("stdin_file path"), "With launch: a workspace file the program reads as its standard input.")),
    adapter: v.optional(
      said(
        v.picklist(ADAPTER_IDS, `expected adapter as one of ${ADAPTER_IDS.join(", ")}`),
        "With launch or attach: the debug adapter to use; by default launch picks it from the program, attach the only usable one.",
      ),
    ),
    port: v.optional(
      said(
        v.pipe(v.number("expected port as a number"), v.integer(), v.minValue(1, "expected a port 1-65535"), v.maxValue(65535, "expected a port 1-65535")),
        "With attach: the local port on which the debuggee already listens (the tool's description gives each adapter's command).",
      ),
    ),
    pid: v.optional(
      said(
        id("pid"),
        "With child_processes: the process a call acts on (a pid from status's processes or a stop report); it stays the one calls act on until another stops or is named. Default: the process that stopped last.",
      ),
    ),
    thread_id: v.optional(
      said(id("thread_id"), "With continue, pause, step_over, step_in, step_out, stack: the thread (from threads or a stop report); default the stopped one."),
    ),
    frame_id: v.optional(
      said(
        id("frame_id"),
        "With scopes (needed), evaluate or set_variable: a frame id from stack, valid until the next continue or step; default the frame the last report showed.",
      ),
    ),
    reference: v.optional(
      said(id("reference"), "With variables (needed) or set_variable: a variables reference from scopes or variables, valid until the next continue or step."),
    ),
    offset: v.optional(said(id("offset"), "With variables: the first child to list (pages of 50); with output: the character offset to read from.")),
    expression: v.optional(said(text("expression"), "With evaluate: an expression in the program's language, evaluated in frame_id's frame.")),
    name: v.optional(said(text("variable name"), "With set_variable: the variable to set, as scopes or variables list it.")),
    value: v.optional(said(text("value expression"), "With set_variable: the new value, an expression in the program's language.")),
  }),
  v.check(
    (args) => missingFor(args).length === 0,
    (issue) => {
      const args = issue.input as { operation: Operation };
      return `${args.operation} needs ${missingFor(args).join(" and ")}`;
    },
  ),
  v.check((args) => !(args.stdin !== undefined && args.stdin_file !== undefined), "pass stdin (the text) or stdin_file (a workspace file), not both"),
);

export type DebugArgs = v.InferOutput<typeof debugInput>;

function missingFor(args: Record<string, unknown> & { operation: Operation }): string[] {
  return (REQUIRED[args.operation] ?? []).filter((key) => args[key] === undefined);
}

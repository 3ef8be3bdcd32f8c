// The debug tool's input: one object per operation, told apart by `operation`, each with what it takes and needs.
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

/**
 * Each argument once, with what it does for the operations that take it: the same schema object
 * serves every operation that takes it, so the listed schema can show one property per name.
 */
const field = {
  file: said(text("file path"), "With breakpoints or run_to (needed): the source file, workspace-relative."),
  lines: said(
    v.array(lineEntry, "expected lines as a list"),
    "With breakpoints (needed): the 1-based lines of file to stop at (a number, or {line, condition?, hit_condition?, log_message?}), replacing its earlier ones; [] clears them.",
  ),
  line: said(lineNumber, "With run_to (needed): the 1-based line of file to run to (a temporary breakpoint)."),
  functions: said(
    v.array(functionEntry, "expected functions as a list"),
    "With function_breakpoints (needed): the functions to stop in (a name, or {name, condition?, hit_condition?}), replacing the earlier ones; [] clears them.",
  ),
  filters: said(
    v.array(v.string("expected each filter as a string"), "expected filters as a list of exception filter names"),
    "With exceptions (needed): the adapter's exception filters to stop on, by id or label (raised, uncaught, user_uncaught…); status lists them.",
  ),
  program: said(text("program path"), "With launch (needed): what to debug, workspace-relative: a .py file, a Go package directory or .go file, or a compiled binary."),
  args: said(
    v.array(v.string("expected each program argument as a string"), "expected args as a list of strings"),
    "With launch: the program's command-line arguments, passed with no shell (use stdin or stdin_file for input).",
  ),
  child_processes: said(
    v.boolean("expected child_processes as true or false"),
    "With launch (debugpy only): also debug the Python processes the program starts; their stops are reported with the process's pid. Off by default.",
  ),
  stdin: said(v.string("expected stdin as the text the program reads"), "With launch: the text the program reads on its standard input."),
  env: said(
    v.record(
      // Not from a digit, as a shell's names: a list (["A=1"]) reaches a record as keys "0", "1"….
      v.pipe(v.string(), v.regex(/^[^=\0\d][^=\0]*$/, 'expected env as {"NAME": "value"}: each name non-empty, not starting with a digit, without = or NUL')),
      v.pipe(v.string("expected each env value as a string"), v.regex(/^[^\0]*$/, "expected env values without NUL characters")),
      "expected env as an object of names to string values",
    ),
    'With launch: environment variables for the program, e.g. {"LOG_LEVEL": "debug"}, set over the environment it inherits from the sidecar (a name given here wins). Kept for restart.',
  ),
  stdin_file: said(text("stdin_file path"), "With launch: a workspace file the program reads as its standard input."),
  adapter: said(
    v.picklist(ADAPTER_IDS, `expected adapter as one of ${ADAPTER_IDS.join(", ")}`),
    "With launch or attach: the debug adapter to use; by default launch picks it from the program, attach the only usable one.",
  ),
  port: said(
    v.pipe(v.number("expected port as a number"), v.integer(), v.minValue(1, "expected a port 1-65535"), v.maxValue(65535, "expected a port 1-65535")),
    "With attach (needed): the local port on which the debuggee already listens (the tool's description gives each adapter's command).",
  ),
  pid: said(
    id("pid"),
    "With child_processes, for the operations on a session: the process a call acts on (a pid from status's processes or a stop report); it stays the one calls act on until another stops or is named. Default: the process that stopped last.",
  ),
  thread_id: said(id("thread_id"), "With continue, pause, step_over, step_in, step_out, stack: the thread (from threads or a stop report); default the stopped one."),
  frame_id: said(
    id("frame_id"),
    "With scopes (needed), evaluate or set_variable: a frame id from stack, valid until the next continue or step; default the frame the last report showed.",
  ),
  reference: said(id("reference"), "With variables (needed) or set_variable: a variables reference from scopes or variables, valid until the next continue or step."),
  offset: said(id("offset"), "With variables: the first child to list (pages of 50); with output: the character offset to read from."),
  expression: said(text("expression"), "With evaluate (needed): an expression in the program's language, evaluated in frame_id's frame."),
  name: said(text("variable name"), "With set_variable (needed): the variable to set, as scopes or variables list it."),
  value: said(text("value expression"), "With set_variable (needed): the new value, an expression in the program's language."),
};

const optional = <K extends keyof typeof field>(...keys: K[]) => Object.fromEntries(keys.map((key) => [key, v.optional(field[key])])) as { [P in K]: v.OptionalSchema<(typeof field)[P], undefined> };
const needed = <K extends keyof typeof field>(...keys: K[]) => Object.fromEntries(keys.map((key) => [key, field[key]])) as { [P in K]: (typeof field)[P] };
const operation = <O extends Operation, E extends v.ObjectEntries>(name: O, entries: E) =>
  v.strictObject({ operation: said(v.literal(name), "What to do; the schema's description lists what each operation takes, the tool's the usual flow."), ...entries });

/** The operations that act on a session's process (and so take pid). */
const onSession = optional("pid");
const steering = { ...optional("thread_id"), ...onSession };

/**
 * One object per operation, told apart by `operation`: what each takes is typed, and what it needs
 * is required. The listed JSON Schema folds them into one object (tool/json-schema.ts).
 */
export const debugInput = v.variant(
  "operation",
  [
    operation("adapters", {}),
    operation("status", onSession),
    operation("breakpoints", { ...needed("file", "lines"), ...breakpointOptions }),
    operation("function_breakpoints", needed("functions")),
    operation("exceptions", needed("filters")),
    v.pipe(
      operation("launch", { ...needed("program"), ...optional("args", "env", "child_processes", "stdin", "stdin_file", "adapter") }),
      v.check((args) => !(args.stdin !== undefined && args.stdin_file !== undefined), "pass stdin (the text) or stdin_file (a workspace file), not both"),
    ),
    operation("restart", {}),
    operation("attach", { ...needed("port"), ...optional("adapter") }),
    operation("continue", steering),
    operation("pause", steering),
    operation("step_over", steering),
    operation("step_in", steering),
    operation("step_out", steering),
    operation("run_to", { ...needed("file", "line"), ...onSession }),
    operation("threads", onSession),
    operation("stack", steering),
    operation("scopes", { ...needed("frame_id"), ...onSession }),
    operation("variables", { ...needed("reference"), ...optional("offset"), ...onSession }),
    operation("evaluate", { ...needed("expression"), ...optional("frame_id"), ...onSession }),
    operation("set_variable", { ...needed("name", "value"), ...optional("reference", "frame_id"), ...onSession }),
    operation("output", { ...optional("offset"), ...onSession }),
    operation("terminate", {}),
  ],
  `expected operation as one of ${OPERATIONS.join(", ")}`,
);

export type DebugArgs = v.InferOutput<typeof debugInput>;

// The `lsp` tool: language-server queries by file, line and symbol (read tier).
import * as v from "valibot";
import { ACTIONS, answerLspCall } from "./lsp-actions.ts";
import type { LanguageServices } from "../lsp/service.ts";
import type { ServerSpec } from "../lsp/server-spec.ts";
import { defineTool, type Tool } from "../tool/define.ts";
import { fileArg, lineArg, namePathArg, symbolArg } from "./address-args.ts";
import description from "./lsp.txt" with { type: "text" };

const input = v.strictObject({
  action: v.pipe(v.picklist(ACTIONS, `expected one of ${ACTIONS.join(", ")}`), v.description("What to ask; the tool's description lists the arguments each action takes.")),
  file: v.optional(
    fileArg('Workspace-relative path of the file asked about ("*" with diagnostics: the project checker for every root). With symbols and query: which project\'s server searches; with reload: whose root restarts.'),
  ),
  line: v.optional(lineArg("1-based line of file on which symbol is written (definition, type_definition, implementation, references, calls, hover, body, code_actions); or pass name_path instead.")),
  symbol: v.optional(symbolArg("The identifier as written on line, never a column; name#2 for its second occurrence on that line.")),
  name_path: v.optional(namePathArg),
  depth: v.optional(
    v.pipe(
      v.number("expected 0 or 1"),
      v.integer("expected 0 or 1"),
      v.minValue(0, "expected 0 or 1"),
      v.maxValue(1, "expected 0 or 1: 1 lists the children's signatures"),
      v.description("With body: 1 shows the definition with its children's signatures only (a class without its methods' bodies); 0 (default) the whole text."),
    ),
  ),
  query: v.optional(
    v.pipe(
      v.string("expected a search text"),
      v.minLength(1, "expected a search text, got an empty string"),
      v.description("With symbols: the name (or part of it) to search the workspace's symbols for."),
    ),
  ),
  direction: v.optional(
    v.pipe(
      v.picklist(["incoming", "outgoing"], 'expected "incoming" or "outgoing"'),
      v.description('With calls: "incoming" lists the calls into the function (its callers), "outgoing" the calls it makes.'),
    ),
  ),
  all: v.optional(
    v.pipe(
      v.boolean("expected true or false"),
      v.description("With status: list every server of the catalog, those this checkout does not use included (default: those in one line)."),
    ),
  ),
  offset: v.optional(
    v.pipe(
      v.number("expected a row count"),
      v.integer("expected a whole number"),
      v.minValue(0, "expected 0 or more"),
      v.description("With references (and other paged answers): how many rows to skip; the answer says the offset of the next page."),
    ),
  ),
});

const row = v.record(v.string(), v.unknown());
const output = v.object({
  action: v.string(),
  results: v.optional(v.array(row)),
  hover: v.optional(v.string()),
  status: v.optional(v.string()),
  shown: v.optional(v.number()),
  total: v.optional(v.number()),
  offset: v.optional(v.number()),
  note: v.optional(v.string()),
  path: v.optional(v.string()),
  name_path: v.optional(v.string()),
  kind: v.optional(v.string()),
  start_line: v.optional(v.number()),
  end_line: v.optional(v.number()),
});

export function lspTool(services: LanguageServices): Tool {
  return defineTool({
    name: "lsp",
    tier: "read",
    title: "Language-server queries",
    description: description.replace("{{servers}}", serverList(services.supervisor.catalog)),
    input,
    output,
    async run(args, ctx) {
      // A server missing on first use is installed during the call: each step reaches the client as progress.
      let step = 0;
      const stopReporting = services.supervisor.provisioner.onProgress((message) => ctx.progress({ progress: ++step, message }));
      try {
        return await answerLspCall(services, args, ctx.signal);
      } finally {
        stopReporting();
      }
    },
  });
}

/** The run's catalog as the description names it, so it cannot drift from it: "c (c, cpp), css (css, scss, less), go, …". */
function serverList(catalog: readonly ServerSpec[]): string {
  const named = catalog.map((spec) => (spec.languages.length === 1 && spec.languages[0] === spec.id ? spec.id : `${spec.id} (${spec.languages.join(", ")})`));
  return named.sort().join(", ");
}

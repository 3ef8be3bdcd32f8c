// The `lsp` tool: language-server queries by file, line and symbol (read tier).
import * as v from "valibot";
import { ACTIONS, answerLspCall } from "../lsp/actions.ts";
import type { LanguageServices } from "../lsp/service.ts";
import { defineTool, type Tool } from "../tool/define.ts";
import description from "./lsp.txt" with { type: "text" };

const input = v.strictObject({
  action: v.pipe(v.picklist(ACTIONS, `expected one of ${ACTIONS.join(", ")}`), v.description("What to ask; the tool's description lists the arguments each action takes.")),
  file: v.optional(
    v.pipe(
      v.string("expected a workspace-relative path"),
      v.minLength(1, "expected a path, got an empty string"),
      v.description('Workspace-relative path of the file asked about ("*" with diagnostics: the project checker for every root). With symbols and query: which project\'s server searches; with reload: whose root restarts.'),
    ),
  ),
  line: v.optional(
    v.pipe(
      v.number("expected a 1-based line number"),
      v.integer("expected a whole line number"),
      v.minValue(1, "lines are 1-based"),
      v.description("1-based line of file on which symbol is written (definition, type_definition, implementation, references, hover, code_actions)."),
    ),
  ),
  symbol: v.optional(
    v.pipe(
      v.string("expected the identifier as written on the line"),
      v.minLength(1, "expected an identifier, got an empty string"),
      v.description("The identifier as written on line, never a column; name#2 for its second occurrence on that line."),
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
});

export function lspTool(services: LanguageServices): Tool {
  return defineTool({
    name: "lsp",
    tier: "read",
    title: "Language-server queries",
    description,
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

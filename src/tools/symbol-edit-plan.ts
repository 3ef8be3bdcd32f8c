// Where symbol_edit's text goes in the file: the definition's lines (doc comment included), its body, or beside it.
import { ToolFailure } from "../answer/failure.ts";
import { definitionSpan } from "../lsp/definition-text.ts";
import type { Definition } from "../lsp/name-path.ts";
import type { LanguageParser } from "../syntax/service.ts";
import { definitionBody } from "../syntax/syntax-errors.ts";
import { afterLine, blankLinesBetween, indentUnit, leadOf, lineBreakOf, lineStarts, reindent, type Operation, type TextReplacement } from "./symbol-edit-text.ts";

interface EditRequest {
  operation: Operation;
  text: string;
  /** The file's text, as the server's outline was computed on. */
  original: string;
  path: string;
  definition: Definition;
  /** The definitions beside it (its parent's children, or the file's top level). */
  siblings: readonly Definition[];
  /** The file's grammar, for finding a body; undefined without one. */
  parser: LanguageParser | undefined;
}

/** The one replacement an operation makes, on the original text. */
export function planSymbolEdit(request: EditRequest): TextReplacement {
  const { original, definition, path } = request;
  const lines = original.split("\n");
  const starts = lineStarts(original);
  const eol = lineBreakOf(original);
  const span = definitionSpan(lines, definition, path);
  const unit = indentUnit(lines);
  const base = leadOf(lines[span.start] ?? "");
  const endsWithBreak = span.end + 1 < lines.length;
  const block = () => reindent(request.text, base, unit).join(eol);
  const blank = () => {
    const python = /\.pyi?$/.test(path) && !definition.parent;
    const spans = request.siblings.map((s) => definitionSpan(lines, s, path));
    return eol.repeat(blankLinesBetween(lines, spans, python));
  };
  switch (request.operation) {
    case "replace":
      return { start: starts[span.start]!, end: afterLine(original, starts, span.end), text: block() + (endsWithBreak ? eol : "") };
    case "insert_before":
      return { start: starts[span.start]!, end: starts[span.start]!, text: block() + eol + blank() };
    case "insert_after": {
      const at = afterLine(original, starts, span.end);
      return { start: at, end: at, text: endsWithBreak ? blank() + block() + eol : eol + blank() + block() };
    }
    case "delete": {
      let first = span.start;
      let last = span.end;
      const blankLine = (line: number) => (lines[line] ?? "").trim() === "";
      // The gap the definition leaves joins the ones around it: one gap stays, as between any two
      // definitions; the last definition of a file takes the gap above it along.
      if (lines.slice(span.end + 1).every((l) => l.trim() === "")) while (first > 0 && blankLine(first - 1)) first--;
      else if (span.start === 0 || blankLine(span.start - 1)) while (last + 1 < lines.length - 1 && blankLine(last + 1)) last++;
      return { start: starts[first]!, end: afterLine(original, starts, last), text: "" };
    }
    case "replace_body":
      return replaceBody(request, starts, eol, unit);
  }
}

function replaceBody(request: EditRequest, starts: readonly number[], eol: string, unit: string): TextReplacement {
  const { original, definition, parser } = request;
  if (!parser) throw new ToolFailure(`replace_body needs the file's grammar to find where the body starts, and there is none for ${request.path}. Use replace with the whole definition instead.`, { code: "unsupported" });
  const name = definition.selectionRange.start;
  const body = definitionBody(parser, original, starts[name.line]! + name.character);
  if (!body) {
    throw new ToolFailure(`${definition.segments.join("/")} has no body the grammar knows (a field, a declaration without a block). Use replace with the whole definition instead.`, { code: "unsupported" });
  }
  const lines = original.split("\n");
  const ownLead = leadOf(lines[name.line] ?? "");
  if (body.braced) {
    const inner = reindent(request.text, ownLead + unit, unit).join(eol);
    return { start: body.start, end: body.end, text: `{${eol}${inner}${eol}${ownLead}}` };
  }
  // An indented block (Python): on its own lines it is replaced whole lines at its indentation;
  // one on the signature's line (`def f(): return 1`) moves below it.
  if (body.line === name.line) {
    return { start: body.start, end: body.end, text: eol + reindent(request.text, ownLead + unit, unit).join(eol) };
  }
  return { start: starts[body.line]!, end: body.end, text: reindent(request.text, leadOf(lines[body.line] ?? ""), unit).join(eol) };
}

// The syntax domain's entry: the run's tree-sitter service from the parser resource's settings.
import type { ParserSettings } from "../config/resources/parser.ts";
import type { Connect } from "../host/connect-context.ts";
import { SyntaxService } from "./service.ts";

export const connect: Connect<ParserSettings, SyntaxService> = (settings, ctx) => {
  const syntax = new SyntaxService({
    workdir: ctx.workdir,
    source: ctx.runtime.grammars,
    spawnWorker: ctx.runtime.spawnParseWorker,
    maxFileBytes: settings.maxFileBytes,
    workers: settings.workers,
    cacheChars: settings.cacheMiB !== undefined ? settings.cacheMiB * 1024 * 1024 : undefined,
    warmChars: settings.warmMiB !== undefined ? settings.warmMiB * 1024 * 1024 : undefined,
  });
  ctx.lifecycle.add("syntax", () => syntax.close());
  return syntax;
};

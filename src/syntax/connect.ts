// Builds the run's syntax service from the parser resource's settings and closes it with the run.
import type { ParserSettings } from "../config/resources/parser.ts";
import type { Lifecycle } from "../run/lifecycle.ts";
import type { RuntimePrimitives } from "../runtime/primitives.ts";
import { SyntaxService } from "./service.ts";

export function connectSyntax(workdir: string, settings: ParserSettings, runtime: RuntimePrimitives, lifecycle: Lifecycle): SyntaxService {
  const syntax = new SyntaxService({
    workdir,
    source: runtime.grammars,
    spawnWorker: runtime.spawnParseWorker,
    maxFileBytes: settings.maxFileBytes,
    workers: settings.workers,
    cacheChars: settings.cacheMiB !== undefined ? settings.cacheMiB * 1024 * 1024 : undefined,
  });
  lifecycle.add("syntax", () => syntax.close());
  return syntax;
}

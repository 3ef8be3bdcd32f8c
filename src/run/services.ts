// The live resources of one run, each present only when the harness passed it in.
import type { SyntaxService } from "../syntax/service.ts";

export interface RunServices {
  workdir: string;
  conversation: string | undefined;
  /** The tree-sitter parser resource: search, staged rewrites, the after-write hooks. */
  syntax?: SyntaxService;
}

// The version and commit, stamped in by compile.ts (`dev` when run from source).
import pkg from "../package.json" with { type: "json" };

declare const SIDECAR_COMMIT: string | undefined;

export const VERSION: string = pkg.version;
export const COMMIT: string = typeof SIDECAR_COMMIT === "string" ? SIDECAR_COMMIT : "dev";

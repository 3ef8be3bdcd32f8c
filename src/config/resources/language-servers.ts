// Settings of the language-server supervisor resource (lsp, lsp_rename).
import * as v from "valibot";

export const languageServerSettings = v.strictObject({});
export type LanguageServerSettings = v.InferOutput<typeof languageServerSettings>;

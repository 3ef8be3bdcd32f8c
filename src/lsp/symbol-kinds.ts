// The names of LSP's SymbolKind numbers, as answers show them.
const KINDS = ["", "file", "module", "namespace", "package", "class", "method", "property", "field", "constructor", "enum", "interface", "function", "variable", "constant", "string", "number", "boolean", "array", "object", "key", "null", "enum member", "struct", "event", "operator", "type parameter"];

export function kindName(kind: number): string {
  return KINDS[kind] ?? `kind ${kind}`;
}

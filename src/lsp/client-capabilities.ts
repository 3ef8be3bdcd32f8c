// What the sidecar tells a language server it can do, in \`initialize\`.
import type { ClientCapabilities } from "vscode-languageserver-protocol/node";

export const CLIENT_CAPABILITIES: ClientCapabilities = {
  general: { positionEncodings: ["utf-16"] },
  window: { workDoneProgress: true },
  workspace: {
    workspaceFolders: true,
    configuration: true,
    // A command's edits come back as workspace/applyEdit: captured into code_action's stage, never written (client.ts).
    applyEdit: true,
    didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true },
    symbol: { dynamicRegistration: true },
    workspaceEdit: { documentChanges: true, resourceOperations: ["create", "rename", "delete"] },
    diagnostics: { refreshSupport: false },
  },
  textDocument: {
    synchronization: { dynamicRegistration: true, didSave: true, willSave: false },
    publishDiagnostics: { versionSupport: true, relatedInformation: false },
    diagnostic: { dynamicRegistration: true, relatedDocumentSupport: false },
    hover: { contentFormat: ["markdown", "plaintext"] },
    definition: { linkSupport: true },
    typeDefinition: { linkSupport: true },
    implementation: { linkSupport: true },
    // typescript-language-server offers the call hierarchy only to a client that says it reads one.
    callHierarchy: { dynamicRegistration: false },
    references: {},
    documentSymbol: { hierarchicalDocumentSymbolSupport: true },
    rename: { prepareSupport: true },
    codeAction: {
      dataSupport: true,
      resolveSupport: { properties: ["edit"] },
      codeActionLiteralSupport: {
        codeActionKind: { valueSet: ["", "quickfix", "refactor", "refactor.extract", "refactor.inline", "refactor.rewrite", "source", "source.organizeImports"] },
      },
    },
  },
};

// @sidecar-mcp/harness-client: typed pieces for a harness that runs sidecar (docs/harness.md).
export type { RunConfig } from "./run-config.ts";
export { TOOL_ERROR_CODES, ROUTE_ERROR_CODES, type ToolErrorCode, type RouteErrorCode } from "./error-codes.ts";
export * from "./wire.ts";
export { startSidecar, HarnessRouteError, READY_TIMEOUT_MS, type RunningSidecar, type StartOptions } from "./start-sidecar.ts";
export { startQuestionPort, type QuestionPort, type QuestionPortOptions } from "./question-port.ts";
export { startBridge, ToolDenied, type Bridge, type BridgeOptions, type BridgeTool } from "./bridge-endpoint.ts";

// A tool is data plus one function: name, tier, description, input/output schemas and run().
import type * as v from "valibot";
import type { ErrorCode } from "../answer/error-codes.ts";
import type { ClientElicitation } from "./elicitation.ts";
import type { Tier } from "./tier.ts";

/** What a running tool can reach besides its own input. */
export interface ToolContext {
  /** Aborted when the client cancels the call (notifications/cancelled) or the run shuts down. */
  signal: AbortSignal;
  /** Sends an MCP progress notification when the client asked for them; a no-op otherwise. */
  progress(update: { progress: number; total?: number; message?: string }): void;
  /**
   * What the heartbeat says while the call is quiet, from now on ("the python cell has run for
   * 12 s"); by default "<tool> is still working (N s)". Every quiet call gets a heartbeat.
   */
  describeWork(describe: () => string): void;
  /** Name of the surface the call came from (default, plan, explore, …). */
  surface: string;
  /** The tiers that surface has: what the call may do, and may let work it starts do. */
  tiers: readonly Tier[];
  /** The calling client can ask its person a question itself (declared `elicitation`); absent otherwise. */
  elicit?: ClientElicitation;
}

export interface ImageBlock {
  /** base64-encoded bytes, never truncated. */
  data: string;
  mimeType: string;
}

/** A tool that ran returns this; `isError` marks a failure the model can act on. */
export interface ToolReply<Out> {
  text: string;
  data: Out;
  images?: ImageBlock[];
  isError?: boolean;
  /** With `isError`: the stable code of the failure (default `failed`); the text is its message. */
  errorCode?: ErrorCode;
  /** Files this call changed on disk, workspace-relative: the result's `_meta` and the call record name them. */
  written?: string[];
}

/**
 * What an MCP client may assume about a call (tools/list annotations). Derived from the tier unless
 * a tool says otherwise: the read tier says who may call it, not that a call changes nothing.
 */
interface ToolHints {
  /** It changes nothing outside the sidecar's answer; default: its tier is read. */
  readOnly?: boolean;
  /** What it changes may be lost (a file overwritten, a worker stopped); default: its tier is not read. */
  destructive?: boolean;
  /** Calling it again with the same arguments changes nothing more. */
  idempotent?: boolean;
  /** It reaches beyond the workdir (runs code, the network); default: its tier is exec. */
  openWorld?: boolean;
}

interface ToolSpec<In extends v.GenericSchema, Out extends v.GenericSchema> {
  name: string;
  tier: Tier;
  /** Long descriptions live in a sibling .txt imported as text. */
  description: string;
  /** Short human title for clients that show one. */
  title?: string;
  /** How long a call may be quiet before a heartbeat progress is sent; default 10 s (http/call-progress.ts). */
  heartbeatMs?: number;
  /** Where the tier alone would mislead a client about what a call does. */
  hints?: ToolHints;
  input: In;
  output: Out;
  run(input: v.InferOutput<In>, ctx: ToolContext): Promise<ToolReply<v.InferInput<Out>>>;
}

export type Tool = ToolSpec<v.GenericSchema, v.GenericSchema>;

/** Declares a tool in one call; the types tie run()'s input and reply to the schemas. */
export function defineTool<In extends v.GenericSchema, Out extends v.GenericSchema>(
  spec: ToolSpec<In, Out>,
): Tool {
  return spec as unknown as Tool;
}

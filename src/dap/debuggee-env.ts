// The environment a launch gives its program: the sidecar's own, with the caller's variables over it.
import { ToolFailure } from "../answer/failure.ts";
import { trustedEnv, type ProgramTrust } from "../platform/executables.ts";
import { TREE_TAG_VARIABLE } from "../platform/tree-tag.ts";

/**
 * The variables each adapter is told to set for the program. Every adapter merges them over the
 * environment it inherited (the sidecar's, with SIDECAR_TOKEN* already taken out at start-up), the
 * given ones winning. Two rules of the sidecar's children still hold: untrusted, a given PATH is cut
 * as the adapter's own is (no entry inside the checkout), and the tree tag, by which a program that
 * left its process group is still found and killed, cannot be set or cleared.
 */
export function debuggeeVariables(given: Readonly<Record<string, string>> | undefined, trust: ProgramTrust): Record<string, string> {
  if (!given) return {};
  const tagged = Object.keys(given).find((name) => name.startsWith("SIDECAR_TREE_"));
  if (tagged !== undefined) {
    throw new ToolFailure(`env may not set ${tagged}: the sidecar tags its children with ${TREE_TAG_VARIABLE}-style variables to find and end them. Leave it out.`, { code: "invalid_arguments" });
  }
  const setsPath = Object.keys(given).some((name) => name.toUpperCase() === "PATH");
  return setsPath ? (trustedEnv({ ...given }, trust) as Record<string, string>) : { ...given };
}

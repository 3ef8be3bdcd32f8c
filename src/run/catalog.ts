// Registration as data: a tool group exists only when the run has its resource (docs/config.md's table of resources and their tools).
import type { Tool } from "../tool/define.ts";
import { connected, type RunResources } from "./resources.ts";

/**
 * Builds each tool once for the run and answers with the ones listed right now. Tools are built
 * once because their JSON Schemas are cached per schema object; rebuilding on every tools/list
 * would convert every schema again.
 */
export function toolCatalog(resources: RunResources): () => Tool[] {
  const groups = connected(resources).map(({ resource, service }) => ({
    tools: resource.tools?.(service, resources) ?? [],
    listed: () => resource.listed?.(service) ?? true,
  }));
  return () => groups.flatMap((group) => (group.listed() ? group.tools : []));
}

// The run's tool set: which tools exist (by resource) and which each surface sees (by tier).
import type { Tool } from "./define.ts";
import type { Tier } from "./tier.ts";

export interface Surface {
  name: string;
  tiers: readonly Tier[];
}

/**
 * Holds a function that lists the tools the run's resources allow right now. The set can change
 * during a run (vibe mode switched on or off); `changed()` tells every listener so MCP sessions
 * can send notifications/tools/list_changed.
 */
export class ToolRegistry {
  private readonly listeners = new Set<() => void>();

  constructor(private readonly listTools: () => readonly Tool[]) {
    const names = new Set<string>();
    for (const tool of listTools()) {
      if (names.has(tool.name)) throw new Error(`Two tools are named ${tool.name}; tool names must be unique.`);
      names.add(tool.name);
    }
  }

  /** Every tool the run has, whatever the surface. */
  all(): readonly Tool[] {
    return this.listTools();
  }

  /** The tools a surface sees: a tool whose tier the surface lacks is absent, not merely gated. */
  forSurface(surface: Surface): Tool[] {
    return this.listTools().filter((tool) => surface.tiers.includes(tool.tier));
  }

  /** The named tool if this surface may see it; otherwise undefined, exactly as for an unknown name. */
  find(surface: Surface, name: string): Tool | undefined {
    return this.forSurface(surface).find((tool) => tool.name === name);
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  changed(): void {
    for (const listener of this.listeners) listener();
  }
}

// Approval tiers: what a tool may do, which decides which surfaces see it at all.
export const TIERS = ["read", "write", "exec"] as const;
export type Tier = (typeof TIERS)[number];

// Doctor checks for workers: git, and whether this checkout can give each worker its own worktree.
import type { DoctorGroup } from "../doctor/check.ts";
import { programTrust } from "../platform/executables.ts";
import { gitHead } from "./worktree.ts";

export const workerChecks: DoctorGroup = async ({ workdir, trust }) => {
  const head = await gitHead(programTrust(trust ?? "none", workdir));
  if (head.ok) {
    return [{ group: "workers", name: "isolation worktree", ok: true, detail: `git worktrees can be made from HEAD ${head.commit.slice(0, 12)}` }];
  }
  return [
    {
      group: "workers",
      name: "isolation worktree",
      ok: false,
      detail: head.reason,
      hint: head.reason.includes("not installed")
        ? "install git (apt-get install git); it is needed only for isolation \"worktree\""
        : "commit once in this checkout, or use isolation \"workdir\"; workers with isolation \"workdir\" work anywhere",
    },
  ];
};

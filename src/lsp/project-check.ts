// `diagnostics "*"`: each project's checker, run once per project, its findings merged without duplicates.
import { isInside, relativeToWorkdir } from "../workspace/paths.ts";
import { scanRoots } from "../workspace/project-roots.ts";
import { shownPath } from "../workspace/shown-path.ts";
import type { ProjectChecker } from "./catalog.ts";
import { runChecker } from "./checkers.ts";
import type { DiagnosticRow } from "./present.ts";
import type { LanguageServerSupervisor } from "./supervisor.ts";

interface ProjectCheck {
  rows: DiagnosticRow[];
  /** One line per checker run: what ran where and what it found, or why it could not run. */
  notes: string[];
  timedOut: boolean;
  cancelled: boolean;
  /** Projects whose checker could not run: nothing is known about them. */
  unchecked: number;
}

/**
 * Checkers whose run covers the folders below it: a root nested in a root they checked is not
 * checked again. `go vet ./...`, `cargo check` and a compile_commands.json stop at a nested
 * module, crate or build, so those run in every root.
 */
const COVERS_NESTED_ROOTS: ReadonlySet<ProjectChecker["format"]> = new Set(["tsc", "pyright-json", "dart-machine"]);

/**
 * The checkers run one after another (they are CPU-heavy), each once per project: pyright run in
 * each of click's ten example folders and again at the top took 184 s and found 286 rows, 27 of
 * them distinct. Outer roots go first; one whose checker ran covers the roots below it (when that
 * checker does), and one whose checker could not run (tsc where there is a package.json but no
 * tsconfig.json) leaves them to be checked on their own. A cancelled call stops the running
 * checker and starts no other.
 */
export async function checkProjects(supervisor: LanguageServerSupervisor, signal?: AbortSignal): Promise<ProjectCheck> {
  const lines = supervisor.lines();
  const rows: DiagnosticRow[] = [];
  const seen = new Set<string>();
  const notes: string[] = [];
  let timedOut = false;
  let unchecked = 0;
  for (const spec of supervisor.catalog) {
    if (!spec.checker) continue;
    const checked: string[] = [];
    const roots = scanRoots(supervisor.workdir, spec.rootMarkers).sort((a, b) => a.length - b.length);
    for (const root of roots) {
      if (COVERS_NESTED_ROOTS.has(spec.checker.format) && checked.some((outer) => isInside(outer, root))) continue;
      if (signal?.aborted) return { rows, notes: [...notes, "cancelled: the remaining checkers were not run"], timedOut, cancelled: true, unchecked };
      const rel = shownPath(relativeToWorkdir(supervisor.workdir, root));
      try {
        const run = await runChecker(spec, spec.checker, root, supervisor.launchContext(), lines, signal);
        if (signal?.aborted) return { rows, notes: [...notes, `${spec.id} in ${rel}: cancelled while \`${run.command}\` ran`], timedOut, cancelled: true, unchecked: unchecked + 1 };
        let added = 0;
        for (const row of run.rows) {
          const key = JSON.stringify([row.path, row.line, row.severity, row.code ?? null, row.message]);
          if (seen.has(key)) continue;
          seen.add(key);
          rows.push(row);
          added++;
        }
        timedOut ||= run.timedOut;
        checked.push(root);
        notes.push(`${spec.id} in ${rel}: \`${run.command}\`${run.timedOut ? " timed out" : ""}, ${added} finding(s)`);
      } catch (error) {
        unchecked++;
        notes.push(`${spec.id} in ${rel}: not checked — ${(error as Error).message}`);
      }
    }
  }
  return { rows, notes, timedOut, cancelled: false, unchecked };
}

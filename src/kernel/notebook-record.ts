// The record of what a kernel ran: every cell's code, status and outputs (images included) in
// `<stateDir>/kernels/<language>.ipynb`, a notebook (nbformat 4.5) a person can open in Jupyter.
import { randomBytes } from "node:crypto";
import { lstatSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { StreamRun } from "./cell-output.ts";
import type { CellEnding, CellOutcome } from "./kernel-process.ts";
import type { KernelLanguage } from "./launch.ts";

type NotebookOutput = Record<string, unknown>;

interface NotebookCell {
  id: string;
  cell_type: "code" | "markdown";
  metadata: Record<string, unknown>;
  source: string;
  execution_count?: number | null;
  outputs?: NotebookOutput[];
}

interface Notebook {
  cells: NotebookCell[];
  metadata: Record<string, unknown>;
  nbformat: 4;
  nbformat_minor: 5;
}

const KERNELSPECS: Record<KernelLanguage, { kernelspec: Record<string, string>; language_info: Record<string, string> }> = {
  python: { kernelspec: { name: "python3", display_name: "Python 3", language: "python" }, language_info: { name: "python" } },
  javascript: {
    kernelspec: { name: "javascript", display_name: "JavaScript (sidecar, Bun)", language: "javascript" },
    language_info: { name: "javascript" },
  },
};

/** How a cell that did not finish by itself ended, as the record's last output says it. */
function endingWords(ending: CellEnding): string | undefined {
  switch (ending.kind) {
    case "finished":
      return undefined;
    case "timed_out":
      return `[sidecar] the cell was idle for ${ending.idleSeconds} s and was ${ending.stopped === "killed" ? "killed with its kernel" : "interrupted"}`;
    case "cancelled":
      return `[sidecar] the call was cancelled and the cell ${ending.stopped === "killed" ? "killed with its kernel" : "interrupted"}`;
    case "died":
      return `[sidecar] the kernel died during the cell (${ending.exit})`;
  }
}

/** A cell's outputs as nbformat has them. */
function notebookOutputs(outcome: CellOutcome): NotebookOutput[] {
  const outputs: NotebookOutput[] = outcome.output.items.map((item) => {
    if (item instanceof StreamRun) return { output_type: "stream", name: item.name, text: item.text };
    if (item.kind === "display") {
      const data = { ...item.data };
      return item.result
        ? { output_type: "execute_result", execution_count: outcome.count, data, metadata: {} }
        : { output_type: "display_data", data, metadata: {} };
    }
    return { output_type: "error", ename: item.ename, evalue: item.evalue, traceback: item.traceback.replace(/\n$/, "").split("\n") };
  });
  const ending = endingWords(outcome.ending);
  if (ending) outputs.push({ output_type: "stream", name: "stderr", text: `${ending}\n` });
  return outputs;
}

/**
 * One notebook per language, kept in memory and rewritten whole after each cell (write to a temp
 * file, then rename: a reader never sees half a notebook). A file that exists but is not a
 * notebook is moved aside, not overwritten. Never through a symlink: a stateDir inside a checkout
 * could hold one leading elsewhere. A record that cannot be written is reported once (on the
 * sidecar's stderr) and that language's cells run on unrecorded.
 */
export class NotebookRecord {
  private readonly notebooks = new Map<KernelLanguage, Notebook>();
  /** Languages whose record could not be written: reported once, then the cells run on unrecorded. */
  private readonly failed = new Set<KernelLanguage>();

  constructor(
    private readonly stateDir: string,
    private readonly warn: (text: string) => void,
  ) {}

  path(language: KernelLanguage): string {
    return join(this.stateDir, "kernels", `${language}.ipynb`);
  }

  /** Adds a cell and rewrites the notebook. */
  cell(language: KernelLanguage, code: string, outcome: CellOutcome, status: string): void {
    this.add(language, {
      id: randomBytes(4).toString("hex"),
      cell_type: "code",
      metadata: { sidecar: { status, elapsed_ms: Math.round(outcome.elapsedMs), at: new Date().toISOString() } },
      source: code,
      execution_count: outcome.count,
      outputs: notebookOutputs(outcome),
    });
  }

  /** A markdown cell between code cells: a reset, a kernel that was lost. */
  note(language: KernelLanguage, text: string): void {
    this.add(language, { id: randomBytes(4).toString("hex"), cell_type: "markdown", metadata: {}, source: `*sidecar:* ${text}` });
  }

  private add(language: KernelLanguage, cell: NotebookCell): void {
    if (this.failed.has(language)) return;
    try {
      const notebook = this.notebook(language);
      notebook.cells.push(cell);
      this.write(language, notebook);
    } catch (error) {
      this.failed.add(language);
      this.warn(`The notebook record ${this.path(language)} cannot be written (${(error as Error).message}); ${language} cells are no longer recorded in this run.`);
    }
  }

  private notebook(language: KernelLanguage): Notebook {
    let notebook = this.notebooks.get(language);
    if (notebook) return notebook;
    const folder = join(this.stateDir, "kernels");
    mkdirSync(folder, { recursive: true });
    if (!lstatSync(folder).isDirectory()) throw new Error(`${folder} is not a folder (a symlink?)`);
    notebook = this.existing(language) ?? { cells: [], metadata: { ...KERNELSPECS[language] }, nbformat: 4, nbformat_minor: 5 };
    this.notebooks.set(language, notebook);
    return notebook;
  }

  /** The notebook an earlier run left, to append to; undefined when there is none (or it was moved aside). */
  private existing(language: KernelLanguage): Notebook | undefined {
    const path = this.path(language);
    let stat;
    try {
      stat = lstatSync(path);
    } catch {
      return undefined;
    }
    if (!stat.isFile()) throw new Error(`${path} is not a regular file`);
    try {
      const parsed = JSON.parse(readFileSync(path, "utf8")) as Notebook;
      if (Array.isArray(parsed.cells) && parsed.nbformat === 4) return parsed;
    } catch {
      // not JSON: moved aside below
    }
    renameSync(path, `${path}.unreadable-${Date.now()}`);
    return undefined;
  }

  private write(language: KernelLanguage, notebook: Notebook): void {
    const path = this.path(language);
    const temporary = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(notebook, null, 1)}\n`, { flag: "wx" });
    renameSync(temporary, path);
  }
}

// .gitignore rules: compiled per directory, last matching rule wins, `!` re-includes.

interface Rule {
  regex: RegExp;
  negate: boolean;
  dirOnly: boolean;
}

export interface IgnoreRules {
  /** The directory the .gitignore sits in, relative to the walk root ("" for the root). */
  base: string;
  rules: Rule[];
}

export function parseGitignore(base: string, content: string): IgnoreRules {
  const rules: Rule[] = [];
  for (const raw of content.split(/\r?\n/)) {
    let line = raw.replace(/(?<!\\)\s+$/, "");
    if (line === "" || line.startsWith("#")) continue;
    const negate = line.startsWith("!");
    if (negate) line = line.slice(1);
    if (line.startsWith("\\")) line = line.slice(1);
    const dirOnly = line.endsWith("/");
    if (dirOnly) line = line.slice(0, -1);
    const anchored = line.includes("/");
    if (line.startsWith("/")) line = line.slice(1);
    const body = globToRegex(line);
    rules.push({ regex: new RegExp(anchored ? `^${body}$` : `(?:^|/)${body}$`), negate, dirOnly });
  }
  return { base, rules };
}

/** Whether `relPath` (from the walk root, `/`-separated) is ignored by the stacked rule sets. */
export function isIgnored(stack: readonly IgnoreRules[], relPath: string, isDir: boolean): boolean {
  let ignored = false;
  for (const { base, rules } of stack) {
    if (base !== "" && !relPath.startsWith(`${base}/`)) continue;
    const local = base === "" ? relPath : relPath.slice(base.length + 1);
    for (const rule of rules) {
      if (rule.dirOnly && !isDir) continue;
      if (rule.regex.test(local)) ignored = !rule.negate;
    }
  }
  return ignored;
}

function globToRegex(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*") {
      if (glob[i + 1] === "*") {
        const slashAfter = glob[i + 2] === "/";
        out += slashAfter ? "(?:.*/)?" : ".*";
        i += slashAfter ? 2 : 1;
      } else out += "[^/]*";
    } else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const close = glob.indexOf("]", i + 1);
      if (close === -1) out += "\\[";
      else {
        out += `[${glob.slice(i + 1, close).replace(/^!/, "^").replace(/\\/g, "\\\\")}]`;
        i = close;
      }
    } else if (c === "\\" && i + 1 < glob.length) out += `\\${glob[++i]}`;
    else out += /[.+^${}()|\\]/.test(c) ? `\\${c}` : c;
  }
  return out;
}

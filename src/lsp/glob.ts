// LSP glob patterns (`**/*.{go,mod}`, `[!a]*.py`) as regular expressions, for the file watchers servers register.

/** Compiles an LSP glob: `*` within a segment, `?` one character, `**` any folders, `{a,b}` choices, `[…]`/`[!…]` ranges. */
export function globToRegExp(glob: string): RegExp {
  let source = "";
  let depth = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*") {
      if (glob[i + 1] === "*") {
        // `**/` may match no folder at all; a trailing `**` matches everything below.
        const slash = glob[i + 2] === "/";
        source += slash ? "(?:.*/)?" : ".*";
        i += slash ? 2 : 1;
      } else {
        source += "[^/]*";
      }
    } else if (c === "?") source += "[^/]";
    else if (c === "{") {
      depth++;
      source += "(?:";
    } else if (c === "}" && depth > 0) {
      depth--;
      source += ")";
    } else if (c === "," && depth > 0) source += "|";
    else if (c === "[") {
      const end = glob.indexOf("]", i + 1);
      if (end === -1) {
        source += "\\[";
        continue;
      }
      let body = glob.slice(i + 1, end);
      if (body.startsWith("!")) body = `^${body.slice(1)}`;
      source += `[${body.replace(/\\/g, "\\\\")}]`;
      i = end;
    } else source += c.replace(/[.+^$()|\\]/g, "\\$&");
  }
  return new RegExp(`^${source}$`);
}

// The flags an untrusted compile_commands.json entry may give clang for a syntax check: include paths, macros, language and warnings, never a plugin or a tool path.
/** Options whose value is the next argument when not joined (`-I include`, `-x c++`). */
const WITH_VALUE = new Set(["-I", "-D", "-U", "-isystem", "-iquote", "-idirafter", "-include", "-imacros", "-isysroot", "--sysroot", "-x", "-target", "-std"]);
/** Kept by prefix: what a syntax check needs to read the file as the project builds it. */
const KEPT_PREFIXES = ["-I", "-D", "-U", "-std=", "-W", "-f", "-m", "-O", "-g", "-isystem", "-iquote", "-idirafter", "-include", "-imacros", "-isysroot", "--sysroot", "--target=", "-stdlib=", "-x"];
const KEPT_EXACT = new Set(["-target", "-pthread", "-ansi", "-pedantic", "-pedantic-errors", "-w", "-nostdinc", "-nostdinc++"]);
/** Kept prefixes that would still load or run something: a compiler plugin, or flags handed on to other tools. */
const DROPPED_PREFIXES = ["-fplugin", "-fpass-plugin", "-Wl,", "-Wa,", "-Wp,", "-mllvm"];
/** Options that hand their value to another stage (-Xclang -load, -mllvm …): dropped with it. */
const DROPPED_WITH_VALUE = new Set(["-Xclang", "-mllvm", "-Xpreprocessor", "-Xassembler", "-Xlinker", "-Xanalyzer", "-o", "-MF", "-MT", "-MQ"]);

/**
 * The arguments after the compiler, filtered: anything not known to be harmless is dropped
 * (-Xclang -load, -fplugin=, -B, --config, @responsefile, the output and dependency files, the
 * source files, which the checker passes itself).
 */
export function syntaxCheckFlags(args: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (DROPPED_WITH_VALUE.has(arg)) {
      i += 1;
      continue;
    }
    const safe = !DROPPED_PREFIXES.some((prefix) => arg.startsWith(prefix)) && (KEPT_EXACT.has(arg) || KEPT_PREFIXES.some((prefix) => arg.startsWith(prefix)));
    if (WITH_VALUE.has(arg)) {
      if (safe && i + 1 < args.length) kept.push(arg, args[i + 1]!);
      i += 1;
      continue;
    }
    if (safe) kept.push(arg);
  }
  return kept;
}

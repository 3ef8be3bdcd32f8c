// What kind of program a path is, read from the file itself: a native executable, a Go package.
import { closeSync, openSync, readdirSync, readSync } from "node:fs";

/** The first bytes of the executable formats lldb debugs: ELF, Mach-O (32/64-bit, both byte orders, fat), PE. */
const NATIVE_MAGICS: readonly number[][] = [
  [0x7f, 0x45, 0x4c, 0x46],
  [0xfe, 0xed, 0xfa, 0xce],
  [0xfe, 0xed, 0xfa, 0xcf],
  [0xce, 0xfa, 0xed, 0xfe],
  [0xcf, 0xfa, 0xed, 0xfe],
  [0xca, 0xfe, 0xba, 0xbe],
  [0x4d, 0x5a],
];

/** Whether the file starts like a compiled executable (a script, text or source file does not). */
export function isNativeExecutable(path: string): boolean {
  const head = Buffer.alloc(4);
  let read = 0;
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    read = readSync(fd, head, 0, 4, 0);
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return NATIVE_MAGICS.some((magic) => magic.length <= read && magic.every((byte, i) => head[i] === byte));
}

/** Whether a directory is a Go package (holds .go files). */
export function holdsGoFiles(dir: string): boolean {
  try {
    return readdirSync(dir).some((name) => name.endsWith(".go"));
  } catch {
    return false;
  }
}

// Closes this process's memory to the other processes of its user: on Linux, prctl(PR_SET_DUMPABLE,
// 0). By default any process of the same user (an eval kernel, a vibe worker, a debuggee: all the
// sidecar's own children) may read /proc/<sidecar>/mem, and so every surface's token. Non-dumpable,
// /proc/<pid>/mem, environ and fd are the kernel's and root's only, and no core file is written.
// Children are not affected: execve makes each dumpable again.

/** prctl option (linux/prctl.h). */
const PR_SET_DUMPABLE = 4;

/** Where libc may be: glibc, then musl (Alpine). */
const LIBC_NAMES = ["libc.so.6", `libc.musl-${process.arch === "arm64" ? "aarch64" : "x86_64"}.so.1`];

/**
 * Makes the process non-dumpable. Call it before any secret exists (the tokens are minted after).
 * Returns undefined when done, or why it could not be (not Linux, not Bun, prctl refused): the
 * caller may say so, nothing else changes.
 */
export async function closeMemoryToOtherProcesses(): Promise<string | undefined> {
  if (process.platform !== "linux") return "only Linux has PR_SET_DUMPABLE; elsewhere the OS decides who may read a process's memory";
  if (process.versions.bun === undefined) return "prctl is reached through bun:ffi, and this runtime is not Bun";
  const { dlopen, FFIType } = await import("bun:ffi");
  for (const name of LIBC_NAMES) {
    let libc;
    try {
      libc = dlopen(name, { prctl: { args: [FFIType.i32, FFIType.u64, FFIType.u64, FFIType.u64, FFIType.u64], returns: FFIType.i32 } });
    } catch {
      continue; // not this libc
    }
    try {
      return libc.symbols.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) === 0 ? undefined : "prctl(PR_SET_DUMPABLE, 0) failed";
    } finally {
      libc.close();
    }
  }
  return `no libc found to call prctl through (tried ${LIBC_NAMES.join(", ")})`;
}

// install.sh under /bin/sh (dash: POSIX, no bashisms), against a local HTTP server serving a real
// release archive of this checkout: it installs a binary that runs, refuses a tampered download and
// a processor no build exists for, and says what it did.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { VERSION } from "../../src/version.ts";
import { BUILD_TIMEOUT_MS, releaseBuild } from "./release-build.ts";

const root = join(import.meta.dir, "..", "..");
const INSTALL_SH = join(root, "install.sh");

let work: string;
let server: ReturnType<typeof Bun.serve>;
const requests: string[] = [];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "sidecar-install-"));
  const release = await releaseBuild();
  // /good/ serves the release as built; /tampered/ changes one byte of each archive on the way.
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const { pathname } = new URL(request.url);
      requests.push(pathname);
      const [, mode, name] = pathname.split("/");
      const file = join(release, name ?? "");
      if (!name || !existsSync(file)) return new Response("not found", { status: 404 });
      const bytes = readFileSync(file);
      if (mode === "tampered" && name.endsWith(".tar.gz")) bytes.writeUInt8(bytes.readUInt8(bytes.length - 100) ^ 0xff, bytes.length - 100);
      if (mode === "unlisted" && name === "SHA256SUMS") return new Response(bytes.toString("utf8").replace(/^.*\.tar\.gz\n/gm, ""));
      return new Response(bytes);
    },
  });
}, BUILD_TIMEOUT_MS);

afterAll(() => {
  server?.stop(true);
  rmSync(work, { recursive: true, force: true });
});

/** Runs install.sh; asynchronously, since the server answering it lives in this process. */
async function install(mode: string, env: Record<string, string>, pathPrefix = ""): Promise<{ code: number | null; stdout: string; stderr: string; home: string }> {
  const home = mkdtempSync(join(work, "home-"));
  const child = spawn("/bin/sh", [INSTALL_SH], {
    env: { HOME: home, PATH: `${pathPrefix}/usr/local/bin:/usr/bin:/bin`, SIDECAR_DOWNLOAD_URL: `http://127.0.0.1:${server.port}/${mode}`, ...env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  return { code, stdout, stderr, home };
}

describe("install.sh", () => {
  test("is POSIX sh that dash parses", () => {
    expect(readFileSync(INSTALL_SH, "utf8")).toStartWith("#!/bin/sh\n");
    expect(spawnSync("dash", ["-n", INSTALL_SH]).status).toBe(0);
  });

  test("installs to ~/.local/bin by default: verified, runnable, and it says what it did", async () => {
    const { code, stdout, stderr, home } = await install("good", {});
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const binary = join(home, ".local", "bin", "sidecar");
    const version = execFileSync(binary, ["--version"], { encoding: "utf8" }).trim();
    expect(version).toStartWith(`sidecar ${VERSION} (`);
    expect(stdout).toContain(`sidecar install: downloading http://127.0.0.1:${server.port}/good/sidecar-linux-x64.tar.gz`);
    expect(stdout).toMatch(/sidecar install: sha256 verified: [0-9a-f]{64}\n/);
    expect(stdout).toContain(`sidecar install: installed ${version} at ${binary}`);
    expect(stdout).toContain(`${join(home, ".local", "bin")} is not on your PATH`);
  }, 120_000);

  test("SIDECAR_INSTALL_DIR chooses the folder; on PATH, it says how to run it", async () => {
    const dir = join(work, "custom", "bin");
    const { code, stdout } = await install("good", { SIDECAR_INSTALL_DIR: dir }, `${dir}:`);
    expect(code).toBe(0);
    expect(existsSync(join(dir, "sidecar"))).toBe(true);
    expect(stdout).toContain("sidecar install: run: sidecar serve --workdir /path/to/checkout");
  }, 120_000);

  test("a tampered archive is refused and nothing is installed", async () => {
    const dir = join(work, "tampered", "bin");
    const { code, stdout, stderr } = await install("tampered", { SIDECAR_INSTALL_DIR: dir });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^sidecar install: checksum mismatch for sidecar-linux-x64\.tar\.gz: SHA256SUMS says [0-9a-f]{64}, the download is [0-9a-f]{64}\. Nothing was installed/);
    expect(stdout).not.toContain("installed");
    expect(existsSync(dir)).toBe(false);
  }, 120_000);

  test("a processor with no build is refused before anything is downloaded", async () => {
    // A stand-in `uname` reporting a RISC-V Linux: this machine cannot be one.
    const fake = join(work, "riscv");
    mkdirSync(fake, { recursive: true });
    writeFileSync(join(fake, "uname"), '#!/bin/sh\ncase "$1" in -s) echo Linux ;; -m) echo riscv64 ;; esac\n');
    chmodSync(join(fake, "uname"), 0o755);
    const before = requests.length;
    const { code, stderr } = await install("good", { SIDECAR_INSTALL_DIR: join(work, "riscv-bin") }, `${fake}:`);
    expect(code).toBe(1);
    expect(stderr).toBe("sidecar install: no sidecar build for the processor riscv64; builds exist for x64 and arm64 (linux, darwin) and x64 (windows)\n");
    expect(requests.length).toBe(before);
  });

  test("a release whose SHA256SUMS does not list the archive is refused", async () => {
    const { code, stderr } = await install("unlisted", { SIDECAR_INSTALL_DIR: join(work, "unlisted") });
    expect(code).toBe(1);
    expect(stderr).toBe(`sidecar install: SHA256SUMS at http://127.0.0.1:${server.port}/unlisted lists no sidecar-linux-x64.tar.gz; nothing was installed\n`);
    expect(existsSync(join(work, "unlisted"))).toBe(false);
  }, 120_000);
});

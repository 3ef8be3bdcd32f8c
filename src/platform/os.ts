// Which family of operating system the code is on: the only place process.platform is read.

export type OsFamily = "posix" | "windows";

interface PlatformFacts {
  family: OsFamily;
  /** macOS and Windows file systems compare names case-insensitively by default. */
  caseInsensitiveFiles: boolean;
}

export function platformFacts(platform: NodeJS.Platform = process.platform): PlatformFacts {
  return {
    family: platform === "win32" ? "windows" : "posix",
    caseInsensitiveFiles: platform === "win32" || platform === "darwin",
  };
}

export const HOST: PlatformFacts = platformFacts();

#!/bin/sh
# Installs the sidecar binary from a GitHub release, checksum verified:
#
#   curl -fsSL https://github.com/sidecar-mcp/sidecar/releases/latest/download/install.sh | sh
#
# Settings (environment):
#   SIDECAR_VERSION       a release such as 0.2.0 (default: the latest)
#   SIDECAR_INSTALL_DIR   where the binary goes (default: ~/.local/bin)
#   SIDECAR_REPO          the GitHub repository releases come from (default: sidecar-mcp/sidecar)
#   SIDECAR_DOWNLOAD_URL  a folder holding the archives and SHA256SUMS (a mirror); wins over the two above
#
# It downloads sidecar-<os>-<arch>.tar.gz and SHA256SUMS, refuses an archive whose sha256 differs,
# and installs the binary in one rename (a running sidecar keeps its old file). POSIX sh.
set -eu

REPO="${SIDECAR_REPO:-sidecar-mcp/sidecar}"
VERSION="${SIDECAR_VERSION:-latest}"
INSTALL_DIR="${SIDECAR_INSTALL_DIR:-${HOME:?HOME is not set; set SIDECAR_INSTALL_DIR}/.local/bin}"

say() { printf 'sidecar install: %s\n' "$*"; }
die() {
  printf 'sidecar install: %s\n' "$*" >&2
  exit 1
}

detect_os() {
  case "$(uname -s)" in
    Linux) echo linux ;;
    Darwin) echo darwin ;;
    MINGW* | MSYS* | CYGWIN*) die "on Windows, download sidecar-windows-x64.zip from https://github.com/$REPO/releases, or run: npx @sidecar-mcp/sidecar" ;;
    *) die "no sidecar build for the operating system $(uname -s); builds exist for Linux, macOS and Windows (https://github.com/$REPO/releases)" ;;
  esac
}

detect_arch() {
  machine=$(uname -m)
  case "$machine" in
    x86_64 | amd64)
      # An x64 shell under Rosetta on an Apple silicon Mac: the native build is the one to run.
      if [ "$1" = darwin ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || echo 0)" = 1 ]; then echo arm64; else echo x64; fi
      ;;
    aarch64 | arm64) echo arm64 ;;
    *) die "no sidecar build for the processor $machine; builds exist for x64 and arm64 (linux, darwin) and x64 (windows)" ;;
  esac
}

download() { # URL FILE
  if command -v curl >/dev/null 2>&1; then
    curl -fsSL --retry 3 -o "$2" "$1" || die "could not download $1"
  elif command -v wget >/dev/null 2>&1; then
    wget -q -O "$2" "$1" || die "could not download $1"
  else
    die "neither curl nor wget is installed; install one of them and run this again"
  fi
}

sha256_of() { # FILE
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d ' ' -f 1
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | cut -d ' ' -f 1
  else
    die "neither sha256sum nor shasum is installed, so the download cannot be verified; nothing was installed"
  fi
}

os=$(detect_os)
arch=$(detect_arch "$os")
archive="sidecar-$os-$arch.tar.gz"
if [ -n "${SIDECAR_DOWNLOAD_URL:-}" ]; then
  base="${SIDECAR_DOWNLOAD_URL%/}"
elif [ "$VERSION" = latest ]; then
  base="https://github.com/$REPO/releases/latest/download"
else
  base="https://github.com/$REPO/releases/download/v${VERSION#v}"
fi

tmp=$(mktemp -d 2>/dev/null || mktemp -d -t sidecar)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

say "downloading $base/$archive"
download "$base/$archive" "$tmp/$archive"
download "$base/SHA256SUMS" "$tmp/SHA256SUMS"

expected=$(awk -v name="$archive" '$2 == name || $2 == "*" name { print $1; exit }' "$tmp/SHA256SUMS")
[ -n "$expected" ] || die "SHA256SUMS at $base lists no $archive; nothing was installed"
actual=$(sha256_of "$tmp/$archive")
if [ "$actual" != "$expected" ]; then
  die "checksum mismatch for $archive: SHA256SUMS says $expected, the download is $actual. Nothing was installed; the download was corrupted or tampered with. Try again, or report it at https://github.com/$REPO/issues"
fi
say "sha256 verified: $actual"

tar -xzf "$tmp/$archive" -C "$tmp" || die "could not unpack $archive"
binary="$tmp/sidecar-$os-$arch/sidecar"
[ -f "$binary" ] || die "$archive holds no sidecar-$os-$arch/sidecar; nothing was installed"

mkdir -p "$INSTALL_DIR" || die "cannot create $INSTALL_DIR; set SIDECAR_INSTALL_DIR to a folder you can write"
staged="$INSTALL_DIR/.sidecar.install.$$"
cp "$binary" "$staged" && chmod 755 "$staged" || {
  rm -f "$staged"
  die "cannot write to $INSTALL_DIR; set SIDECAR_INSTALL_DIR to a folder you can write"
}
mv -f "$staged" "$INSTALL_DIR/sidecar"

version=$("$INSTALL_DIR/sidecar" --version 2>/dev/null) || die "installed $INSTALL_DIR/sidecar, but it does not run here: try \"$INSTALL_DIR/sidecar --version\" to see why"
say "installed $version at $INSTALL_DIR/sidecar"
case ":$PATH:" in
  *":$INSTALL_DIR:"*) say "run: sidecar serve --workdir /path/to/checkout   (sidecar --help for more)" ;;
  *) say "$INSTALL_DIR is not on your PATH; add it (export PATH=\"$INSTALL_DIR:\$PATH\") or run $INSTALL_DIR/sidecar" ;;
esac

#!/usr/bin/env bash
# Installs everything the tests need on Debian 12 (as root): system packages via apt-get, retried
# while the dpkg lock is held, then the npm dependencies (`npm ci`). Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

export DEBIAN_FRONTEND=noninteractive
APT_PACKAGES=(
  git ca-certificates procps e2fsprogs
  # language servers (lsp): clangd, gopls + the Go toolchain, rust-analyzer + cargo (Debian 12's rustc-web)
  clangd gopls golang-go rust-web-analyzer cargo-web
  # the untrusted C checker (clang -fsyntax-only from PATH) and bash diagnostics (bash-language-server runs shellcheck)
  clang shellcheck
  # debug adapters (debug): debugpy, delve, lldb, and a C compiler for the C fixture
  python3-debugpy delve lldb-16 gcc
  # kernels (eval): /usr/bin/python3 with pandas, matplotlib, IPython (jinja2: a styled DataFrame; nbformat validates the notebook record); venv + pip for %pip tests
  python3-pandas python3-matplotlib python3-ipython python3-jinja2 python3-nbformat python3-venv python3-pip python3-wheel
  # operator page (ask_user): a real browser
  chromium
  # release smoke test of the arm64 binary under emulation
  qemu-user-static libc6-arm64-cross
  # shell completion scripts (sidecar completion), loaded in the real shells
  zsh fish
)

apt_retry() {
  for attempt in $(seq 1 60); do
    if "$@"; then return 0; fi
    echo "apt busy or failed (attempt $attempt); retrying in 5 s" >&2
    sleep 5
  done
  return 1
}

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "Missing system packages: ${missing[*]}. Run this script as root (or: sudo apt-get install ${missing[*]})." >&2
    exit 1
  fi
  apt_retry apt-get update -q
  apt_retry apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

npm ci --no-audit --no-fund

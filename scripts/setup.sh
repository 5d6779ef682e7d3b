#!/usr/bin/env bash
# Installs eulerdeck's build dependencies from Debian 12's packages.
# Idempotent: re-running it only refreshes the package index and confirms
# that everything is present. Needs root (or sudo) for apt-get.
set -euo pipefail

PACKAGES=(
  build-essential cmake pkg-config git
  python3 python3-jsonschema
  librocksdb-dev libzstd-dev libxxhash-dev
  libboost-program-options-dev libboost-dev
  catch2
  libbenchmark-dev
  libgmp-dev
  libtbb-dev
  nlohmann-json3-dev
  librandom123-dev
  libpcg-cpp-dev
  gnuplot-nox
  clang-format
  help2man tmux bash-completion
  openmpi-bin libopenmpi-dev
  rocksdb-tools  # ldb, sst_dump: reading a store by hand (docs/reliability.md)
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PACKAGES[@]} packages already installed" >&2
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "setup: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"

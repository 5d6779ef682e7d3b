#!/usr/bin/env bash
# Prepares the eulerdeck binary for a machine with a GPU but none of the
# project's Debian packages (RocksDB, TBB, Boost, GMP...): copies BUILD/eulerdeck
# and every shared library it needs that is not glibc's into .gpu-bundle/ in
# the repository root (git-ignored), stripped. The C++ runtime (libstdc++,
# libgcc_s) goes to .gpu-bundle/fallback/: the device's own is newer and is
# the one the plugin built there needs, so gpu_check.sh adds the fallback
# only if the binary does not start without it.
#
# usage: scripts/gpu_bundle.sh [BUILD_DIR]   (default: build)
# Then carry .gpu-bundle to the device and run scripts/gpu_check.sh there.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
out=$root/.gpu-bundle
if [[ ! -x $build/eulerdeck ]]; then
  echo "gpu_bundle.sh: no $build/eulerdeck (build it first)" >&2
  exit 2
fi
rm -rf "$out"
mkdir -p "$out/lib" "$out/fallback"
cp "$build/eulerdeck" "$out/eulerdeck"
strip --strip-unneeded "$out/eulerdeck"
ldd "$build/eulerdeck" | awk '/=> \// {print $3}' | while read -r lib; do
  name=$(basename "$lib")
  case $name in
    # glibc: the device's own (Ubuntu 24.04's 2.39 is newer than Debian 12's 2.36).
    libc.so* | libm.so* | libpthread.so* | libdl.so* | librt.so* | ld-linux* | libresolv.so* | \
      libutil.so* | libanl.so*)
      ;;
    libstdc++.so* | libgcc_s.so*)
      cp -L "$lib" "$out/fallback/$name"
      ;;
    *)
      cp -L "$lib" "$out/lib/$name"
      strip --strip-unneeded "$out/lib/$name" 2>/dev/null || true
      ;;
  esac
done
git -C "$root" rev-parse HEAD >"$out/COMMIT"
# The highest glibc version the binary asks for, for the record.
objdump -T "$out/eulerdeck" "$out"/lib/*.so* 2>/dev/null | grep -o 'GLIBC_[0-9.]*' | sort -Vu |
  tail -1 >"$out/GLIBC_NEEDED" || true
echo "gpu_bundle.sh: $(du -sh "$out" | cut -f1) in $out ($(ls "$out/lib" | wc -l) libraries;" \
  "glibc >= $(cat "$out/GLIBC_NEEDED") needed on the device)"
size=$(du -sm "$out" | cut -f1)
if ((size > 60)); then
  echo "gpu_bundle.sh: warning: $size MiB, near the device's 64 MiB carry limit" >&2
fi

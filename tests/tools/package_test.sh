#!/usr/bin/env bash
# The Debian package (issue 51, C1): `cpack -G DEB` from this build, unpacked
# into a scratch root with dpkg-deb -x (nothing on the system changes), then
# checked there: exactly the files the install rules name (the binaries, man
# pages, bash completion, the docs, and the GPU plugin when the build has
# one, in /usr/lib/<multiarch>/eulerdeck/), every doc the man pages cite, a
# Depends line naming the run-time libraries, and the unpacked binaries run:
# --version, a small count, and --gpu finding (or not finding) the plugin
# where the package put it.
# Usage: package_test.sh BUILD_DIR
set -u
build=$(cd "$1" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL (package: $1)"; fail=1; }

for tool in cpack dpkg-deb dpkg-shlibdeps; do
  command -v "$tool" >/dev/null ||
    { echo "FAIL (package): $tool is missing (dpkg-dev; scripts/setup.sh installs it)"; exit 1; }
done

# 1. The package, made in a directory of its own (its staging area too).
# CPack's install step writes BUILD_DIR/install_manifest.txt: the one of a
# `cmake --install` (what uninstalling reads) is put back afterwards.
manifest="$build/install_manifest.txt"
if [ -f "$manifest" ]; then cp -p "$manifest" "$tmp/manifest"; fi
restore() {
  if [ -f "$tmp/manifest" ]; then cp -p "$tmp/manifest" "$manifest"; else rm -f "$manifest"; fi
  rm -rf "$tmp"
}
trap restore EXIT
if ! (cd "$tmp" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$tmp/pkg") \
     >"$tmp/cpack.log" 2>&1; then
  echo "FAIL (package): cpack -G DEB failed"; cat "$tmp/cpack.log"; exit 1
fi
debs=("$tmp"/pkg/eulerdeck_*.deb)
[ "${#debs[@]}" -eq 1 ] && [ -f "${debs[0]}" ] || { echo "FAIL (package): no .deb: ${debs[*]}"; exit 1; }
deb=${debs[0]}
version=$("$build/eulerdeck" --version | sed -n 's/^eulerdeck \([0-9.]*\) .*/\1/p')
arch=$(dpkg --print-architecture)
[ "$(basename "$deb")" = "eulerdeck_${version}_${arch}.deb" ] || bad "file name $(basename "$deb")"
[ "$(dpkg-deb -f "$deb" Package)" = eulerdeck ] || bad "Package: $(dpkg-deb -f "$deb" Package)"
[ "$(dpkg-deb -f "$deb" Version)" = "$version" ] || bad "Version: $(dpkg-deb -f "$deb" Version)"

# 2. Depends, as dpkg-shlibdeps read it off the binaries.
depends=$(dpkg-deb -f "$deb" Depends)
# (RocksDB is linked statically: Debian's librocksdb-dev has librocksdb.a,
# and its own libraries, zstd, lz4, snappy..., are named instead.)
for lib in libc6 libstdc++6 libtbb libboost-program-options libgmp libzstd; do
  echo "$depends" | grep -q "\b$lib" || bad "Depends has no $lib: $depends"
done

# 3. The files: those of the install rules, under /usr, nothing else: the
# binaries, their completion, the docs the errors and pages cite (README.md,
# docs/*.md, docs/schema/*.json, laid out as in the source; issue 58, B5)...
src=$(cd "$(dirname "$0")/../.." && pwd)
want="./usr/bin/cardlab
./usr/bin/eulerdeck
./usr/share/bash-completion/completions/cardlab
./usr/share/bash-completion/completions/eulerdeck
./usr/share/doc/eulerdeck/README.md"
for doc in "$src"/docs/*.md "$src"/docs/schema/*.json; do
  want="$want
./usr/share/doc/eulerdeck/${doc#"$src"/}"
done
[ -f "$src/docs/output.md" ] || bad "no docs/output.md under $src (the source tree)"
if [ -f "$build/share/man/man1/eulerdeck.1" ]; then  # help2man was there
  want="$want
./usr/share/man/man1/cardlab.1
./usr/share/man/man1/eulerdeck.1"
fi
# ... and the GPU plugin where plugins go, /usr/lib/<multiarch>/eulerdeck/.
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
plugin=0
if [ -f "$build/libeulerdeck_gpu.so" ]; then  # an EULERDECK_CUDA build
  plugin=1
  want="$want
./usr/lib/$multiarch/eulerdeck/libeulerdeck_gpu.so"
fi
have=$(dpkg-deb -c "$deb" | awk '$1 !~ /^d/ {print $6}' | sort)
want=$(echo "$want" | sort)
[ "$have" = "$want" ] || { bad "files"; diff <(echo "$want") <(echo "$have") | sed 's/^/  /'; }

# 4. Unpacked into a scratch root, the binaries run from there.
dpkg-deb -x "$deb" "$tmp/root" || { echo "FAIL (package): dpkg-deb -x"; exit 1; }
E="$tmp/root/usr/bin/eulerdeck"
C="$tmp/root/usr/bin/cardlab"
[ "$("$E" --version)" = "$("$build/eulerdeck" --version)" ] || bad "eulerdeck --version: $("$E" --version 2>&1)"
[ "$("$C" --version)" = "$("$build/cardlab" --version)" ] || bad "cardlab --version: $("$C" --version 2>&1)"
# Bersani 2010, Table 2: hlm, 10 ranks, 2 suits, 656 winning decks.
"$E" count --game hlm --ranks 10 --suits 2 -q >"$tmp/out" 2>"$tmp/err" &&
  grep -Eq "^winning decks +656$" "$tmp/out" || { bad "count"; cat "$tmp/out" "$tmp/err"; }
# Every docs/ page the man pages cite is in /usr/share/doc/eulerdeck/ (the
# page's SEE ALSO says they are there).
for page in "$tmp"/root/usr/share/man/man1/*.1; do
  [ -f "$page" ] || continue
  for doc in $(sed 's/\\-/-/g' "$page" | grep -o 'docs/[a-z_-]*\.md' | sort -u); do
    [ -f "$tmp/root/usr/share/doc/eulerdeck/$doc" ] || bad "$(basename "$page") cites $doc, not packaged"
  done
done
grep -q "/usr/share/doc/eulerdeck" "$tmp/root/usr/share/man/man1/eulerdeck.1" 2>/dev/null ||
  [ ! -f "$build/share/man/man1/eulerdeck.1" ] || bad "eulerdeck.1 does not say where the docs are"
grep -Eq "^complete -F .* eulerdeck$" "$tmp/root/usr/share/bash-completion/completions/eulerdeck" ||
  bad "the completion does not complete eulerdeck"
# --gpu looks for the plugin in ../lib/<multiarch>/eulerdeck from the binary:
# found there when packaged (then it counts on a GPU, or says no GPU was
# found), or named as missing there.
env -u EULERDECK_GPU_PLUGIN "$E" count --game hlm --ranks 10 --suits 2 --gpu >"$tmp/out" 2>"$tmp/err"
if [ "$plugin" -eq 1 ]; then
  grep -q "no GPU plugin" "$tmp/err" && bad "--gpu did not find the packaged plugin: $(cat "$tmp/err")"
else
  grep -q "looked for .*$tmp/root/usr/bin/../lib/$multiarch/eulerdeck/libeulerdeck_gpu.so" "$tmp/err" ||
    bad "--gpu without a plugin: $(cat "$tmp/err")"
fi

[ "$fail" -eq 0 ] && echo "package_test: $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB), Depends: $depends"
exit "$fail"

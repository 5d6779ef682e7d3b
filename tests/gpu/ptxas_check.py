#!/usr/bin/env python3
"""The GPU plugin's kernels as ptxas compiles them (issue 56, item 3).

Compiles the plugin's warp kernel (engine/gpu/warp_kernel.cu) with `nvcc
-cubin -Xptxas -v` (no GPU needed; seconds, where the old kernel of
gpu_plugin.cu takes minutes) and reads, per kernel, its registers, stack
frame and spills.
Fails when a warp kernel (WarpKernel<kWords>, engine/gpu/warp_walk.h: the
kernel of mousetrap and hlm) has a nonzero stack frame, spills, or uses more
registers than its launch bound allows (65536 / (128 x the blocks per SM it
asks for: WarpMinBlocks() in warp_kernel.cu)). The old kernel (WalkKernel,
the stack walk in local memory), where a log holds it, is printed, not
judged.

usage: ptxas_check.py NVCC SOURCE_DIR [ARCH] [LOG]
       ptxas_check.py --parse LOG   (the output of an nvcc -Xptxas -v build
                                     already made: scripts/gpu_check.sh)
"""
import re
import subprocess
import sys
import tempfile

# Blocks of 128 threads per SM each warp kernel's __launch_bounds__ asks
# for, by its deck words (WarpMinBlocks() in warp_kernel.cu).
MIN_BLOCKS = {5: 6, 9: 5}
BLOCK = 128


def main():
    if sys.argv[1] == "--parse":
        with open(sys.argv[2]) as f:
            return judge(f.read())
    nvcc, source = sys.argv[1], sys.argv[2]
    arch = sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] else "90"
    arch = re.sub(r"[^0-9].*$", "", arch.split(";")[0]) or "90"
    log = sys.argv[4] if len(sys.argv) > 4 else None
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [nvcc, "-cubin", "-std=c++17", "-O3", f"-arch=sm_{arch}", "-Xptxas", "-v",
               "-I", source, f"{source}/engine/gpu/warp_kernel.cu", "-o", f"{tmp}/plugin.cubin"]
        run = subprocess.run(cmd, capture_output=True, text=True)
    out = run.stdout + run.stderr
    if log:
        with open(log, "w") as f:
            f.write(out)
    if run.returncode != 0:
        print(out)
        print("FAIL: nvcc did not compile the plugin")
        return 1
    return judge(out)


def judge(out):
    kernels = []  # [name, stack, spill_stores, spill_loads, registers]
    current = None
    for line in out.splitlines():
        m = re.search(r"Compiling entry function '([^']+)'", line)
        if m:
            current = [m.group(1), None, None, None, None]
            kernels.append(current)
            continue
        if current is None:
            continue
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads",
                      line)
        if m:
            current[1:4] = [int(m.group(i)) for i in (1, 2, 3)]
        m = re.search(r"Used (\d+) registers", line)
        if m:
            current[4] = int(m.group(1))
    failures = 0
    warp = 0
    for name, stack, stores, loads, regs in kernels:
        w = re.search(r"WarpKernelILi(\d+)E", name)
        label = f"WarpKernel<{w.group(1)}>" if w else (
            "WalkKernel<%s>" % ",".join(re.findall(r"Li(\d+)E", name)) if "WalkKernel" in name
            else name)
        if None in (stack, stores, loads, regs):
            print(f"FAIL: {label}: ptxas printed no figures for it")
            failures += 1
            continue
        verdict = ""
        if w:
            warp += 1
            words = int(w.group(1))
            bound = 65536 // (BLOCK * MIN_BLOCKS.get(words, 1))
            bad = []
            if stack != 0:
                bad.append(f"stack frame {stack} B")
            if stores or loads:
                bad.append(f"spills {stores}/{loads} B")
            if regs > bound:
                bad.append(f"{regs} registers > {bound}")
            verdict = ("FAIL: " + ", ".join(bad)) if bad else f"PASS (bound {bound} registers)"
            failures += bool(bad)
        print(f"{label}: {regs} registers, {stack} bytes stack frame, "
              f"{stores}/{loads} bytes spill stores/loads {verdict}".rstrip())
    if warp != len(MIN_BLOCKS):
        print(f"FAIL: {warp} warp kernels compiled, {len(MIN_BLOCKS)} expected")
        failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

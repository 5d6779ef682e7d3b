#!/usr/bin/env python3
"""Checks what a plot of the tools (tools/common/plot.cc) shows, read from the
SVG gnuplot drew (issue 42, B4): every point and error bar inside the frame,
off its edges; the axes ending at the data, not at the next round number or
decade; and, asked for, error bars and lines that break at a gap.

Usage: svg_plot_check.py FILE.svg [--bars] [--step-gaps] [--domain]
  --bars       every point has an error bar (a vertical segment through it)
  --step-gaps  x values are evenly spaced and some are missing: no line
               segment may join two points further apart than one step
  --domain     the x axis spans a fixed domain, which the data need not
               reach at its right end (cards removed: 0..cards)
Exit 0 when every check holds; otherwise one line per failure on stdout.
"""
import re
import sys

PAIR = re.compile(r"(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)")


def main():
    path = sys.argv[1]
    bars = "--bars" in sys.argv
    step_gaps = "--step-gaps" in sys.argv
    domain = "--domain" in sys.argv
    svg = open(path).read()
    # The frame: gnuplot's border, one closed rectangle drawn after the plots.
    frames = re.findall(
        r"d='M(\S+),(\S+) L\1,(\S+) L(\S+),\3 L\4,\2 L\1,\2 Z", svg)
    if not frames:
        print("no frame found")
        return 1
    left, top, bottom, right = (float(v) for v in frames[-1])
    top, bottom = min(top, bottom), max(top, bottom)
    width, height = right - left, bottom - top
    start = svg.find('id="gnuplot_plot_')
    end = svg.rfind("d='M" + frames[-1][0] + "," + frames[-1][1])
    body = svg[start:end]
    # Every coordinate the plots draw (their paths and marks), less the
    # legend's (right of the frame).
    drawn = " ".join(re.findall(r"<path [^>]*d='([^']*)'", body) +
                     re.findall(r"<use [^>]*transform='translate\(([^)]*)\)", body))
    points = [(float(x), float(y)) for x, y in PAIR.findall(drawn)]
    points = [(x, y) for x, y in points if x <= right]
    failures = []
    if not points:
        failures.append("nothing drawn inside the frame")
    else:
        xs = [x for x, _ in points]
        ys = [y for _, y in points]
        margin_x, margin_y = 0.01 * width, 0.01 * height
        if min(xs) < left + margin_x or max(xs) > right - margin_x:
            failures.append("x %.1f..%.1f touches the frame %.1f..%.1f" %
                            (min(xs), max(xs), left, right))
        if min(ys) < top + margin_y or max(ys) > bottom - margin_y:
            failures.append("y %.1f..%.1f touches the frame %.1f..%.1f" %
                            (min(ys), max(ys), top, bottom))
        # The axes end at the data (3% margins), not at the next tic.
        if min(xs) > left + 0.06 * width or (not domain and max(xs) < right - 0.06 * width):
            failures.append("x axis runs past the data: data %.1f..%.1f, frame %.1f..%.1f" %
                            (min(xs), max(xs), left, right))
        if min(ys) > top + 0.06 * height or max(ys) < bottom - 0.06 * height:
            failures.append("y axis runs past the data: data %.1f..%.1f, frame %.1f..%.1f" %
                            (min(ys), max(ys), top, bottom))
    # The points gnuplot marks (linespoints, yerrorlines).
    marks = [(float(x), float(y)) for x, y in re.findall(
        r"<use xlink:href='#gpPt\d+' transform='translate\(([^,]+),([^)]+)\)", body)]
    marks = [(x, y) for x, y in marks if x <= right]
    # Straight segments of the paths: (x1, y1, x2, y2).
    segments = []
    for d in re.findall(r"<path [^>]*d='([^']*)'", body):
        pen = None
        for op, x, y in re.findall(r"([ML])(-?[\d.]+),(-?[\d.]+)", d):
            p = (float(x), float(y))
            if op == "L" and pen is not None:
                segments.append(pen + p)
            pen = p
    if bars:
        vertical = [s for s in segments if abs(s[0] - s[2]) < 0.01 and abs(s[1] - s[3]) > 0.01]
        for x, y in marks:
            if not any(abs(s[0] - x) < 0.01 and min(s[1], s[3]) <= y + 0.01 and
                       max(s[1], s[3]) >= y - 0.01 for s in vertical):
                failures.append("the point at (%.1f, %.1f) has no error bar" % (x, y))
                break
        if not marks:
            failures.append("no points marked")
    if step_gaps:
        xs = sorted(set(round(x, 1) for x, _ in marks))
        steps = [b - a for a, b in zip(xs, xs[1:])]
        if not steps:
            failures.append("too few points to tell the step")
        else:
            step = min(steps)
            if max(steps) < 1.5 * step:
                failures.append("no missing x value: the check cannot see a gap")
            for s in segments:
                inside = s[0] <= right and s[2] <= right
                if inside and abs(s[2] - s[0]) > 1.01 * step:
                    failures.append("a line joins x %.1f to %.1f across a gap (step %.1f)" %
                                    (s[0], s[2], step))
                    break
    for f in failures:
        print(f"{path}: {f}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

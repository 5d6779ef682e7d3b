#!/usr/bin/env python3
"""Prints the Markdown tables of docs/memory.md from cardlab's CSV output.

usage: scripts/memory_tables.py BUILD_DIR
"""
import csv
import subprocess
import sys
import tempfile
from pathlib import Path

cardlab = Path(sys.argv[1]) / 'cardlab'


def rows(*args):
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / 'out.csv'
        subprocess.run([cardlab, 'memory', *args, '--csv', path], check=True, stdout=subprocess.DEVNULL)
        with open(path) as f:
            return list(csv.DictReader(f))


print('### Table 2 (and Table 1 = ratio): e(n,0), n = 1..50\n')
print('`cardlab memory solitaire --n 50 --fractions`\n')
print('| n | e(n,0) | ≈ | e(n,0)/n |')
print('|---|---|---|---|')
for r in rows('solitaire', '--n', '50'):
    print(f"| {r['n']} | {r['expected_exact']} | {r['expected_decimal']} | {r['expected_per_pair_decimal']} |")

print('\n### Tables 3-6: 1.0-, 1.5-, 2.0-pairs (times two) and "other" moves, n = 1..20\n')
print('`cardlab memory solitaire --n 20 --variant pairs10 --fractions` (and pairs15, pairs20, other)\n')
cols = {v: rows('solitaire', '--n', '20', '--variant', v) for v in ('pairs10', 'pairs15', 'pairs20', 'other')}
print('| n | e^1.0 (Table 3) | e^1.5 (Table 4) | e^2.0 (Table 5) | e^other (Table 6) |')
print('|---|---|---|---|---|')
for i in range(20):
    print('| ' + str(i + 1) + ' | ' + ' | '.join(cols[v][i]['expected_exact'] for v in cols) + ' |')

print('\n### The table after Lemma 6.1: e(n,k), n <= 7\n')
print('`cardlab memory solitaire --n 7 --k K --fractions`, K = 0..7\n')
table = {k: {int(r['n']): r['expected_exact'] for r in rows('solitaire', '--n', '7', '--k', str(k))} for k in range(8)}
print('| n \\ k | ' + ' | '.join(str(k) for k in range(8)) + ' |')
print('|---' * 9 + '|')
for n in range(7, 0, -1):
    print(f'| {n} | ' + ' | '.join(table[k].get(n, '0') for k in range(8)) + ' |')

#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Publish a make bench result into Documentation/performance.md: the
table (between the bench:table markers) and the plots (copied to
Documentation/performance/).

Usage: bench/publish.py [RESULTS_DIR]   (default build/bench/latest)
"""
import os
import shutil
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "build/bench/latest")
doc = os.path.join(root, "Documentation/performance.md")
imgdir = os.path.join(root, "Documentation/performance")
begin, end = "<!-- bench:table:begin -->", "<!-- bench:table:end -->"

table = open(os.path.join(src, "table.md")).read().rstrip("\n")
os.makedirs(imgdir, exist_ok=True)
pngs = sorted(f for f in os.listdir(src) if f.endswith(".png"))
for f in pngs:
    shutil.copy(os.path.join(src, f), os.path.join(imgdir, f))
text = open(doc).read()
if begin not in text or end not in text:
    sys.exit(f"publish: {doc} lacks the {begin} / {end} markers")
head, rest = text.split(begin, 1)
_, tail = rest.split(end, 1)
with open(doc, "w") as f:
    f.write(head + begin + "\n" + table + "\n" + end + tail)
print(f"publish: table and {len(pngs)} plots from {src} into {doc}")

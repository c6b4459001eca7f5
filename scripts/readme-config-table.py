#!/usr/bin/env python3
"""Rewrites the settings table in docs/operators/configure.md (the operators' page; the README links
it) from ConfigurationVariable.swift (the platform's settings) and each vertical's `extension
ConfigurationVariable` (e.g. Rides/RidesConfiguration.swift). A test
(theConfigureDocListsEveryVariableWithItsFlagAndDefault) fails when they differ."""
import glob
import os
import re

ROOT = os.path.join(os.path.dirname(__file__), "..")
SOURCE = os.path.join(ROOT, "Sources", "ConciergeServer", "Configuration", "ConfigurationVariable.swift")
README = os.path.join(ROOT, "docs", "operators", "configure.md")

VERTICALS = sorted(
    path for path in glob.glob(os.path.join(ROOT, "Sources", "ConciergeServer", "*", "*Configuration.swift"))
    if "extension ConfigurationVariable" in open(path, encoding="utf-8").read())
entries = []
for path in [SOURCE] + VERTICALS:
    entries += re.findall(
        r'\.init\(\s*name:\s*"([^"]+)",\s*defaultValue:\s*"([^"]+)",\s*summary:\s*"((?:[^"\\]|\\.)*)"\s*\)',
        open(path, encoding="utf-8").read())
rows = []
for name, default, summary in entries:
    bare = name[len("CONCIERGE_"):] if name.startswith("CONCIERGE_") else name
    rows.append("| `%s` | `--%s` | %s | %s |" % (name, bare.lower().replace("_", "-"), default, summary))
text = open(README, encoding="utf-8").read()
start = text.index("| variable | flag | default | meaning |")
end = text.index("\n\n", start)
table = "| variable | flag | default | meaning |\n|---|---|---|---|\n" + "\n".join(rows)
open(README, "w", encoding="utf-8").write(text[:start] + table + text[end:])
print("%d variables" % len(rows))

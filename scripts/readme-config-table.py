#!/usr/bin/env python3
"""Rewrites the settings table in docs/operators/configure.md (the operators' page; the README links
it) from the settings the code declares (scripts/config_variables.py: ConfigurationVariable.swift,
then each `extension ConfigurationVariable`, e.g. Rides/RidesConfiguration.swift). A test
(theConfigureDocListsEveryVariableWithItsFlagAndDefault) fails when they differ."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import config_variables  # noqa: E402

PAGE = os.path.join(config_variables.ROOT, "docs", "operators", "configure.md")

rows = []
for _, name, default, summary in config_variables.variables():
    bare = name[len("CONCIERGE_"):] if name.startswith("CONCIERGE_") else name
    rows.append("| `%s` | `--%s` | %s | %s |" % (name, bare.lower().replace("_", "-"), default, summary))
with open(PAGE, encoding="utf-8") as handle:
    text = handle.read()
start = text.index("| variable | flag | default | meaning |")
end = text.index("\n\n", start)
table = "| variable | flag | default | meaning |\n|---|---|---|---|\n" + "\n".join(rows)
with open(PAGE, "w", encoding="utf-8") as handle:
    handle.write(text[:start] + table + text[end:])
print("%d variables" % len(rows))

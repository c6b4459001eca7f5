#!/usr/bin/env python3
"""Writes each docs/api page's route table from its OpenAPI fragment (Sources/ConciergeServer/
Resources/openapi*.yaml, the document `GET /openapi.yaml` serves): method, path, what it does and
every status it answers, between the page's `<!-- routes -->` and `<!-- /routes -->` lines.
`--check` only compares, for scripts/test: a route added to the contract shows in its page."""
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
RESOURCES = os.path.join(ROOT, "Sources", "ConciergeServer", "Resources")
PAGES = {"platform": "openapi.yaml", "rides": "openapi-rides.yaml", "events": "openapi-events.yaml",
         "stays": "openapi-stays.yaml", "commute": "openapi-commute.yaml"}
METHODS = ("get", "put", "post", "patch", "delete", "head", "options")
BEGIN, END = "<!-- routes -->", "<!-- /routes -->"


def routes(fragment):
    """(method, path, summary, statuses) in the document's order, read by indentation (the files
    are written two spaces a level, paths at the second level)."""
    found, path, method, in_paths, in_responses = [], None, None, False, False
    folded = False  # inside a `summary: >-` block: its lines are the summary
    for line in open(os.path.join(RESOURCES, fragment), encoding="utf-8"):
        indent = len(line) - len(line.lstrip(" "))
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        if folded and indent > 6:
            found[-1][2] = (found[-1][2] + " " + text).strip()
            continue
        folded = False
        if indent == 0:
            in_paths = text == "paths:"
            continue
        if not in_paths:
            continue
        if indent == 2 and text.endswith(":"):
            path, method = text[:-1].strip("\"'"), None
        elif indent == 4 and text[:-1] in METHODS and text.endswith(":"):
            method = text[:-1]
            found.append([method.upper(), path, "", []])
            in_responses = False
        elif method and indent == 6:
            in_responses = text == "responses:"
            match = re.match(r"summary:\s*(.*)$", text)
            if match:
                value = match.group(1).strip()
                folded = value in (">", ">-", "|", "|-")
                found[-1][2] = "" if folded else value.strip("\"'")
        elif method and in_responses and indent == 8:
            match = re.match(r"""["']?(\d{3}|default)["']?\s*:""", text)
            if match:
                found[-1][3].append(match.group(1))
    return found


def table(fragment):
    rows = ["| route | what | answers |", "|---|---|---|"]
    for method, path, summary, statuses in routes(fragment):
        rows.append("| `%s %s` | %s | %s |" % (method, path, summary.replace("|", "\\|"), ", ".join(sorted(statuses))))
    return "\n".join([
        BEGIN,
        "Every route of this part of the contract, read from",
        "[`%s`](../../Sources/ConciergeServer/Resources/%s) (request and answer fields are there) by" % (fragment, fragment),
        "`python3 scripts/api-route-tables.py`; what each error code means: [error-codes.md](error-codes.md).",
        "",
    ] + rows + [END])


def rewritten(page, fragment):
    text = open(page, encoding="utf-8").read()
    start, end = text.index(BEGIN), text.index(END) + len(END)
    return text[:start] + table(fragment) + text[end:]


if __name__ == "__main__":
    stale = []
    for name, fragment in PAGES.items():
        page = os.path.join(ROOT, "docs", "api", name + ".md")
        text = rewritten(page, fragment)
        if sys.argv[1:] == ["--check"]:
            if text != open(page, encoding="utf-8").read():
                stale.append(os.path.relpath(page, ROOT))
        else:
            open(page, "w", encoding="utf-8").write(text)
    if stale:
        print("api-route-tables: %s out of date; run python3 scripts/api-route-tables.py" % ", ".join(stale))
        sys.exit(1)
    print("api-route-tables: every route of the OpenAPI document is in docs/api")

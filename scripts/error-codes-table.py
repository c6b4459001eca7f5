#!/usr/bin/env python3
"""Writes docs/api/error-codes.md: every error `code` the server can answer, with its HTTP status and
the part that raises it, read from the sources (`ConciergeError(.<category>, code: "…")` and the
`status: .<status>, code: "…"` of the HTTP layer). `--check` only compares, for scripts/test: the
page cannot fall behind a new code."""
import glob
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
PAGE = os.path.join(ROOT, "docs", "api", "error-codes.md")
MODULES = ["ConciergeCore", "ConciergeStore", "ConciergeProviders", "ConciergeServer"]

# ErrorMiddleware.status(for:): the one place a category becomes a status.
CATEGORY_STATUS = {
    "invalidInput": 400, "unauthorized": 401, "forbidden": 403, "notFound": 404, "conflict": 409,
    "unprocessable": 422, "tooManyRequests": 429, "upstreamFailed": 502, "unavailable": 503,
}
HTTP_STATUS = {
    "badRequest": 400, "unauthorized": 401, "forbidden": 403, "notFound": 404, "methodNotAllowed": 405,
    "conflict": 409, "contentTooLarge": 413, "unsupportedMediaType": 415, "unprocessableContent": 422,
    "tooManyRequests": 429, "internalServerError": 500, "badGateway": 502, "serviceUnavailable": 503,
}
CODE = re.compile(r'\bcode:\s*"([a-z][a-z0-9_]*)"')
CATEGORY = re.compile(r"\.(" + "|".join(CATEGORY_STATUS) + r")\b")
CALL = re.compile(r"\b(?:[A-Z]\w*|\.init)\(")
STATUS = re.compile(r"status:\s*\.(" + "|".join(HTTP_STATUS) + r")\b")


def part(path):
    """The vertical a source file belongs to, else the platform."""
    for folder, name in [("Rides", "rides"), ("Bookings", "rides"), ("Events", "events"),
                         ("Stays", "stays"), ("Commute", "commute")]:
        if f"/{folder}/" in path:
            return name
    return "platform"


def codes():
    found = {}
    for module in MODULES:
        for path in sorted(glob.glob(os.path.join(ROOT, "Sources", module, "**", "*.swift"), recursive=True)):
            text = open(path, encoding="utf-8").read()
            previous = 0
            for match in CODE.finditer(text):
                # The category or status that goes with this code: the last one written since the
                # code before it, within the same call (a few lines up).
                window = text[max(previous, match.start() - 400):match.start()]
                previous = match.end()
                calls = list(CALL.finditer(window))
                if calls:
                    window = window[calls[-1].start():]  # from the call that takes the code
                statuses = [CATEGORY_STATUS[c] for c in CATEGORY.findall(window)]
                statuses += [HTTP_STATUS[s] for s in STATUS.findall(window)]
                if "OrderCap(" in window:
                    statuses.append(429)  # a per-customer limit (docs/limits.md)
                if re.search(r"status:\s*\w+\.status\b", window):
                    statuses.append("the refused request's 4xx")  # Hummingbird's HTTPError
                if not statuses:
                    continue  # a code that is not an error's (a weather factor, a surcharge)
                entry = found.setdefault(match.group(1), (set(), set()))
                entry[0].update(str(status) for status in statuses)
                entry[1].add(part(os.path.relpath(path, ROOT)))
    return found


def page():
    rows = []
    for code, (statuses, parts) in sorted(codes().items()):
        order = ["platform", "rides", "events", "stays", "commute"]
        rows.append("| `%s` | %s | %s |" % (
            code, ", ".join(sorted(statuses)), ", ".join(p for p in order if p in parts)))
    return "\n".join([
        "# Every error code",
        "",
        "Every `code` an error body can carry, the HTTP status it comes with and the part of Concierge",
        "that raises it, read from the sources by `python3 scripts/error-codes-table.py` (`./scripts/test`",
        "fails when this page is out of date). How the body is built in each vertical's envelope, field",
        "errors and why a reused key is 422: [errors.md](errors.md); what each code means for a route:",
        "its vertical's page ([platform](platform.md), [rides](rides.md), [events](events.md),",
        "[stays](stays.md), [commute](commute.md)) and `GET /openapi.yaml`. A code raised by the",
        "platform reaches every vertical whose route uses that part (sign-in, orders, holds, payments,",
        "the outbox); 503 codes name a failure on our side, and retrying later can succeed.",
        "",
        "| code | status | raised by |",
        "|---|---|---|",
    ] + rows) + "\n"


if __name__ == "__main__":
    text = page()
    if sys.argv[1:] == ["--check"]:
        current = open(PAGE, encoding="utf-8").read() if os.path.exists(PAGE) else ""
        if current != text:
            print("error-codes-table: docs/api/error-codes.md is out of date; run python3 scripts/error-codes-table.py")
            sys.exit(1)
        print("error-codes-table: docs/api/error-codes.md lists every error code")
    else:
        open(PAGE, "w", encoding="utf-8").write(text)
        print("%d codes" % text.count("\n| `"))

#!/usr/bin/env python3
"""Writes the Debian package's /etc/concierge/concierge.env to standard output: every setting the
server reads (scripts/config_variables.py, the source of the settings table too), each with its
meaning and default, commented out; secrets empty; and the few settings the package sets for a
service (production, the database under /var/lib/concierge, JSON logs for the journal, behind a
reverse proxy on this machine). A setting added to the code appears here with the next package."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import config_variables  # noqa: E402

# What the package sets, and why; everything else keeps the server's own default.
PACKAGED = {
    "CONCIERGE_MODE": ("production", "a package is for a server people reach"),
    "CONCIERGE_SQLITE_PATH": ("/var/lib/concierge/concierge.sqlite", "the service's state directory, the only one it may write"),
    "CONCIERGE_LOG_FORMAT": ("json", "one JSON object per line in the journal (journalctl -u concierge -o cat)"),
    "CONCIERGE_TRUST_PROXY": ("true", "behind the reverse proxy on this machine (packaging/nginx); set false if clients reach the port directly"),
}
# Defaults that are a description rather than a value ("(unset)", "(built-in)", "generated in
# dev"): the line stays empty.
DESCRIBED = {"generated in dev", "http://HOST:PORT"}

HEADER = """\
# Concierge: the service's settings (systemd EnvironmentFile of concierge.service).
#
# One NAME=value a line, no quotes and no spaces around '='; a line starting with '#' is a
# comment. Every setting the server reads is listed below with its default; uncomment a line to
# change it. After editing: sudo systemctl restart concierge
#
# This file holds secrets: keep it mode 0640, owner root, group concierge (the package does).
# A secret can also live in a file of its own: NAME_FILE=/path (e.g. CONCIERGE_SECRET_FILE).
# Production refuses to start until its secrets and providers are set; the journal names the
# first one missing (journalctl -u concierge -o cat). Every setting: docs/operators/configure.md.
"""


def line_for(name, default, listed):
    if name in PACKAGED:
        return "%s=%s" % (name, PACKAGED[name][0])
    if config_variables.is_secret(name, listed) or default in DESCRIBED or default.startswith("("):
        return "#%s=" % name
    return "#%s=%s" % (name, default)


def main():
    listed = config_variables.secret_names()
    out = [HEADER]
    section = None
    for path, name, default, summary in config_variables.variables():
        title = os.path.basename(path).replace("ConfigurationVariable.swift", "Platform").replace(
            "Configuration.swift", "")
        if title != section:
            section = title
            out.append("\n# ---- %s ----\n" % section)
        note = "default: %s" % default
        if name in PACKAGED:
            note += "; the package sets %s: %s" % (PACKAGED[name][0], PACKAGED[name][1])
        if config_variables.is_secret(name, listed):
            note += "; a secret"
        out.append("\n# %s (%s)\n%s\n" % (summary, note, line_for(name, default, listed)))
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()

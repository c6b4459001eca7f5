"""The server's settings as the code declares them, for scripts that write them down elsewhere
(scripts/package-env-file.py writes the Debian package's /etc/concierge/concierge.env from them).
The same pattern scripts/readme-config-table.py reads: ConfigurationVariable.swift (the platform's
settings) and every `extension ConfigurationVariable` in a `*Configuration.swift` (retention, each
vertical's), in that order."""
import glob
import os
import re

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SERVER = os.path.join(ROOT, "Sources", "ConciergeServer")
PLATFORM = os.path.join(SERVER, "Configuration", "ConfigurationVariable.swift")
SECRECY = os.path.join(SERVER, "Configuration", "ConfigurationVariable+Sources.swift")

ENTRY = re.compile(
    r'\.init\(\s*name:\s*"([^"]+)",\s*defaultValue:\s*"([^"]+)",\s*summary:\s*"((?:[^"\\]|\\.)*)"\s*\)')


def _read(path):
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def sources():
    """The files that declare settings: the platform's first, then the others by path."""
    others = sorted(
        path for path in glob.glob(os.path.join(SERVER, "*", "*Configuration.swift"))
        if "extension ConfigurationVariable" in _read(path))
    return [PLATFORM] + others


def secret_names():
    """What `ConfigurationVariable.isSecret` says is a secret: the names listed in
    `secretNames`, and every name ending in _TOKEN, _KEY or _SECRET."""
    text = _read(SECRECY)
    listed = re.search(r"secretNames:\s*Set<String>\s*=\s*\[(.*?)\]", text, re.S)
    return set(re.findall(r'"([^"]+)"', listed.group(1))) if listed else set()


def is_secret(name, listed):
    return name in listed or name.endswith(("_TOKEN", "_KEY", "_SECRET"))


def variables():
    """(source file, name, default, summary) for every setting, in declaration order."""
    found = []
    for path in sources():
        for name, default, summary in ENTRY.findall(_read(path)):
            found.append((path, name, default, summary.replace('\\"', '"').replace("\\\\", "\\")))
    return found

#!/usr/bin/python3
"""Runs a command under the restrictions of a systemd unit that the kernel can impose without
systemd: its SystemCallFilter= (groups expanded by `systemd-analyze syscall-filter`, denied calls
failing with SystemCallErrorNumber=), SystemCallArchitectures=native, MemoryDenyWriteExecute=
(PR_SET_MDWE) and NoNewPrivileges=. scripts/test-package starts the packaged server through it,
as the unit's user, where systemd is not the running init, so the test shows the server works
inside the filter the unit gives it.

    unit-restrictions.py [--kill] UNIT_FILE COMMAND [ARGUMENT…]

--kill ends the process with SIGSYS on a refused call instead of the unit's SystemCallErrorNumber=
(EPERM), so a refused call that the server would survive still shows in a test.

Needs Debian's python3-seccomp (scripts/ensure-packaging-tools); /usr/bin/python3 on purpose."""
import ctypes
import errno
import os
import subprocess
import sys

import seccomp

PR_SET_NO_NEW_PRIVS, PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN = 38, 65, 1


def unit_settings(path):
    """Every assignment of the [Service] section, in order (a key may repeat)."""
    settings, section = [], None
    for raw in open(path, encoding="utf-8"):
        line = raw.strip()
        if line.startswith("["):
            section = line
        elif section == "[Service]" and "=" in line and not line.startswith(("#", ";")):
            key, value = line.split("=", 1)
            settings.append((key.strip(), value.strip()))
    return settings


def expand(names, seen=None):
    """System call names of groups (@system-service …) and names, as systemd-analyze lists them."""
    seen = set() if seen is None else seen
    calls = set()
    for name in names:
        if not name.startswith("@"):
            calls.add(name)
            continue
        if name in seen:
            continue
        seen.add(name)
        listing = subprocess.run(["systemd-analyze", "syscall-filter", name], check=True,
                                 capture_output=True, text=True).stdout
        members = [line.strip() for line in listing.splitlines()[1:]
                   if line.startswith("    ") and not line.strip().startswith("#")]
        calls |= expand(members, seen)
    return calls


def filter_calls(settings):
    """(allow-list or None, deny-list) by systemd's rule: a first allow-list starts from nothing
    and later ones add; a ~deny-list removes from the allow-list, or alone denies just its calls."""
    allowed, denied = None, set()
    for key, value in settings:
        if key != "SystemCallFilter" or not value:
            continue
        names = expand(value.lstrip("~").split())
        if value.startswith("~"):
            if allowed is None:
                denied |= names
            else:
                allowed -= names
        else:
            allowed = names if allowed is None else allowed | names
    return allowed, denied


def main():
    arguments = sys.argv[1:]
    kill = arguments[:1] == ["--kill"]
    unit, command = arguments[kill], arguments[kill + 1:]
    settings = unit_settings(unit)
    values = dict(settings)
    libc = ctypes.CDLL(None, use_errno=True)
    if values.get("NoNewPrivileges") == "yes" and libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        sys.exit("unit-restrictions: PR_SET_NO_NEW_PRIVS failed")
    if values.get("MemoryDenyWriteExecute") == "yes" and libc.prctl(PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN, 0, 0, 0) != 0:
        print("unit-restrictions: note: no PR_SET_MDWE in this kernel (Linux 6.3+); MemoryDenyWriteExecute not imposed",
              file=sys.stderr)
    allowed, denied = filter_calls(settings)
    if allowed is not None or denied:
        if values.get("SystemCallArchitectures") != "native":
            sys.exit("unit-restrictions: only SystemCallArchitectures=native is imposed here")
        error = values.get("SystemCallErrorNumber")
        refusal = seccomp.ERRNO(getattr(errno, error)) if error and not kill else seccomp.KILL_PROCESS
        rules = seccomp.SyscallFilter(defaction=refusal if allowed is not None else seccomp.ALLOW)
        known = 0
        for call in sorted(allowed if allowed is not None else denied):
            try:
                rules.add_rule(seccomp.ALLOW if allowed is not None else refusal, call)
                known += 1
            except (RuntimeError, ValueError, OSError):
                pass  # a name this architecture or libseccomp does not have; systemd skips it too
        rules.load()
        print("unit-restrictions: system call filter loaded (%s %d calls)"
              % ("allowing" if allowed is not None else "denying", known), file=sys.stderr)
    os.execvp(command[0], command)


if __name__ == "__main__":
    main()

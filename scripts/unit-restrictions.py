#!/usr/bin/python3
"""Runs a command under the restrictions of a systemd unit that can be imposed without systemd,
so scripts/test-package can show the packaged server works inside them where systemd is not the
running init. Two stages, the first as root inside `unshare -m`, the second as the unit's user:

    unshare -m unit-restrictions.py --mounts UNIT_FILE COMMAND [ARGUMENT…]
        the unit's view of the file system: ProtectSystem=strict (every mount read-only but
        ReadWritePaths=), PrivateTmp= (empty /tmp and /var/tmp), ProtectHome= (empty, read-only
        /home, /root, /run/user), ProcSubset=pid and ProtectProc=invisible (a /proc of its own);
        then COMMAND (runuser … the second stage).
    unit-restrictions.py [--kill] UNIT_FILE COMMAND [ARGUMENT…]
        SystemCallFilter= (groups expanded by `systemd-analyze syscall-filter`, refused calls
        failing with SystemCallErrorNumber=), SystemCallArchitectures=native,
        MemoryDenyWriteExecute= (PR_SET_MDWE) and NoNewPrivileges=; then COMMAND. --kill ends the
        process with SIGSYS on a refused call instead, so a refused call that the server would
        survive still shows in a test.

Not imposed: PrivateDevices, PrivateUsers, the Protect* of kernel and clock, namespaces and
address families. Needs Debian's python3-seccomp (scripts/ensure-packaging-tools), hence
/usr/bin/python3."""
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


def mount(*arguments):
    subprocess.run(["mount", *arguments], check=True)


def restrict_mounts(values, settings):
    """The file-system view systemd gives the unit, in this process's own mount namespace."""
    originals = sorted({line.split()[4] for line in open("/proc/self/mountinfo", encoding="utf-8")})
    mount("--make-rprivate", "/")
    writable = [path for key, value in settings if key == "ReadWritePaths" for path in value.split()]
    for path in writable:
        mount("--bind", path, path)  # a mount of its own, which stays writable below
    replaced = []  # covered by a mount of our own, which keeps its own options
    if values.get("PrivateTmp") == "yes":
        for path in ("/tmp", "/var/tmp"):
            mount("-t", "tmpfs", "-o", "mode=1777,nosuid,nodev", "tmpfs", path)
            replaced.append(path)
    if values.get("ProtectHome") == "yes":
        for path in ("/home", "/root", "/run/user"):
            if os.path.isdir(path):
                mount("-t", "tmpfs", "-o", "ro,mode=0755,nosuid,nodev,noexec", "tmpfs", path)
                replaced.append(path)
    if values.get("ProtectSystem") == "strict":
        kept = ["/proc", "/sys", "/dev"] + writable + replaced

        def under(path, top):
            return path == top or path.startswith(top.rstrip("/") + "/")

        for path in originals:
            if not any(under(path, top) for top in kept):
                mount("-o", "remount,bind,ro", path)
    subset = values.get("ProcSubset") == "pid"
    hide = values.get("ProtectProc") in ("invisible", "noaccess", "ptraceable")
    if subset or hide:
        options = ",".join(
            (["subset=pid"] if subset else []) + (["hidepid=" + values["ProtectProc"]] if hide else []))
        mount("-t", "proc", "-o", "nosuid,nodev,noexec," + options, "proc", "/proc")


def main():
    arguments = sys.argv[1:]
    if arguments[:1] == ["--mounts"]:
        settings = unit_settings(arguments[1])
        restrict_mounts(dict(settings), settings)
        os.execvp(arguments[2], arguments[2:])
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

"""CPU and memory of a process with all its descendants (picture workers, a fork server), read from /proc."""

from __future__ import annotations

import os
from pathlib import Path


def family_usage(pid: int) -> tuple[float, float]:
    """CPU seconds used so far by a process and every live descendant, and their resident memory in MB."""
    tick, page = os.sysconf("SC_CLK_TCK"), os.sysconf("SC_PAGE_SIZE")
    parents: dict[int, int] = {}
    usage: dict[int, tuple[float, int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # it ended meanwhile
            continue
        parents[int(entry)] = int(fields[1])
        usage[int(entry)] = ((int(fields[11]) + int(fields[12])) / tick, int(fields[21]) * page)
    family = {pid}
    while more := {child for child, parent in parents.items() if parent in family} - family:
        family |= more
    cpu = sum(usage[p][0] for p in family if p in usage)
    rss = sum(usage[p][1] for p in family if p in usage) / 2**20
    return cpu, rss

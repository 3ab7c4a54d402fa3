"""What the load benches share: the tallies of an open-loop run, and a process family's CPU and memory."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Run:
    """What one open-loop run counted: moves due, moves served with their latencies (seconds), failures."""

    due: int = 0
    served: int = 0
    latencies: list[float] = field(default_factory=list)
    failures: int = 0

    def percentile_ms(self, share: float) -> float:
        """The nearest-rank percentile of the latencies, in milliseconds (0 when none was served)."""
        ordered = sorted(self.latencies) or [0.0]
        return ordered[min(len(ordered) - 1, int(len(ordered) * share))] * 1000


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

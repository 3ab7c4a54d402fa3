"""The level table adds up logged games only of the rules and bots that played them, so runs of one version on
several machines add up and a run of another version never slips in."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.levels import players_version, tally, ttr_matches


def test_the_version_is_a_digest_of_the_rules_tree(tmp_path: Path) -> None:
    (tmp_path / "ttr").mkdir()
    (tmp_path / "ttr" / "bots.py").write_text("KEEP = 1\n", encoding="utf-8")
    before = players_version(tmp_path)
    (tmp_path / "__pycache__").mkdir()
    (tmp_path / "__pycache__" / "bots.cpython-311.pyc").write_bytes(b"\0")
    assert players_version(tmp_path) == before
    (tmp_path / "ttr" / "bots.py").write_text("KEEP = 2\n", encoding="utf-8")
    assert players_version(tmp_path) != before


def test_a_tally_counts_each_game_of_this_version_once_and_leaves_out_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    matches = ttr_matches(["usa"])
    label = matches[0].label
    version = players_version()
    first, second = tmp_path / "machine-a.log", tmp_path / "machine-b.log"
    first.write_text(
        f"{label}\t0\t1.0\t0.5000 0.2500\t{version}\n{label}\t1\t0.0\t0.1000\t{version}\n{label}\t2\t1.0\t0.1000\n",
        encoding="utf-8",
    )
    second.write_text(
        f"{label}\t1\t0.0\t0.1000\t{version}\n{label}\t3\t1.0\t0.1000\t{version}\n{label}\t4\t1.0\t0.1000\t0123456789ab\n",
        encoding="utf-8",
    )
    tally(matches, [str(first), str(second)])
    printed = capsys.readouterr().out
    row = next(line for line in printed.splitlines() if line.startswith(label))
    assert row.split()[len(label.split()) : len(label.split()) + 2] == ["3", "66.7%"]
    assert "ticket-to-ride at 1 s, over 4 moves" in printed
    assert "left out: 2 games played by other versions" in printed

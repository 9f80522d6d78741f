"""tests/once.py: a value kept between runs is read back only while its input files are the same bytes."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import once as once_module
from tests.once import SHARED_ENV, fingerprint, once


def test_a_value_with_inputs_is_computed_once_and_again_after_any_input_changes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(once_module, "STORE", tmp_path / "store")
    monkeypatch.delenv(SHARED_ENV, raising=False)
    source = tmp_path / "inputs"
    (source / "deep").mkdir(parents=True)
    (source / "deep" / "a.txt").write_text("one")
    calls: list[int] = []

    def compute() -> list[int]:
        calls.append(1)
        return [len(calls), 2]

    assert once("k", compute, [source]) == [1, 2]
    assert once("k", compute, [source]) == [1, 2] and len(calls) == 1, "read back, not computed again"
    before = fingerprint([source])
    (source / "deep" / "a.txt").write_text("two")
    assert fingerprint([source]) != before
    assert once("k", compute, [source]) == [2, 2] and len(calls) == 2, "a changed input is computed afresh"
    (source / "deep" / "b.txt").write_text("")
    assert once("k", compute, [source]) == [3, 2], "so is an added file"


def test_without_inputs_or_a_shared_folder_it_just_computes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(SHARED_ENV, raising=False)
    calls: list[int] = []
    assert once("k", lambda: calls.append(1) or len(calls)) == 1
    assert once("k", lambda: calls.append(1) or len(calls)) == 2

"""Shared paths: the repository's fixtures and golden dumps, and the real samples through
``GAMEBIN_SAMPLES`` (tests that need them are skipped without it, saying so)."""

import json
import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "fixtures"
GOLDEN = REPO / "tests" / "golden"


def fixture(folder: str, name: str) -> Path:
    return FIXTURES / folder / name


def golden(name: str) -> dict:
    """The CLI's `dump --json` of a fixture, as checked in by the Rust tests."""
    return json.loads((GOLDEN / f"{name}.dump.json").read_text(encoding="utf-8"))


def samples() -> Path:
    root = os.environ.get("GAMEBIN_SAMPLES")
    if not root:
        pytest.skip("needs GAMEBIN_SAMPLES (the real samples' directory)")
    path = Path(root)
    if not path.is_absolute():
        # CI sets it relative to the repository (../shared/samples).
        path = (REPO / path) if (REPO / path).exists() else path.resolve()
    return path


def all_fixtures():
    return sorted(p for p in FIXTURES.glob("*/*") if p.is_file() and p.suffix != ".md")

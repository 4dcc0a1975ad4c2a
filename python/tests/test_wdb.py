"""`.wdb`: records against the independent Python oracle's output for the real samples and the
golden dumps of the fixtures."""

import json

import numpy as np
import pytest

import gamebin
from conftest import fixture, golden, samples


def same_value(got, want):
    if isinstance(want, float):
        # The files hold float32; the oracle prints them rounded.
        return np.float32(got) == np.float32(want)
    return got == want


def check_records(wdb, expected_records):
    assert len(wdb.records) == len(expected_records)
    for got, want in zip(wdb.records, expected_records):
        # The dump marks a u64 field's type in its key (`u64Size(uint64)`).
        want = {k.split("(")[0]: v for k, v in want.items()}
        assert got.keys() == want.keys()
        for key in want:
            assert same_value(got[key], want[key]), (want["record"], key, got[key], want[key])


@pytest.mark.parametrize("name", ["items", "no_string", "ps3_u64", "string_arrays"])
def test_fixtures_match_the_golden_dump(name):
    wdb = gamebin.WdbFile(fixture("ff13-wdb", f"{name}.wdb"))
    expected = golden(f"{name}.wdb")
    assert wdb.field_names == expected["!structitem"]
    assert wdb.sheet_name == expected.get("!!sheetname")
    check_records(wdb, expected["records"])


@pytest.mark.parametrize(
    "name",
    ["bartz24_ffmoddingwpf_lr_monster_book", "bartz24_ffmoddingwpf_xiii2_btstab00032"],
)
def test_real_samples_match_the_oracle(name):
    root = samples() / "ff13-wdb"
    expected = json.loads((root / "expected" / f"{name}.oracle.json").read_text())
    wdb = gamebin.open(root / f"{name}.wdb")
    assert isinstance(wdb, gamebin.WdbFile)
    assert len(wdb) == expected["recordCount"]
    assert wdb.field_names == expected["!structitem"]
    assert wdb.version == expected["!!version"]
    check_records(wdb, expected["records"])


def test_structured_array_and_dicts():
    wdb = gamebin.WdbFile(fixture("ff13-wdb", "items.wdb"))
    table = wdb.to_records()
    assert table.dtype.names == ("record", *wdb.field_names)
    assert list(table["record"]) == [r["record"] for r in wdb.records]
    assert table["fWeight"].dtype == np.float32
    assert wdb.to_records(numpy=False) == wdb.records


def test_xiii1_cells_without_names():
    wdb = gamebin.WdbFile(fixture("ff13-wdb", "xiii1_cells.wdb"))
    expected = golden("xiii1_cells.wdb")
    assert wdb.game == "xiii"
    assert len(wdb) == int(expected["recordCount"])
    assert [r["record"] for r in wdb.records] == [r["record"] for r in expected["records"]]
    # The cells under the keys `dump --json` gives them, with the same values (the dump writes
    # bit-packed cells as hex text).
    for got, want in zip(wdb.records, expected["records"]):
        assert list(got) == list(want)
        for key, value in want.items():
            if isinstance(value, str) and value.startswith("0x"):
                assert got[key] == int(value, 16), key
            elif isinstance(value, float):
                assert abs(got[key] - value) <= 1e-6 * max(1.0, abs(value)), key
            else:
                assert got[key] == value, key


def test_pandas_when_installed():
    pd = pytest.importorskip("pandas")
    frame = gamebin.WdbFile(fixture("ff13-wdb", "items.wdb")).to_pandas()
    assert isinstance(frame, pd.DataFrame)

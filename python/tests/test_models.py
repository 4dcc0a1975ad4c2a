"""`.wdata` and Project.dat: the owned models as dicts, against the golden dumps and the
samples' SOURCES.txt."""

import pytest

import gamebin
from conftest import FIXTURES, golden, samples

WDATA = sorted((FIXTURES / "rusty-hearts-wdata").glob("*.wdata"))


@pytest.mark.parametrize("path", WDATA, ids=lambda p: p.name)
def test_wdata_model_matches_the_golden_dump(path):
    m = gamebin.open(path)
    assert isinstance(m, gamebin.WdataMap)
    try:
        expected = golden(path.name)
    except FileNotFoundError:
        pytest.skip("no golden dump for this fixture")
    model = m.to_dict()
    shared = [k for k in model if k in expected]
    assert "version" in shared and len(shared) > 5
    for key in shared:
        assert model[key] == expected[key], key


@pytest.mark.parametrize(
    "name,entries,controls",
    [
        ("AntarkaGame_CS_ConnectionWar_Project.dat", 334, 50),
        ("AntarkaGame_CS_Glanduff_Project.dat", 307, 79),
        ("AntarkaGame_CS_Monochrome_Project.dat", 481, 102),
    ],
)
def test_craftstudio_samples(name, entries, controls):
    p = gamebin.open(samples() / "craftstudio-project" / name)
    assert isinstance(p, gamebin.CraftStudioProject)
    assert len(p.entries) == entries
    assert len(p.controls) == controls
    d = p.to_dict()
    assert (d["format_version"], d["project_type"], d["script_api_version"]) == (9, 0, 5)
    assert d["trailing"] == b""


def test_craftstudio_fixture_matches_the_golden_dump():
    p = gamebin.open(FIXTURES / "craftstudio-project" / "every_type.Project.dat")
    expected = golden("every_type.Project.dat")
    assert len(p.entries) == expected["entry_count"]
    assert [c["name"] for c in p.controls] == [c["name"] for c in expected["controls"]]
    assert p["name"] == expected["header"]["name"]

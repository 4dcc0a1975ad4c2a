"""`.wdata` and Project.dat: the owned models as dicts, against the golden dumps and the
samples' SOURCES.txt."""

import json

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


# The EventBox type names by type index (type 14, UnusedBox, is kept raw and is not a box list).
TYPE_NAMES = [
    "CameraBox", "RespawnBox", "StartPointBox", "TriggerBox", "SkidBox", "EventHitBox",
    "NpcBox", "PortalBox", "SelectMapPortalBox", "InAreaBox", "EtcBox", "CameraBlockBox",
    "CutoffBox", "CameraTargetBox", "UnusedBox", "MiniMapIconBox", "EnvironmentReverbBox",
    "WaypointBox", "ObstacleBox",
]
ALL_TYPES = [t for t in range(19) if t != 14]

# The writer's fixture plans, as tests/wdata.rs writes them down: per fixture the EventBox types
# that have records, the first listed with two records and the others with one (None: no EventBox
# section, main version below 7).
EVENT_BOX_PLANS = {
    "v01-minimal.wdata": None,
    "v02-empty-sections.wdata": None,
    "v06-sections.wdata": None,
    "v07-all-event-boxes.wdata": ALL_TYPES,
    "v08-ev2.wdata": [13, 0, 17],
    "v09-ev3-peer-triggers.wdata": [0, 3, 13],
    "v10-ev4-path-times.wdata": [0],
    "v11-ev4-cues.wdata": [17],
    "v12-ev4-sounds.wdata": [0],
    "v13-ev4-script-lists.wdata": [0, 5],
    "v14-ev5.wdata": [0],
    "v15-ev5-scene-timing.wdata": [5, 0],
    "v16-ev6-sound-fades.wdata": [0, 17],
    "v17-ev7-ambients.wdata": [0, 1, 2, 13],
    "v18-ev8-script-counts.wdata": [13],
    "v19-ev8-scene-camera.wdata": [0, 13],
    "v20-ev9-scene-pass2.wdata": [3, 0],
    "v21-scene-names.wdata": [0, 6, 7],
    "v22-all-event-boxes.wdata": ALL_TYPES,
    "v22-peer-triggers.wdata": [0, 18],
}


def test_every_wdata_fixture_has_a_plan():
    assert sorted(EVENT_BOX_PLANS) == [p.name for p in WDATA]


@pytest.mark.parametrize("path", WDATA, ids=lambda p: p.name)
def test_wdata_event_boxes_as_the_writer_planned_them(path):
    m = gamebin.WdataMap(path)
    plan = EVENT_BOX_PLANS[path.name]
    if plan is None:
        assert m.event_boxes == [] and m.event_boxes_by_type == {}
        return
    # Names are "<TypeName><type × 10 + j>", positions start at that seed, rotation fixed.
    expected = []
    for i, ty in enumerate(plan):
        for j in range(2 if i == 0 else 1):
            k = ty * 10 + j
            expected.append((TYPE_NAMES[ty], f"{TYPE_NAMES[ty]}{k}", [k, k + 1, k + 2]))
    # The flat list runs in type order, then record order.
    expected.sort(key=lambda e: TYPE_NAMES.index(e[0]))
    boxes = m.event_boxes
    assert isinstance(boxes, list)
    assert [(b["type"], b["obb"]["name"], b["obb"]["position"]) for b in boxes] == expected
    assert all(b["obb"]["rotation"] == [0.0, 0.25, 0.5, 0.75] for b in boxes)
    by_type = m.event_boxes_by_type
    assert list(by_type) == [n for n in TYPE_NAMES if n != "UnusedBox"]
    for ty, name in enumerate(TYPE_NAMES):
        if ty != 14:
            count = (2 if plan[0] == ty else 1) if ty in plan else 0
            assert len(by_type[name]) == count, name
    # The grouped form is the dump's, and the flat list adds nothing but the type name.
    golden_boxes = golden(path.name)["event_boxes"]
    assert all(by_type[n] == golden_boxes[n] for n in by_type)
    assert [{k: v for k, v in b.items() if k != "type"} for b in boxes] == [
        b for n in by_type for b in golden_boxes[n]
    ]


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
    # The dump is the owned model (ProjectFile) beside the file's facts: every entry, every
    # header field and every control field must agree with what Python gives.
    # (revisions are (id, date) tuples in Python, pairs as JSON arrays in the dump)
    assert json.loads(json.dumps(p.entries)) == expected["entries"]
    d = p.to_dict()
    for key in (
        "format_version",
        "project_type",
        "name",
        "startup_scene_id",
        "script_api_version",
        "membership_policy",
        "default_member_role",
        "description",
        "next_control_id",
        "next_entry_id",
    ):
        assert d[key] == expected[key], key
    assert d["trailing"].hex() == expected["trailing"]
    assert len(p.controls) == len(expected["controls"])
    for got, want in zip(p.controls, expected["controls"]):
        want = dict(want, source=want.pop("control_source"))
        assert got.keys() == want.keys()
        for key, value in want.items():
            if isinstance(value, float):
                assert got[key] == pytest.approx(value, rel=1e-6), key
            else:
                assert got[key] == value, key

//! Hand-computed expectations for the `.wdata` writer: for versions 1, 7, 9, 20 and 22 the
//! expected bytes of the committed fixtures are assembled here field by field, in the read order
//! of `specs/rusty-hearts-wdata.notes.md`, with the version gates spelled out per version (not
//! computed from a version number), and compared with what the writer makes. Offsets and lengths
//! are also checked against literal numbers worked out by hand from the notes (the arithmetic is
//! in the comments). Nothing here calls the writer's encoding functions: only `fixtures()`,
//! `to_bytes()` and the public model are used, so a wrong gate in the writer fails these tests.
//! The last section checks what the writer refuses: models the version cannot express.
#![cfg(feature = "write")]

use gamebin::WriteErrorKind;
use gamebin::synth::wdata::{self, fixture_maps, fixtures};
use gamebin::synth::wdata_large::large_map;
use gamebin::wdata::Signpost;
use gamebin::wdata::model::*;

/// A tiny byte assembler: little-endian numbers and `u16`-counted UTF-16LE strings.
#[derive(Default)]
struct B(Vec<u8>);

impl B {
    fn i32(&mut self, v: i32) -> &mut B {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn u32(&mut self, v: u32) -> &mut B {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn f32(&mut self, v: f32) -> &mut B {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn fs(&mut self, vs: &[f32]) -> &mut B {
        for &v in vs {
            self.f32(v);
        }
        self
    }
    /// `u16` count of code units, then the code units.
    fn s(&mut self, text: &str) -> &mut B {
        let units: Vec<u16> = text.encode_utf16().collect();
        self.0
            .extend_from_slice(&u16::try_from(units.len()).unwrap().to_le_bytes());
        for u in units {
            self.0.extend_from_slice(&u.to_le_bytes());
        }
        self
    }
    fn len(&self) -> usize {
        self.0.len()
    }
}

fn fixture(name: &str) -> Vec<u8> {
    wdata::fixtures()
        .unwrap()
        .into_iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("no fixture {name}"))
        .1
}

/// Compares byte for byte and reports the first difference's offset.
fn assert_same(name: &str, got: &[u8], want: &[u8]) {
    if let Some(i) = got.iter().zip(want).position(|(a, b)| a != b) {
        panic!(
            "{name}: first difference at {i:#x}: writer {:02x?}, hand {:02x?}",
            &got[i..got.len().min(i + 16)],
            &want[i..want.len().min(i + 16)]
        );
    }
    assert_eq!(got.len(), want.len(), "{name}: length (writer vs hand)");
}

fn le_i32(bytes: &[u8], at: usize) -> i32 {
    i32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}

/// The index entries (offset, count) of the EventBox index that starts at `at` (typeCount first).
fn index(bytes: &[u8], at: usize) -> Vec<(i32, i32)> {
    let n = le_i32(bytes, at) as usize;
    (0..n)
        .map(|i| (le_i32(bytes, at + 4 + i * 8), le_i32(bytes, at + 8 + i * 8)))
        .collect()
}

// ---- shared pieces, from the notes --------------------------------------------------------

/// `wstr signature` ("stairwaygames." + NUL, count 15).
fn signature(b: &mut B) {
    b.s("stairwaygames.\0");
}

/// OBB: `wstr name; f32 pos[3]; f32 scale[3]; f32 rot[4]; f32 extents[3]` with the fixtures'
/// values (position seeded by k).
fn obb(b: &mut B, name: &str, k: f32) {
    b.s(name)
        .fs(&[k, k + 1.0, k + 2.0])
        .fs(&[1.5, 2.5, 3.5])
        .fs(&[0.0, 0.25, 0.5, 0.75])
        .fs(&[4.0, 5.0, 6.0]);
}

/// The 21 floats of CameraInfo `i`: position, rotation, FOV, 14 frustum values.
fn camera_floats(b: &mut B, i: usize) {
    let n = i as f32;
    b.fs(&[n, 0.0, -n]).fs(&[0.5, 1.5, 2.5]).f32(60.0 + n);
    for j in 0..14 {
        b.f32(j as f32 * 0.5);
    }
}

/// Trigger `i` of the peer layout: Name, Comment, evCnt, condCnt, actCnt, the three lists.
fn peer_trigger(b: &mut B, i: usize) {
    b.s(&format!("trigger{i}")).s("문을 연다");
    b.i32(1).i32(0).i32(2);
    b.s("OnEnter");
    b.s("OpenDoor").s("PlaySound");
}

/// The triggers' common prefix: reserved0, scriptDir, reserved1, mainScript.
fn trigger_prefix(b: &mut B) {
    b.i32(0).s(".\\").i32(0).s("main.lua");
}

// ---- version 1 ----------------------------------------------------------------------------

#[test]
fn v01_bytes_by_hand() {
    let mut b = B::default();
    signature(&mut b);
    b.i32(1); // Version; nothing else in the header below 7
    b.s("map\\v01.mmp").s("map\\nav.nav"); // ModelPath, NavMeshPath (no NavHeightPath below 2)
    b.s(".\\"); // EventBoxPath; no EventBoxes below 7
    // AniBG (sub-version 0: no Shadow/MoveWeight/PVSRad)
    b.i32(1);
    obb(&mut b, "AniBG0", 0.0);
    b.s("bg\\tree.mdata").s("sway").u32(1).i32(1).i32(2);
    // ItemBox (sub-version 0: no OpenEnable)
    b.i32(1);
    obb(&mut b, "ItemBox0", 0.0);
    b.s("item\\chest.mdata")
        .s("open")
        .s("table\\chest.rh")
        .u32(0);
    // Gimmick
    b.i32(1);
    obb(&mut b, "Gimmick0", 0.0);
    b.s("gimmick\\lever.mdata").s("pull");
    b.i32(1).i32(2).i32(3).i32(1).i32(0).i32(42);
    // no ObstaclePath below 2; MocPath, AniBGPath
    b.s("cut\\intro.moc").s(".\\");
    // Triggers (peer layout)
    trigger_prefix(&mut b);
    b.i32(1);
    peer_trigger(&mut b, 0);
    // Scenes: first pass only (File + 3 preview fades below 15)
    b.i32(1).s("scene0.mec").fs(&[0.5, 1.0, 1.5]);
    // SceneResources below 10: Key, aliases, paths with Delay, no Time/Hold, BlendTime between
    b.i32(1).s("res0").i32(1).s("alias0").i32(2).f32(0.5);
    b.s("npc.mdata").s("walk").s("actor").s("ev").f32(0.25);
    b.s("npc.mdata").s("talk").s("actor").s("ev");
    // (no cues below 11, no sound block below 12, no ambients below 17)

    let got = fixture("v01-minimal.wdata");
    assert_same("v01", &got, &b.0);
    // 32 signature + 4 version + 24 "map\v01.mmp" + 24 "map\nav.nav" + 6 ".\" = 90
    // AniBG 4 + 66 obb("AniBG0") + 28 + 10 + 12 = 120 → 210
    // ItemBox 4 + 70 + 34 + 10 + 30 + 4 = 152 → 362; Gimmick 4 + 70 + 40 + 10 + 24 = 148 → 510
    // MocPath 28 + AniBGPath 6 → 544; Triggers 4+6+4+18 + 4 + 96 = 132 → 676
    // Scenes 4 + 22 + 12 = 38 → 714; SceneResources 4 + 10 + 4 + 14 + 4 + 4 + 52 + 48 = 140 → 854
    assert_eq!(got.len(), 854);
}

// ---- version 7: EventBox version 1, AniBG 2, ItemBox 2, every EventBox type ----------------

/// CameraBox at evVer 1: no Category; CameraTarget only in the first CameraInfo; no BuildPVS,
/// no lists.
fn camera_box_ev1(b: &mut B, name: &str, k: f32) {
    obb(b, name, k);
    for i in 0..4 {
        if i == 0 {
            b.s("target0");
        }
        b.s(&format!("cam{i}"));
        camera_floats(b, i);
    }
}

#[test]
fn v07_bytes_by_hand() {
    let mut b = B::default();
    signature(&mut b);
    b.i32(7).i32(1).i32(2).i32(2); // Version, EventBoxVersion, AniBGVersion, ItemBoxVersion
    b.s("map\\v07.mmp").s("map\\nav.nav").s(".\\").s(".\\"); // Model, NavMesh, NavHeight, EventBox
    // The index: 19 entries; the offsets are the literal numbers worked out below.
    b.i32(19);
    let offsets: [i32; 19] = [
        264, 1196, 1340, 1428, 1530, 1626, 1764, 1854, 1970, 2076, 2172, 2248, 2336, 2418, 2518,
        2518, 2610, 2714, 2824,
    ];
    let counts = [2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1];
    for (o, c) in offsets.iter().zip(counts) {
        b.i32(*o).i32(c);
    }
    assert_eq!(b.len(), 264);
    camera_box_ev1(&mut b, "CameraBox0", 0.0);
    camera_box_ev1(&mut b, "CameraBox1", 1.0);
    assert_eq!(b.len(), 1196);
    obb(&mut b, "RespawnBox10", 10.0);
    b.i32(10)
        .i32(3)
        .s("goblin")
        .f32(2.5)
        .s("spawn")
        .u32(1)
        .u32(0);
    b.u32(1).u32(0).u32(1).u32(0).u32(1);
    obb(&mut b, "StartPointBox20", 20.0);
    b.i32(20);
    obb(&mut b, "TriggerBox30", 30.0);
    b.i32(1).s("open").s("idle"); // no signpost below evVer 9
    obb(&mut b, "SkidBox40", 40.0);
    b.i32(2).fs(&[1.0, 0.0, -1.0]).f32(0.5).f32(1.25);
    obb(&mut b, "EventHitBox50", 50.0);
    b.i32(3).s("trap").f32(12.5).fs(&[0.0, 0.0, 1.0]).s("hit");
    b.i32(2).i32(1).fs(&[0.25, 0.75]).f32(1.0);
    obb(&mut b, "NpcBox60", 60.0);
    b.s("마을 촌장").i32(100).i32(1);
    obb(&mut b, "PortalBox70", 70.0);
    b.s("dungeon01").i32(1).i32(2).i32(300).i32(4).u32(1);
    obb(&mut b, "SelectMapPortalBox80", 80.0);
    b.i32(2).i32(3).u32(0);
    obb(&mut b, "InAreaBox90", 90.0);
    b.s("field").i32(5).u32(1);
    obb(&mut b, "EtcBox100", 100.0);
    b.i32(6);
    obb(&mut b, "CameraBlockBox110", 110.0);
    obb(&mut b, "CutoffBox120", 120.0);
    b.i32(7);
    obb(&mut b, "CameraTargetBox130", 130.0);
    b.s("boss"); // evVer < 8: a name; evVer < 2: no TargetLocalPC
    obb(&mut b, "MiniMapIconBox150", 150.0);
    b.i32(8);
    obb(&mut b, "EnvironmentReverbBox160", 160.0);
    b.i32(9);
    obb(&mut b, "WaypointBox170", 170.0);
    b.i32(10).f32(3.5).i32(2).i32(11).i32(12).f32(2.0).f32(4.5);
    obb(&mut b, "ObstacleBox180", 180.0);
    assert_eq!(b.len(), 2906);
    // AniBG at version 2: no Shadow
    b.i32(1);
    obb(&mut b, "AniBG0", 0.0);
    b.s("bg\\tree.mdata").s("sway").u32(1).i32(1).i32(2);
    // ItemBox at version 2: no OpenEnable
    b.i32(1);
    obb(&mut b, "ItemBox0", 0.0);
    b.s("item\\chest.mdata")
        .s("open")
        .s("table\\chest.rh")
        .u32(0);
    b.i32(1);
    obb(&mut b, "Gimmick0", 0.0);
    b.s("gimmick\\lever.mdata").s("pull");
    b.i32(1).i32(2).i32(3).i32(1).i32(0).i32(42);
    b.s(".\\").s("cut\\intro.moc").s(".\\"); // ObstaclePath (v>=2), MocPath, AniBGPath
    trigger_prefix(&mut b);
    b.i32(1);
    peer_trigger(&mut b, 0);
    b.i32(1).s("scene0.mec").fs(&[0.5, 1.0, 1.5]);
    b.i32(1).s("res0").i32(1).s("alias0").i32(2).f32(0.5);
    b.s("npc.mdata").s("walk").s("actor").s("ev").f32(0.25);
    b.s("npc.mdata").s("talk").s("actor").s("ev");

    let got = fixture("v07-all-event-boxes.wdata");
    assert_same("v07", &got, &b.0);

    // Header: 32 signature + 4×4 versions = 48; "map\v07.mmp" 24 → 72; "map\nav.nav" 24 → 96;
    // NavHeightPath 6 → 102; EventBoxPath 6 → 108; typeCount 4 → 112; 19 × 8 = 152 → 264.
    // Group sizes (OBB = 2 + 2·len(name) + 52):
    //   CameraBox "CameraBox0": 74 + info0 (16 "target0" + 10 "cam0" + 84) + 3 × (10 + 84)
    //     = 74 + 110 + 282 = 466, two of them → 264 + 932 = 1196
    //   RespawnBox10: 78 + 8 + 14 + 4 + 12 + 8 + 20 = 144 → 1340
    //   StartPointBox20: 84 ("StartPointBox20": 15 units → 2 + 30 + 52) + 4 = 88 → 1428
    //   TriggerBox30: 78 + 4 + 10 + 10 = 102 → 1530
    //   SkidBox40: 72 + 4 + 12 + 4 + 4 = 96 → 1626
    //   EventHitBox50: 80 + 4 + 10 + 4 + 12 + 8 + 8 + 8 + 4 = 138 → 1764
    //   NpcBox60: 70 + 12 ("마을 촌장": 5 code units) + 8 = 90 → 1854
    //   PortalBox70: 76 + 20 + 16 + 4 = 116 → 1970
    //   SelectMapPortalBox80: 94 + 12 = 106 → 2076
    //   InAreaBox90: 76 + 12 + 8 = 96 → 2172
    //   EtcBox100: 72 + 4 = 76 → 2248
    //   CameraBlockBox110: 88 → 2336
    //   CutoffBox120: 78 + 4 = 82 → 2418
    //   CameraTargetBox130: 90 + 10 ("boss") = 100 → 2518 (type 14 empty: also 2518)
    //   MiniMapIconBox150: 88 + 4 = 92 → 2610
    //   EnvironmentReverbBox160: 100 + 4 = 104 → 2714
    //   WaypointBox170: 82 + 12 + 16 = 110 → 2824
    //   ObstacleBox180: 82 → 2906, where AniBG starts.
    let idx = index(&got, 108);
    assert_eq!(idx.len(), 19);
    for (ty, (&(o, c), (&want_o, want_c))) in idx.iter().zip(offsets.iter().zip(counts)).enumerate()
    {
        assert_eq!((o, c), (want_o, want_c), "index entry of type {ty}");
    }
    assert_eq!(
        le_i32(&got, 2906),
        1,
        "AniBG count right after the last group"
    );
    // After 2906: AniBG 4 + 116 → 3026; ItemBox 4 + 148 → 3178; Gimmick 4 + 144 → 3326;
    // paths 6 + 28 + 6 → 3366; Triggers 36 + 96 → 3498; Scenes 38 → 3536;
    // SceneResources 4 + 136 → 3676.
    assert_eq!(got.len(), 3676);
}

// ---- version 9: EventBox version 3, AniBG 4, ItemBox 3, peer triggers -----------------------

/// CameraBox at evVer 3: no Category; a CameraTarget in every CameraInfo; no BuildPVS (< 5), no
/// lists (< 4).
fn camera_box_ev3(b: &mut B, name: &str, k: f32) {
    obb(b, name, k);
    for i in 0..4 {
        b.s(&format!("target{i}")).s(&format!("cam{i}"));
        camera_floats(b, i);
    }
}

#[test]
fn v09_bytes_by_hand() {
    let mut b = B::default();
    signature(&mut b);
    // Version, EventBoxVersion, AniBGVersion, ItemBoxVersion, GimmickVersion (>= 8),
    // ScriptCount1 (>= 9)
    b.i32(9).i32(3).i32(4).i32(3).i32(1).i32(3);
    b.s("map\\v09.mmp").s("map\\nav.nav").s(".\\").s(".\\");
    // Header 32 + 6 × 4 = 56; paths 24 + 24 + 6 + 6 → 116; typeCount → 120; 152 → 272.
    // CameraBox (evVer 3) = 74 + 4 × (16 + 10 + 84) = 514, two → 1300 (types 1, 2 empty there);
    // TriggerBox30 = 102 → 1402 (types 4..12 empty there); CameraTargetBox130 = 90 + 10 + 4 =
    // 104 → 1506 (types 14..18 empty there), where AniBG starts.
    let offsets: [i32; 19] = [
        272, 1300, 1300, 1300, 1402, 1402, 1402, 1402, 1402, 1402, 1402, 1402, 1402, 1402, 1506,
        1506, 1506, 1506, 1506,
    ];
    let counts = [2, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0];
    b.i32(19);
    for (o, c) in offsets.iter().zip(counts) {
        b.i32(*o).i32(c);
    }
    assert_eq!(b.len(), 272);
    camera_box_ev3(&mut b, "CameraBox0", 0.0);
    camera_box_ev3(&mut b, "CameraBox1", 1.0);
    obb(&mut b, "TriggerBox30", 30.0);
    b.i32(1).s("open").s("idle"); // evVer 3 < 9: no signpost
    obb(&mut b, "CameraTargetBox130", 130.0);
    b.s("boss").u32(1); // evVer < 8: name; evVer >= 2: TargetLocalPC
    assert_eq!(b.len(), 1506);
    // AniBG version 4: Shadow, MoveWeight, no PVSRad
    b.i32(1);
    obb(&mut b, "AniBG0", 0.0);
    b.s("bg\\tree.mdata")
        .s("sway")
        .u32(1)
        .i32(1)
        .i32(2)
        .u32(1)
        .u32(0);
    // ItemBox version 3: OpenEnable
    b.i32(1);
    obb(&mut b, "ItemBox0", 0.0);
    b.s("item\\chest.mdata")
        .s("open")
        .s("table\\chest.rh")
        .u32(0)
        .u32(1);
    b.i32(1);
    obb(&mut b, "Gimmick0", 0.0);
    b.s("gimmick\\lever.mdata").s("pull");
    b.i32(1).i32(2).i32(3).i32(1).i32(0).i32(42);
    b.s(".\\").s("cut\\intro.moc").s(".\\");
    // The peer trigger layout at version >= 9.
    trigger_prefix(&mut b);
    b.i32(1);
    peer_trigger(&mut b, 0);
    b.i32(1).s("scene0.mec").fs(&[0.5, 1.0, 1.5]);
    b.i32(1).s("res0").i32(1).s("alias0").i32(2).f32(0.5);
    b.s("npc.mdata").s("walk").s("actor").s("ev").f32(0.25);
    b.s("npc.mdata").s("talk").s("actor").s("ev");

    let got = fixture("v09-ev3-peer-triggers.wdata");
    assert_same("v09", &got, &b.0);
    assert_eq!(
        index(&got, 116),
        offsets.into_iter().zip(counts).collect::<Vec<_>>()
    );
    // 1506 + AniBG 4 + 124 + ItemBox 4 + 152 + Gimmick 148 + paths 40 + Triggers 132
    // + Scenes 38 + SceneResources 140 = 2288.
    assert_eq!(got.len(), 2288);
}

// ---- version 20: EventBox version 9, scenes' second pass ----------------------------------

/// CameraInfo lists at evVer 9 (PVS EventBox entries) for main version `main`: the first info
/// has the fixture's lists; render-list items carry an id only from main version 22.
fn camera_lists_ev9(b: &mut B, i: usize, main: i32) {
    if i != 0 {
        for _ in 0..11 {
            b.u32(0);
        }
        return;
    }
    // pvsBg, pvsEv, renderBg, renderAni, renderItem, renderGimmick, noRenderBg, noRenderAni,
    // noRenderItem, noRenderGimmick, buildPos
    for c in [2, 1, 1, 1, 0, 1, 1, 0, 1, 1, 1] {
        b.u32(c);
    }
    b.u32(1).u32(2); // pvsBg ids
    b.u32(4).s("ev"); // evVer >= 6: (category, name)
    for (id, name) in [
        (10, "bg0"),
        (11, "ani0"),
        (13, "gim0"),
        (14, "nbg0"),
        (16, "nitem0"),
        (17, "ngim0"),
    ] {
        if main >= 22 {
            b.u32(id);
        }
        b.s(name);
    }
    b.fs(&[1.0, 2.0, 3.0]); // buildPos
}

/// CameraBox at evVer 9: Category, every CameraInfo with target, BuildPVS and lists.
fn camera_box_ev9(b: &mut B, name: &str, k: f32, main: i32) {
    obb(b, name, k);
    b.u32(7); // Category (evVer >= 7)
    for i in 0..4 {
        b.s(&format!("target{i}")).s(&format!("cam{i}"));
        camera_floats(b, i);
        b.u32(if i == 3 { 2 } else { 1 }); // BuildPVS (evVer >= 5), stored value kept
        camera_lists_ev9(b, i, main);
    }
}

/// TriggerBox at evVer 9: State, ActionMotion, Motion, SignpostTextID, reposition.
fn trigger_box_ev9(b: &mut B, name: &str, k: f32) {
    obb(b, name, k);
    b.i32(1).s("open").s("idle").i32(500).fs(&[0.0, 1.0, 0.0]);
}

/// AniBG 5, ItemBox 3, one Gimmick, ObstaclePath, MocPath, AniBGPath.
fn objects_and_paths_latest(b: &mut B) {
    b.i32(1);
    obb(b, "AniBG0", 0.0);
    b.s("bg\\tree.mdata")
        .s("sway")
        .u32(1)
        .i32(1)
        .i32(2)
        .u32(1)
        .u32(0)
        .f32(30.0);
    b.i32(1);
    obb(b, "ItemBox0", 0.0);
    b.s("item\\chest.mdata")
        .s("open")
        .s("table\\chest.rh")
        .u32(0)
        .u32(1);
    b.i32(1);
    obb(b, "Gimmick0", 0.0);
    b.s("gimmick\\lever.mdata").s("pull");
    b.i32(1).i32(2).i32(3).i32(1).i32(0).i32(42);
    b.s(".\\").s("cut\\intro.moc").s(".\\");
}

/// Scene `i`'s first pass at version >= 19: File, preview fades, Category + 6 floats (>= 15),
/// Position, Rotation, FOV, AspectRatio (>= 19).
fn scene_pass1_latest(b: &mut B, i: usize) {
    b.s(&format!("scene{i}.mec")).fs(&[0.5, 1.0, 1.5]);
    b.u32(i as u32).fs(&[0.25, 0.5, 0.75, 1.0, 10.0, 100.0]);
    b.fs(&[1.0, 2.0, 3.0])
        .fs(&[0.0, 90.0, 0.0])
        .f32(45.0)
        .f32(1.75);
}

/// Scene 0's second pass (after the optional name): ten counts, ids, event entries, the 8 lists
/// (items with a Category from version 22).
fn scene0_pass2_body(b: &mut B, v: i32) {
    // entryCnt, sceneIdCnt, rBg, rAni, rItem, rGim, nBg, nAni, nItem, nGim
    for c in [1, 2, 1, 0, 1, 0, 1, 1, 0, 1] {
        b.i32(c);
    }
    b.u32(1).u32(2);
    b.u32(1).s("intro");
    for (category, key) in [(3, "bg"), (4, "item"), (5, "nbg"), (6, "nani"), (7, "ngim")] {
        if v >= 22 {
            b.u32(category);
        }
        b.s(key);
    }
}

/// Scene resource 0 at version >= 17 (>= 16 fades, no unknown ints / strings above 14).
fn scene_resource0_latest(b: &mut B) {
    b.s("res0").i32(1).s("alias0").i32(2).f32(0.5);
    b.s("npc.mdata")
        .s("walk")
        .s("actor")
        .s("ev")
        .u32(100)
        .u32(200)
        .f32(0.25);
    b.s("npc.mdata")
        .s("talk")
        .s("actor")
        .s("ev")
        .u32(100)
        .u32(200);
    b.i32(1).f32(2.0).s("shake").u32(7).f32(1.0); // cues (>= 11): End, Name, ID, Start
    // sounds (>= 12): Start, FadeIn, FadeOut, VolMax, VolMin (>= 16), Path
    b.i32(1)
        .f32(0.5)
        .fs(&[0.125, 0.25, 1.0, 0.5])
        .s("sound\\boom.wav");
    b.u32(11).u32(22).f32(3.5).u32(44); // Unk1 (>= 13), Unk2, Unk3, Unk4
    b.i32(1).f32(0.0).s("amb\\wind.wav").u32(1).u32(1); // ambients (>= 17)
}

#[test]
fn v20_bytes_by_hand() {
    let mut b = B::default();
    signature(&mut b);
    // Version, EventBox 9, AniBG 5, ItemBox 3, Gimmick 1, ScriptCount1, ScriptConditionCount1
    // (>= 16), ScriptCount2, ScriptConditionCount2 (>= 18)
    b.i32(20)
        .i32(9)
        .i32(5)
        .i32(3)
        .i32(1)
        .i32(3)
        .i32(4)
        .i32(5)
        .i32(6);
    b.s("map\\v20.mmp").s("map\\nav.nav").s(".\\").s(".\\");
    // Header 32 + 9 × 4 = 68; paths 60 → 128; typeCount → 132; 152 → 284.
    // Groups are written in type order. CameraBox0 (evVer 9, main 20) at 284:
    //   74 + 4 Category
    //   + info0: 16 + 10 + 84 + 4 BuildPVS + 44 counts + 8 pvsBg + (4 + 6) pvsEv
    //     + names "bg0" 8, "ani0" 10, "gim0" 10, "nbg0" 10, "nitem0" 14, "ngim0" 12 + 12 buildPos
    //     = 158 + 8 + 10 + 64 + 12 = 252
    //   + 3 × (16 + 10 + 84 + 4 + 44) = 474  → 804, at 284 → 1088.
    // Types 1, 2 empty at 1088; TriggerBox30/31 (evVer 9: 78 + 4 + 10 + 10 + 4 + 12 = 118)
    // 2 × 118 → 1324; types 4..18 empty at 1324.
    let mut offsets = [1324; 19];
    offsets[0] = 284;
    offsets[1] = 1088;
    offsets[2] = 1088;
    offsets[3] = 1088;
    let mut counts = [0; 19];
    counts[0] = 1;
    counts[3] = 2;
    b.i32(19);
    for (o, c) in offsets.iter().zip(counts) {
        b.i32(*o).i32(c);
    }
    camera_box_ev9(&mut b, "CameraBox0", 0.0, 20);
    trigger_box_ev9(&mut b, "TriggerBox30", 30.0);
    trigger_box_ev9(&mut b, "TriggerBox31", 31.0);
    assert_eq!(b.len(), 1324);
    objects_and_paths_latest(&mut b);
    trigger_prefix(&mut b);
    b.i32(1);
    peer_trigger(&mut b, 0);
    // Scenes: 2 first passes, then 2 second passes without Name (< 21), keys without Category
    b.i32(2);
    scene_pass1_latest(&mut b, 0);
    scene_pass1_latest(&mut b, 1);
    scene0_pass2_body(&mut b, 20);
    for _ in 0..10 {
        b.i32(0);
    }
    b.i32(1);
    scene_resource0_latest(&mut b);

    let got = fixture("v20-ev9-scene-pass2.wdata");
    assert_same("v20", &got, &b.0);
    assert_eq!(
        index(&got, 128),
        offsets.into_iter().zip(counts).collect::<Vec<_>>()
    );
    // 1324 + AniBG 4 + 128 + ItemBox 4 + 152 + Gimmick 148 + paths 40 + Triggers 132
    // + Scenes (4 + 2 × 94 + (40 + 8 + 16 + 6 + 10 + 8 + 10 + 10) + 40) = 1932 + 340 = 2272;
    // SceneResource 0: 10 + 4 + 14 + 4 + 4 + 60 + 56 + 28 + 54 + 16 + 42 = 292, with count 296
    // → 2568.
    assert_eq!(got.len(), 2568);
}

// ---- version 22: every EventBox type, script lists, ids and categories ----------------------

#[test]
fn v22_bytes_by_hand() {
    let mut b = B::default();
    signature(&mut b);
    b.i32(22)
        .i32(9)
        .i32(5)
        .i32(3)
        .i32(1)
        .i32(3)
        .i32(4)
        .i32(5)
        .i32(6);
    b.s("map\\v22.mmp").s("map\\nav.nav").s(".\\").s(".\\");
    // Header 68 + paths 60 = 128; typeCount → 132; 152 → 284.
    // CameraBox (main 22 adds a 4-byte id to each of the 6 render items: 804 + 24 = 828),
    // two of them → 284 + 1656 = 1940; RespawnBox10 144 → 2084; StartPointBox20 88 → 2172;
    // TriggerBox30 118 → 2290; SkidBox40 96 → 2386; EventHitBox50 138 → 2524;
    // NpcBox60 90 → 2614; PortalBox70 116 → 2730; SelectMapPortalBox80 106 → 2836;
    // InAreaBox90 96 → 2932; EtcBox100 76 → 3008; CameraBlockBox110 88 → 3096;
    // CutoffBox120 82 → 3178; CameraTargetBox130 (evVer 9: NameTextID + TargetLocalPC)
    // 90 + 8 = 98 → 3276 (type 14 empty there); MiniMapIconBox150 92 → 3368;
    // EnvironmentReverbBox160 104 → 3472; WaypointBox170 110 → 3582; ObstacleBox180 82 → 3664.
    let offsets: [i32; 19] = [
        284, 1940, 2084, 2172, 2290, 2386, 2524, 2614, 2730, 2836, 2932, 3008, 3096, 3178, 3276,
        3276, 3368, 3472, 3582,
    ];
    let counts = [2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1];
    b.i32(19);
    for (o, c) in offsets.iter().zip(counts) {
        b.i32(*o).i32(c);
    }
    camera_box_ev9(&mut b, "CameraBox0", 0.0, 22);
    camera_box_ev9(&mut b, "CameraBox1", 1.0, 22);
    obb(&mut b, "RespawnBox10", 10.0);
    b.i32(10)
        .i32(3)
        .s("goblin")
        .f32(2.5)
        .s("spawn")
        .u32(1)
        .u32(0);
    b.u32(1).u32(0).u32(1).u32(0).u32(1);
    obb(&mut b, "StartPointBox20", 20.0);
    b.i32(20);
    trigger_box_ev9(&mut b, "TriggerBox30", 30.0);
    obb(&mut b, "SkidBox40", 40.0);
    b.i32(2).fs(&[1.0, 0.0, -1.0]).f32(0.5).f32(1.25);
    obb(&mut b, "EventHitBox50", 50.0);
    b.i32(3).s("trap").f32(12.5).fs(&[0.0, 0.0, 1.0]).s("hit");
    b.i32(2).i32(1).fs(&[0.25, 0.75]).f32(1.0);
    obb(&mut b, "NpcBox60", 60.0);
    b.s("마을 촌장").i32(100).i32(1);
    obb(&mut b, "PortalBox70", 70.0);
    b.s("dungeon01").i32(1).i32(2).i32(300).i32(4).u32(1);
    obb(&mut b, "SelectMapPortalBox80", 80.0);
    b.i32(2).i32(3).u32(0);
    obb(&mut b, "InAreaBox90", 90.0);
    b.s("field").i32(5).u32(1);
    obb(&mut b, "EtcBox100", 100.0);
    b.i32(6);
    obb(&mut b, "CameraBlockBox110", 110.0);
    obb(&mut b, "CutoffBox120", 120.0);
    b.i32(7);
    obb(&mut b, "CameraTargetBox130", 130.0);
    b.i32(900).u32(1); // evVer >= 8: NameTextID; TargetLocalPC
    obb(&mut b, "MiniMapIconBox150", 150.0);
    b.i32(8);
    obb(&mut b, "EnvironmentReverbBox160", 160.0);
    b.i32(9);
    obb(&mut b, "WaypointBox170", 170.0);
    b.i32(10).f32(3.5).i32(2).i32(11).i32(12).f32(2.0).f32(4.5);
    obb(&mut b, "ObstacleBox180", 180.0);
    assert_eq!(b.len(), 3664);
    objects_and_paths_latest(&mut b);
    // The seed's script-lists layout (version >= 9): three counts, then the three lists.
    trigger_prefix(&mut b);
    b.i32(1).i32(0).i32(2);
    b.s("event\\a.lua").s("action\\b.lua").s("action\\c.lua");
    b.i32(2);
    scene_pass1_latest(&mut b, 0);
    scene_pass1_latest(&mut b, 1);
    b.s("장면 하나"); // Name (>= 21)
    scene0_pass2_body(&mut b, 22);
    b.s("scene1");
    for _ in 0..10 {
        b.i32(0);
    }
    b.i32(2);
    scene_resource0_latest(&mut b);
    // Resource 1: no aliases, no paths (so no Delay), empty cue / sound / ambient lists.
    b.s("res1").i32(0).i32(0).i32(0).i32(0);
    b.u32(11).u32(22).f32(3.5).u32(44);
    b.i32(0);

    let got = fixture("v22-all-event-boxes.wdata");
    assert_same("v22", &got, &b.0);
    assert_eq!(
        index(&got, 128),
        offsets.into_iter().zip(counts).collect::<Vec<_>>()
    );
    // 3664 + AniBG 132 + ItemBox 156 + Gimmick 148 + paths 40 = 4140; Triggers 32 + 12 + 24
    // + 26 + 26 = 120 → 4260; Scenes 4 + 188 = 192 → 4452; second passes: scene0 12 (name)
    // + 40 + 8 + 16 + elements (4+6, 4+10, 4+8, 4+10, 4+10 = 64) = 140, scene1 14 + 40 = 54
    // → 4646; SceneResources 4 + 292 + 46 = 342 → 4988.
    assert_eq!(got.len(), 4988);
}

// ---- what the writer refuses (a model the version cannot express) ---------------------------

fn plan_map(name: &str) -> WdataModel {
    fixture_maps()
        .into_iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("no fixture {name}"))
        .1
}

fn err_of(map: &WdataModel) -> gamebin::WriteError {
    map.to_bytes()
        .expect_err("the writer must refuse this model")
}

fn invalid_value(e: &gamebin::WriteError) -> u64 {
    match e.kind() {
        WriteErrorKind::InvalidValue { value, .. } => *value,
        other => panic!("expected InvalidValue, got {other:?}"),
    }
}

#[test]
fn fixture_maps_are_the_fixtures() {
    let maps = fixture_maps();
    let files = fixtures().unwrap();
    assert_eq!(maps.len(), files.len());
    for ((name, map), (file_name, bytes)) in maps.iter().zip(&files) {
        assert_eq!(name, file_name);
        assert_eq!(&map.to_bytes().unwrap(), bytes, "{name}");
    }
}

#[test]
fn a_field_the_version_does_not_store_is_an_error() {
    // A main-version-22 render-list id on a version-20 map.
    let mut map = plan_map("v20-ev9-scene-pass2.wdata");
    let boxes = map.event_boxes.as_mut().unwrap();
    let lists = boxes.camera[0].infos[0].lists.as_mut().unwrap();
    lists.render_bg[0].id = Some(1);
    let e = err_of(&map);
    assert_eq!(e.field().unwrap(), "CameraInfo.renderList.id");
    assert_eq!(invalid_value(&e), 20);

    // A version-21 scene name on a version-20 map.
    let mut map = plan_map("v20-ev9-scene-pass2.wdata");
    map.scenes[0].pass2.as_mut().unwrap().name = Some(WString::new("x"));
    assert_eq!(err_of(&map).field().unwrap(), "Scene.Name");

    // A second scene pass on a version-7 map.
    let mut map = plan_map("v07-all-event-boxes.wdata");
    map.scenes[0].pass2 = Some(ScenePass2::default());
    assert_eq!(err_of(&map).field().unwrap(), "Scene.pass2");

    // EventBoxes below version 7.
    let mut map = plan_map("v06-sections.wdata");
    map.event_boxes = Some(EventBoxes::default());
    let e = err_of(&map);
    assert_eq!((e.field().unwrap(), invalid_value(&e)), ("EventBoxes", 6));

    // A TriggerBox signpost at EventBox version 1.
    let mut map = plan_map("v07-all-event-boxes.wdata");
    map.event_boxes.as_mut().unwrap().trigger[0].signpost = Some(Signpost::default());
    let e = err_of(&map);
    assert_eq!(
        (e.field().unwrap(), invalid_value(&e)),
        ("TriggerBox.SignpostTextID", 1)
    );

    // AniBG PVSRad at AniBG version 4.
    let mut map = plan_map("v09-ev3-peer-triggers.wdata");
    map.anibg[0].pvs_radius = Some(1.0);
    assert_eq!(err_of(&map).field().unwrap(), "AniBG.PVSRad");

    // Unknown ints of the sound block above version 14.
    let mut map = plan_map("v15-ev5-scene-timing.wdata");
    map.scene_resources[0].sound.as_mut().unwrap().unknown_ints = Some([0; 7]);
    assert_eq!(err_of(&map).field().unwrap(), "SceneResource.unknownInts");

    // A NavHeightPath at version 1.
    let mut map = plan_map("v01-minimal.wdata");
    map.nav_height_path = Some(WString::new(".\\"));
    assert_eq!(err_of(&map).field().unwrap(), "Header.NavHeightPath");
}

#[test]
fn a_field_the_version_stores_must_be_present() {
    let mut map = plan_map("v08-ev2.wdata");
    map.gimmick_version = None;
    let e = err_of(&map);
    assert_eq!(
        (e.field().unwrap(), invalid_value(&e)),
        ("Header.GimmickVersion", 8)
    );
    // Named by the model's key for it.
    assert_eq!(e.path(), "gimmick_version");

    let mut map = plan_map("v22-all-event-boxes.wdata");
    map.scene_resources[0].ambients = None;
    assert_eq!(err_of(&map).field().unwrap(), "SceneResource.ambientCnt");

    let mut map = plan_map("v22-all-event-boxes.wdata");
    map.event_boxes.as_mut().unwrap().camera[1].infos[2].camera_target = None;
    assert_eq!(err_of(&map).field().unwrap(), "CameraInfo.CameraTarget");
}

#[test]
fn a_layout_variant_of_the_wrong_version_is_an_error() {
    let mut map = plan_map("v08-ev2.wdata");
    map.triggers.layout = TriggerLayout::ScriptLists {
        event_scripts: Vec::new(),
        condition_scripts: Vec::new(),
        action_scripts: Vec::new(),
    };
    let e = err_of(&map);
    assert_eq!(
        (e.field().unwrap(), invalid_value(&e)),
        ("Triggers.layout", 8)
    );

    let mut map = plan_map("v16-ev6-sound-fades.wdata");
    let lists = map.event_boxes.as_mut().unwrap().camera[0].infos[0]
        .lists
        .as_mut()
        .unwrap();
    lists.pvs_event_boxes = PvsEventBoxes::Ids(vec![1]);
    let e = err_of(&map);
    assert_eq!(
        (e.field().unwrap(), invalid_value(&e)),
        ("CameraInfo.PVS_EventBox", 6)
    );

    let mut map = plan_map("v19-ev8-scene-camera.wdata");
    map.event_boxes.as_mut().unwrap().camera_target[0].target =
        CameraTargetName::Name(WString::new("boss"));
    assert_eq!(err_of(&map).field().unwrap(), "CameraTargetBox.NameTextID");
}

#[test]
fn delay_and_blend_time_follow_the_paths() {
    let mut map = plan_map("v22-all-event-boxes.wdata");
    assert!(map.scene_resources[1].paths.is_empty());
    map.scene_resources[1].delay = Some(1.0);
    let e = err_of(&map);
    assert_eq!(
        (e.field().unwrap(), invalid_value(&e)),
        ("SceneResource.Delay", 0)
    );

    // Paths without their delay: named where the reader finds the delay, after the path count.
    let mut map = plan_map("v22-all-event-boxes.wdata");
    let bytes = map.to_bytes().unwrap();
    let view = gamebin::wdata::WdataView::from_bytes(&bytes).unwrap();
    let first = view.scene_resources().iter().next().unwrap().unwrap();
    assert!(first.delay.is_some() && !first.paths.is_empty());
    map.scene_resources[0].delay = None;
    let e = err_of(&map);
    assert_eq!(
        (e.field().unwrap(), invalid_value(&e), e.path()),
        (
            "SceneResource.Delay",
            first.paths.len() as u64,
            "scene_resources[0].delay"
        )
    );

    let mut map = plan_map("v22-all-event-boxes.wdata");
    map.scene_resources[0].paths[1].blend_time = Some(1.0);
    let e = err_of(&map);
    assert_eq!(
        (e.field().unwrap(), invalid_value(&e)),
        ("SceneData.BlendTime", 1)
    );
}

#[test]
fn a_string_over_65535_code_units_is_an_error() {
    let mut map = plan_map("v01-minimal.wdata");
    map.model_path = WString {
        units: vec![u16::from(b'a'); 65_536],
    };
    let e = err_of(&map);
    assert_eq!(
        (e.field().unwrap(), invalid_value(&e)),
        ("Header.ModelPath", 65_536)
    );
    assert_eq!(e.path(), "model_path");

    // 65,535 is the largest count a u16 holds, and is fine.
    map.model_path.units.pop();
    let bytes = map.to_bytes().unwrap();
    assert_eq!(&bytes[36..38], &[0xff, 0xff]);
}

#[test]
fn signature_keeps_its_nul_and_strings_their_units() {
    let sig = WString::nul_terminated(SIGNATURE);
    assert_eq!(sig.units.len(), 15);
    assert_eq!(sig.to_string_lossy(), SIGNATURE);
    assert!(WString::new(NO_PATH).is_no_path());
    assert!(!WString::new("a.mmp").is_no_path());
    let bytes = fixture("v02-empty-sections.wdata");
    assert_eq!(&bytes[..4], &[15, 0, b's', 0]);
    assert_eq!(&bytes[30..32], &[0, 0], "the trailing NUL code unit");
    // An unpaired surrogate is kept as stored.
    let mut map = plan_map("v02-empty-sections.wdata");
    map.moc_path = WString {
        units: vec![0xD800, u16::from(b'x')],
    };
    let bytes = map.to_bytes().unwrap();
    let at = bytes
        .windows(6)
        .position(|w| w == [2, 0, 0x00, 0xD8, b'x', 0])
        .is_some();
    assert!(at);
}

#[test]
fn fewer_index_entries_and_a_raw_type_14_group() {
    // Ten index entries: the boxes of types 0..=9 only.
    let mut map = plan_map("v13-ev4-script-lists.wdata");
    map.event_boxes.as_mut().unwrap().type_count = 10;
    let bytes = map.to_bytes().unwrap();
    // Header: signature 32 + 6 × 4 = 56; "map\v13.mmp" 24, "map\nav.nav" 24, 6, 6 → 116.
    assert_eq!(le_i32(&bytes, 116), 10);
    // The first group right after the 10 entries: 116 + 4 + 10 × 8 = 200.
    assert_eq!(le_i32(&bytes, 120), 200);

    // A waypoint (type 17) cannot be written with ten entries.
    map.event_boxes
        .as_mut()
        .unwrap()
        .waypoint
        .push(WaypointBox::default());
    let e = err_of(&map);
    assert_eq!(
        (e.field().unwrap(), invalid_value(&e)),
        ("EventBoxes.typeCount", 10)
    );

    // More than 19 entries needs a raw group for each entry beyond type 18.
    map.event_boxes.as_mut().unwrap().type_count = 20;
    assert_eq!(err_of(&map).field().unwrap(), "EventBoxes.typeCount");

    // A type-14 group is written as its raw bytes with its count, and reads back as written.
    // Every box starts with an OBB: 2 bytes of name length and 13 floats, 54 bytes at the least.
    let mut map = plan_map("v22-peer-triggers.wdata");
    map.event_boxes.as_mut().unwrap().unused = RawGroup {
        count: 1,
        bytes: vec![0xAB; 60],
    };
    let bytes = map.to_bytes().unwrap();
    let index_at = 128; // header 68 + paths 60
    let entries = index(&bytes, index_at);
    let (offset14, count14) = entries[14];
    assert_eq!(count14, 1);
    let offset14 = offset14 as usize;
    assert_eq!(&bytes[offset14..offset14 + 60], &[0xAB; 60]);
    assert_eq!(entries[15].0 as usize, offset14 + 60);
    let view = gamebin::wdata::WdataView::from_bytes(&bytes).unwrap();
    assert_eq!(WdataModel::from_view(&view).unwrap(), map);

    // Bytes without a count are refused.
    map.event_boxes.as_mut().unwrap().unused.count = 0;
    assert_eq!(err_of(&map).field().unwrap(), "EventBoxes.RawGroup.count");

    // A count whose boxes cannot fit the bytes is refused: the reader would take the group for a
    // damaged one, and a count with no bytes at all would start two groups at one offset (found
    // by the interchange fuzz target).
    for (count, len) in [(1, 53), (1, 0), (2, 107)] {
        map.event_boxes.as_mut().unwrap().unused = RawGroup {
            count,
            bytes: vec![0xAB; len],
        };
        let e = err_of(&map);
        assert_eq!(
            e.field().unwrap(),
            "EventBoxes.RawGroup.raw_hex",
            "{count} boxes in {len} bytes"
        );
        assert_eq!(invalid_value(&e), len as u64);
    }
}

#[test]
fn index_entries_beyond_type_18_are_written_as_raw_groups() {
    let mut map = plan_map("v22-peer-triggers.wdata");
    let boxes = map.event_boxes.as_mut().unwrap();
    boxes.type_count = 21;
    boxes.beyond = vec![
        RawGroup {
            count: 2,
            bytes: vec![0xCD; 108],
        },
        RawGroup::default(),
    ];
    let bytes = map.to_bytes().unwrap();
    let entries = index(&bytes, 128); // header 68 + paths 60
    assert_eq!(entries.len(), 21);
    let (offset19, count19) = entries[19];
    assert_eq!(count19, 2);
    // Type 19 is written after type 18.
    assert!(offset19 > entries[18].0);
    let at = offset19 as usize;
    assert_eq!(&bytes[at..at + 108], &[0xCD; 108]);
    // The empty type 20 starts where type 19 ends, and so bounds it for the reader.
    assert_eq!(entries[20], (offset19 + 108, 0));
    let view = gamebin::wdata::WdataView::from_bytes(&bytes).unwrap();
    assert_eq!(WdataModel::from_view(&view).unwrap(), map);

    // A group of unknown layout with boxes in the index's last entry has nothing after it to
    // mark its end: refused, where the reader would refuse the file.
    let boxes = map.event_boxes.as_mut().unwrap();
    boxes.beyond.swap(0, 1);
    let e = err_of(&map);
    assert_eq!(
        (e.field().unwrap(), invalid_value(&e)),
        ("EventBoxes.typeCount", 21)
    );

    // One raw group fewer than the entries beyond 18, or one too many, is refused.
    let boxes = map.event_boxes.as_mut().unwrap();
    let extra = boxes.beyond.pop().unwrap();
    assert_eq!(err_of(&map).field().unwrap(), "EventBoxes.typeCount");
    let boxes = map.event_boxes.as_mut().unwrap();
    boxes.beyond.extend([extra.clone(), extra]);
    assert_eq!(err_of(&map).field().unwrap(), "EventBoxes.typeCount");

    // An empty entry beyond 18 reads back into the model (a non-empty one written last has
    // nothing after it to bound it, so the reader refuses it, as for type 14).
    let boxes = map.event_boxes.as_mut().unwrap();
    boxes.type_count = 20;
    boxes.beyond = vec![RawGroup::default()];
    let bytes = map.to_bytes().unwrap();
    let view = gamebin::wdata::WdataView::from_bytes(&bytes).unwrap();
    assert_eq!(WdataModel::from_view(&view).unwrap(), map);
}

#[test]
fn large_map_is_large_and_deterministic() {
    let a = large_map(200).to_bytes().unwrap();
    let b = large_map(200).to_bytes().unwrap();
    assert_eq!(a, b);
    let boxes = large_map(200).event_boxes.unwrap();
    assert_eq!(boxes.camera.len(), 200);
    assert_eq!(boxes.obstacle.len(), 200);
    assert_eq!(boxes.unused, RawGroup::default());
    assert!(a.len() > 400_000, "{} bytes", a.len());
}

// ---- what the fixtures cover (the claims of the fixtures' docs, checked) --------------------

#[test]
fn fixtures_cover_every_version_type_and_gate() {
    use std::collections::BTreeSet;
    let maps = fixture_maps();
    let versions: BTreeSet<i32> = maps.iter().map(|(_, m)| m.version).collect();
    // Every gate of the notes is a main version in 2, 7..=22 (or "<= 13", "<= 14"): a fixture on
    // both sides of each needs versions 1, 2 and 6..=22.
    let mut want: BTreeSet<i32> = (6..=22).collect();
    want.extend([1, 2]);
    assert!(
        want.is_subset(&versions),
        "missing versions: {:?}",
        want.difference(&versions)
    );

    let boxes: Vec<(&WdataModel, &EventBoxes)> = maps
        .iter()
        .filter_map(|(_, m)| m.event_boxes.as_ref().map(|b| (m, b)))
        .collect();
    let evs: BTreeSet<i32> = boxes
        .iter()
        .filter(|(_, b)| !b.camera.is_empty())
        .filter_map(|(m, _)| m.event_box_version)
        .collect();
    // CameraBox carries most EventBox gates (3, 4, 5, 6, 7); every evVer 1..=9 has one.
    assert_eq!(evs, (1..=9).collect());
    let evs_with = |has: &dyn Fn(&EventBoxes) -> bool| -> BTreeSet<i32> {
        boxes
            .iter()
            .filter(|(_, b)| has(b))
            .filter_map(|(m, _)| m.event_box_version)
            .collect()
    };
    // TriggerBox (gate 9) and CameraTargetBox (gates 2, 8) on both sides of their gates.
    let trigger = evs_with(&|b| !b.trigger.is_empty());
    assert!(trigger.contains(&9) && trigger.iter().any(|&v| v < 9));
    let target = evs_with(&|b| !b.camera_target.is_empty());
    for v in [1, 2, 7, 8] {
        assert!(target.contains(&v), "CameraTargetBox at evVer {v}");
    }
    // Every type but 14 somewhere; 14 always an empty group.
    type Len = fn(&EventBoxes) -> usize;
    let lens: [(&str, Len); 18] = [
        ("camera", |b| b.camera.len()),
        ("respawn", |b| b.respawn.len()),
        ("start_point", |b| b.start_point.len()),
        ("trigger", |b| b.trigger.len()),
        ("skid", |b| b.skid.len()),
        ("event_hit", |b| b.event_hit.len()),
        ("npc", |b| b.npc.len()),
        ("portal", |b| b.portal.len()),
        ("select_map_portal", |b| b.select_map_portal.len()),
        ("in_area", |b| b.in_area.len()),
        ("etc", |b| b.etc.len()),
        ("camera_block", |b| b.camera_block.len()),
        ("cutoff", |b| b.cutoff.len()),
        ("camera_target", |b| b.camera_target.len()),
        ("mini_map_icon", |b| b.mini_map_icon.len()),
        ("environment_reverb", |b| b.environment_reverb.len()),
        ("waypoint", |b| b.waypoint.len()),
        ("obstacle", |b| b.obstacle.len()),
    ];
    for (name, len) in lens {
        assert!(boxes.iter().any(|(_, b)| len(b) > 0), "no {name} box");
    }
    assert!(
        boxes
            .iter()
            .all(|(_, b)| b.unused == RawGroup::default() && b.type_count == 19)
    );

    // AniBG 3, 4, 5 and ItemBox 3 on both sides (0 = absent below main version 7).
    let sub = |f: fn(&WdataModel) -> Option<i32>, has: fn(&WdataModel) -> bool| -> BTreeSet<i32> {
        maps.iter()
            .filter(|(_, m)| has(m))
            .map(|(_, m)| f(m).unwrap_or(0))
            .collect()
    };
    let anibg = sub(|m| m.anibg_version, |m| !m.anibg.is_empty());
    assert!(
        [0, 2, 3, 4, 5].iter().all(|v| anibg.contains(v)),
        "{anibg:?}"
    );
    let item = sub(|m| m.item_box_version, |m| !m.item_boxes.is_empty());
    assert!([0, 2, 3].iter().all(|v| item.contains(v)), "{item:?}");

    // Both trigger layouts; the peer one below and from version 9, with triggers.
    let peer: BTreeSet<i32> = maps
        .iter()
        .filter(|(_, m)| matches!(&m.triggers.layout, TriggerLayout::Peer(t) if !t.is_empty()))
        .map(|(_, m)| m.version)
        .collect();
    assert!(peer.iter().any(|&v| v < 9) && peer.iter().any(|&v| v >= 9));
    assert!(maps.iter().any(|(_, m)| matches!(
        &m.triggers.layout,
        TriggerLayout::ScriptLists { event_scripts, .. } if !event_scripts.is_empty()
    )));

    // Second scene passes with and without names and categories; non-empty and empty lists.
    for v in [20, 21, 22] {
        assert!(maps.iter().any(|(_, m)| {
            m.version == v
                && m.scenes
                    .iter()
                    .any(|s| s.pass2.as_ref().is_some_and(|p| !p.render_bg.is_empty()))
        }));
    }
    // A scene resource with paths, cues, sounds and ambients in every version that has them,
    // and an empty one.
    for (_, m) in &maps {
        if !m.scene_resources.is_empty() {
            assert!(m.scene_resources[0].paths.len() == 2, "v{}", m.version);
        }
    }
    assert!(maps.iter().any(|(_, m)| {
        m.scene_resources
            .iter()
            .any(|r| r.paths.is_empty() && r.sound.as_ref().is_some_and(|s| s.sounds.is_empty()))
    }));

    // ".\" paths, an empty ModelPath, Korean text.
    assert!(maps.iter().all(|(_, m)| m.event_box_path.is_no_path()));
    assert!(maps.iter().any(|(_, m)| m.model_path.units.is_empty()));
    assert!(boxes.iter().any(|(_, b)| {
        b.npc
            .iter()
            .any(|n| n.npc_name.to_string_lossy() == "마을 촌장")
    }));
}

// ---- every fixture, by a second, independent reading of the notes -------------------------
//
// The tests above spell five fixtures out literally. This one rebuilds *every* fixture from the
// notes' gate list, written here as plain `if`s on the versions (independently of the writer's
// code), with the fixtures' regular values; only which records a fixture holds (the counts) is
// taken from its model.

/// The notes' gate list, one place, as the notes state it.
struct Gates {
    v: i32,
    ev: i32,
}

fn notes_header(b: &mut B, m: &WdataModel) {
    let v = m.version;
    signature(b);
    b.i32(v);
    if v >= 7 {
        b.i32(m.event_box_version.unwrap())
            .i32(m.anibg_version.unwrap())
            .i32(m.item_box_version.unwrap());
    }
    if v >= 8 {
        b.i32(1); // GimmickVersion
    }
    if v >= 9 {
        b.i32(3); // ScriptCount1
    }
    if v >= 16 {
        b.i32(4); // ScriptConditionCount1
    }
    if v >= 18 {
        b.i32(5).i32(6); // ScriptCount2, ScriptConditionCount2
    }
    if v == 2 {
        b.s(""); // the empty-ModelPath fixture
    } else {
        b.s(&format!("map\\v{v:02}.mmp"));
    }
    b.s("map\\nav.nav");
    if v >= 2 {
        b.s(".\\");
    }
    b.s(".\\");
}

fn notes_camera_box(b: &mut B, k: i32, g: &Gates) {
    obb(b, &format!("CameraBox{k}"), k as f32);
    if g.ev >= 7 {
        b.u32(7);
    }
    for i in 0..4usize {
        if g.ev >= 3 || i == 0 {
            b.s(&format!("target{i}"));
        }
        b.s(&format!("cam{i}"));
        camera_floats(b, i);
        if g.ev >= 5 {
            b.u32(if i == 3 { 2 } else { 1 });
        }
        if g.ev < 4 {
            continue;
        }
        if i != 0 {
            for _ in 0..11 {
                b.u32(0);
            }
            continue;
        }
        for c in [2, 1, 1, 1, 0, 1, 1, 0, 1, 1, 1] {
            b.u32(c);
        }
        b.u32(1).u32(2);
        if g.ev < 6 {
            b.u32(3);
        } else {
            b.u32(4).s("ev");
        }
        for (id, name) in [
            (10, "bg0"),
            (11, "ani0"),
            (13, "gim0"),
            (14, "nbg0"),
            (16, "nitem0"),
            (17, "ngim0"),
        ] {
            if g.v >= 22 {
                b.u32(id);
            }
            b.s(name);
        }
        b.fs(&[1.0, 2.0, 3.0]);
    }
}

fn notes_box(b: &mut B, ty: i32, k: i32, g: &Gates) {
    let name = |kind: &str| format!("{kind}{k}");
    let f = k as f32;
    match ty {
        0 => notes_camera_box(b, k, g),
        1 => {
            obb(b, &name("RespawnBox"), f);
            b.i32(10)
                .i32(3)
                .s("goblin")
                .f32(2.5)
                .s("spawn")
                .u32(1)
                .u32(0);
            b.u32(1).u32(0).u32(1).u32(0).u32(1);
        }
        2 => {
            obb(b, &name("StartPointBox"), f);
            b.i32(k);
        }
        3 => {
            obb(b, &name("TriggerBox"), f);
            b.i32(1).s("open").s("idle");
            if g.ev >= 9 {
                b.i32(500).fs(&[0.0, 1.0, 0.0]);
            }
        }
        4 => {
            obb(b, &name("SkidBox"), f);
            b.i32(2).fs(&[1.0, 0.0, -1.0]).f32(0.5).f32(1.25);
        }
        5 => {
            obb(b, &name("EventHitBox"), f);
            b.i32(3).s("trap").f32(12.5).fs(&[0.0, 0.0, 1.0]).s("hit");
            b.i32(2).i32(1).fs(&[0.25, 0.75]).f32(1.0);
        }
        6 => {
            obb(b, &name("NpcBox"), f);
            b.s("마을 촌장").i32(100).i32(1);
        }
        7 => {
            obb(b, &name("PortalBox"), f);
            b.s("dungeon01").i32(1).i32(2).i32(300).i32(4).u32(1);
        }
        8 => {
            obb(b, &name("SelectMapPortalBox"), f);
            b.i32(2).i32(3).u32(0);
        }
        9 => {
            obb(b, &name("InAreaBox"), f);
            b.s("field").i32(5).u32(1);
        }
        10 => {
            obb(b, &name("EtcBox"), f);
            b.i32(6);
        }
        11 => obb(b, &name("CameraBlockBox"), f),
        12 => {
            obb(b, &name("CutoffBox"), f);
            b.i32(7);
        }
        13 => {
            obb(b, &name("CameraTargetBox"), f);
            if g.ev < 8 {
                b.s("boss");
            } else {
                b.i32(900);
            }
            if g.ev >= 2 {
                b.u32(1);
            }
        }
        15 => {
            obb(b, &name("MiniMapIconBox"), f);
            b.i32(8);
        }
        16 => {
            obb(b, &name("EnvironmentReverbBox"), f);
            b.i32(9);
        }
        17 => {
            obb(b, &name("WaypointBox"), f);
            b.i32(10).f32(3.5).i32(2).i32(11).i32(12).f32(2.0).f32(4.5);
        }
        18 => obb(b, &name("ObstacleBox"), f),
        _ => unreachable!(),
    }
}

/// Group sizes (record counts) by type, from the model.
fn group_counts(e: &EventBoxes) -> [usize; 19] {
    [
        e.camera.len(),
        e.respawn.len(),
        e.start_point.len(),
        e.trigger.len(),
        e.skid.len(),
        e.event_hit.len(),
        e.npc.len(),
        e.portal.len(),
        e.select_map_portal.len(),
        e.in_area.len(),
        e.etc.len(),
        e.camera_block.len(),
        e.cutoff.len(),
        e.camera_target.len(),
        0,
        e.mini_map_icon.len(),
        e.environment_reverb.len(),
        e.waypoint.len(),
        e.obstacle.len(),
    ]
}

fn notes_event_boxes(b: &mut B, m: &WdataModel, g: &Gates) {
    let counts = group_counts(m.event_boxes.as_ref().unwrap());
    let mut groups: Vec<B> = Vec::new();
    for (ty, &n) in counts.iter().enumerate() {
        let mut group = B::default();
        for j in 0..n {
            // The fixtures seed a box with type × 10 + its place in the group.
            notes_box(&mut group, ty as i32, ty as i32 * 10 + j as i32, g);
        }
        groups.push(group);
    }
    b.i32(19);
    // Absolute offsets: the groups follow the index in type order.
    let mut offset = b.len() + 19 * 8;
    for (group, &n) in groups.iter().zip(&counts) {
        b.i32(offset as i32).i32(n as i32);
        offset += group.len();
    }
    for group in groups {
        b.0.extend_from_slice(&group.0);
    }
}

fn notes_objects(b: &mut B, m: &WdataModel) {
    let anibg = m.anibg_version.unwrap_or(0);
    b.i32(m.anibg.len() as i32);
    for k in 0..m.anibg.len() {
        obb(b, &format!("AniBG{k}"), k as f32);
        b.s("bg\\tree.mdata").s("sway").u32(1).i32(1).i32(2);
        if anibg >= 3 {
            b.u32(1);
        }
        if anibg >= 4 {
            b.u32(0);
        }
        if anibg >= 5 {
            b.f32(30.0);
        }
    }
    let item = m.item_box_version.unwrap_or(0);
    b.i32(m.item_boxes.len() as i32);
    for k in 0..m.item_boxes.len() {
        obb(b, &format!("ItemBox{k}"), k as f32);
        b.s("item\\chest.mdata")
            .s("open")
            .s("table\\chest.rh")
            .u32(0);
        if item >= 3 {
            b.u32(1);
        }
    }
    b.i32(m.gimmicks.len() as i32);
    for k in 0..m.gimmicks.len() {
        obb(b, &format!("Gimmick{k}"), k as f32);
        b.s("gimmick\\lever.mdata").s("pull");
        b.i32(1).i32(2).i32(3).i32(1).i32(0).i32(42);
    }
    if m.version >= 2 {
        b.s(".\\");
    }
    b.s("cut\\intro.moc").s(".\\");
}

fn notes_triggers(b: &mut B, m: &WdataModel) {
    trigger_prefix(b);
    match &m.triggers.layout {
        TriggerLayout::Peer(triggers) => {
            b.i32(triggers.len() as i32);
            for i in 0..triggers.len() {
                peer_trigger(b, i);
            }
        }
        TriggerLayout::ScriptLists { .. } => {
            b.i32(1).i32(0).i32(2);
            b.s("event\\a.lua").s("action\\b.lua").s("action\\c.lua");
        }
    }
}

fn notes_scenes(b: &mut B, m: &WdataModel) {
    let v = m.version;
    let n = m.scenes.len();
    b.i32(n as i32);
    for i in 0..n {
        b.s(&format!("scene{i}.mec")).fs(&[0.5, 1.0, 1.5]);
        if v >= 15 {
            b.u32(i as u32).fs(&[0.25, 0.5, 0.75, 1.0, 10.0, 100.0]);
        }
        if v >= 19 {
            b.fs(&[1.0, 2.0, 3.0])
                .fs(&[0.0, 90.0, 0.0])
                .f32(45.0)
                .f32(1.75);
        }
    }
    if v < 20 {
        return;
    }
    for i in 0..n {
        if v >= 21 {
            if i == 0 {
                b.s("장면 하나");
            } else {
                b.s(&format!("scene{i}"));
            }
        }
        if i == 0 {
            scene0_pass2_body(b, v);
        } else {
            for _ in 0..10 {
                b.i32(0);
            }
        }
    }
}

fn notes_scene_resources(b: &mut B, m: &WdataModel) {
    let v = m.version;
    b.i32(m.scene_resources.len() as i32);
    for i in 0..m.scene_resources.len() {
        let full = i == 0;
        b.s(&format!("res{i}"));
        if full {
            b.i32(1).s("alias0").i32(2).f32(0.5);
            for (motion, last) in [("walk", false), ("talk", true)] {
                b.s("npc.mdata").s(motion).s("actor").s("ev");
                if v >= 10 {
                    b.u32(100).u32(200);
                }
                if !last {
                    b.f32(0.25);
                }
            }
        } else {
            b.i32(0).i32(0);
        }
        if v >= 11 {
            if full {
                b.i32(1).f32(2.0).s("shake").u32(7).f32(1.0);
            } else {
                b.i32(0);
            }
        }
        if v >= 12 {
            if full {
                b.i32(1).f32(0.5);
                if v >= 16 {
                    b.fs(&[0.125, 0.25, 1.0, 0.5]);
                }
                b.s("sound\\boom.wav");
            } else {
                b.i32(0);
            }
            if v >= 13 {
                b.u32(11);
            }
            b.u32(22).f32(3.5).u32(44);
            if v <= 14 {
                for x in 1..=7 {
                    b.i32(x);
                }
            }
            if v <= 13 {
                b.s("u1").s("u2");
            }
        }
        if v >= 17 {
            if full {
                b.i32(1).f32(0.0).s("amb\\wind.wav").u32(1).u32(1);
            } else {
                b.i32(0);
            }
        }
    }
}

#[test]
fn every_fixture_by_the_notes_gate_list() {
    let files = fixtures().unwrap();
    assert_eq!(files.len(), 20);
    for ((name, m), (_, got)) in fixture_maps().iter().zip(&files) {
        let g = Gates {
            v: m.version,
            ev: m.event_box_version.unwrap_or(0),
        };
        let mut b = B::default();
        notes_header(&mut b, m);
        if m.version >= 7 {
            notes_event_boxes(&mut b, m, &g);
        }
        notes_objects(&mut b, m);
        notes_triggers(&mut b, m);
        notes_scenes(&mut b, m);
        notes_scene_resources(&mut b, m);
        assert_same(name, got, &b.0);
    }
}

#[test]
fn wstring_debug_shows_the_text_and_its_nul() {
    assert_eq!(
        format!("{:?}", WString::nul_terminated(SIGNATURE)),
        "WString(\"stairwaygames.\\0\")"
    );
}

// ---- each fixture has exactly one trigger layout that reads to EOF ---------------------------
//
// The reader picks the trigger layout after which Scenes and SceneResources parse and end
// exactly at EOF (the notes). So that the fixtures never leave it guessing, each must parse to
// EOF with its own layout and fail with the other. A small reader of the file's tail, written
// here from the notes, checks that.

/// A bounds-checked cursor over a fixture (`None` = ran past the end or a count that cannot fit).
struct Tail<'a> {
    b: &'a [u8],
    at: usize,
}

impl Tail<'_> {
    fn skip(&mut self, n: usize) -> Option<()> {
        self.at = self.at.checked_add(n).filter(|&e| e <= self.b.len())?;
        Some(())
    }
    fn i32(&mut self) -> Option<i32> {
        let v = i32::from_le_bytes(self.b.get(self.at..self.at + 4)?.try_into().ok()?);
        self.at += 4;
        Some(v)
    }
    fn count(&mut self) -> Option<usize> {
        usize::try_from(self.i32()?)
            .ok()
            .filter(|&n| n <= self.b.len() - self.at)
    }
    fn wstr(&mut self) -> Option<()> {
        let n = u16::from_le_bytes(self.b.get(self.at..self.at + 2)?.try_into().ok()?);
        self.skip(2 + 2 * usize::from(n))
    }
    fn wstrs(&mut self, n: usize) -> Option<()> {
        (0..n).try_for_each(|_| self.wstr())
    }
}

fn peer_layout(t: &mut Tail) -> Option<()> {
    for _ in 0..t.count()? {
        t.wstr()?;
        t.wstr()?;
        let (e, c, a) = (t.count()?, t.count()?, t.count()?);
        t.wstrs(e + c + a)?;
    }
    Some(())
}

fn script_lists_layout(t: &mut Tail) -> Option<()> {
    let (e, c, a) = (t.count()?, t.count()?, t.count()?);
    t.wstrs(e + c + a)
}

fn scenes_and_resources_to_eof(t: &mut Tail, v: i32) -> Option<()> {
    let scenes = t.count()?;
    for _ in 0..scenes {
        t.wstr()?;
        t.skip(12)?;
        if v >= 15 {
            t.skip(28)?;
        }
        if v >= 19 {
            t.skip(32)?;
        }
    }
    if v >= 20 {
        for _ in 0..scenes {
            if v >= 21 {
                t.wstr()?;
            }
            let c: Vec<usize> = (0..10).map(|_| t.count()).collect::<Option<_>>()?;
            t.skip(4 * c[1])?;
            for _ in 0..c[0] {
                t.skip(4)?;
                t.wstr()?;
            }
            for _ in 0..c[2..].iter().sum::<usize>() {
                if v >= 22 {
                    t.skip(4)?;
                }
                t.wstr()?;
            }
        }
    }
    for _ in 0..t.count()? {
        t.wstr()?;
        let aliases = t.count()?;
        t.wstrs(aliases)?;
        let paths = t.count()?;
        if paths > 0 {
            t.skip(4)?;
        }
        for p in 0..paths {
            t.wstrs(4)?;
            if v >= 10 {
                t.skip(8)?;
            }
            if p + 1 < paths {
                t.skip(4)?;
            }
        }
        if v >= 11 {
            for _ in 0..t.count()? {
                t.skip(4)?;
                t.wstr()?;
                t.skip(8)?;
            }
        }
        if v >= 12 {
            for _ in 0..t.count()? {
                t.skip(if v >= 16 { 20 } else { 4 })?;
                t.wstr()?;
            }
            t.skip(if v >= 13 { 16 } else { 12 })?;
            if v <= 14 {
                t.skip(28)?;
            }
            if v <= 13 {
                t.wstrs(2)?;
            }
        }
        if v >= 17 {
            for _ in 0..t.count()? {
                t.skip(4)?;
                t.wstr()?;
                t.skip(8)?;
            }
        }
    }
    (t.at == t.b.len()).then_some(())
}

#[test]
fn each_fixture_reads_to_eof_with_its_own_trigger_layout_only() {
    // The Triggers prefix every fixture has: reserved0 0, scriptDir ".\", reserved1 0,
    // mainScript "main.lua".
    let mut prefix = B::default();
    trigger_prefix(&mut prefix);
    for ((name, map), (_, bytes)) in fixture_maps().iter().zip(fixtures().unwrap()) {
        let start = bytes
            .windows(prefix.len())
            .rposition(|w| w == prefix.0)
            .unwrap()
            + prefix.len();
        let v = map.version;
        let reads = |layout: fn(&mut Tail) -> Option<()>| {
            let mut t = Tail {
                b: &bytes,
                at: start,
            };
            layout(&mut t)
                .and_then(|()| scenes_and_resources_to_eof(&mut t, v))
                .is_some()
        };
        let (peer, lists) = (reads(peer_layout), reads(script_lists_layout));
        match map.triggers.layout {
            TriggerLayout::Peer(_) => assert!(peer && !lists, "{name}: peer {peer}, lists {lists}"),
            TriggerLayout::ScriptLists { .. } => {
                assert!(lists && !peer, "{name}: peer {peer}, lists {lists}")
            }
        }
    }
}

#[test]
fn a_signature_no_reader_knows_is_an_error() {
    // One character changed: the writer would make a file no reader takes for a map.
    let mut map = plan_map("v22-all-event-boxes.wdata");
    map.signature = WString::nul_terminated("stairwaygamez.");
    let e = err_of(&map);
    assert_eq!(
        (e.field().unwrap(), e.path()),
        ("Header.signature", "signature")
    );
    assert_eq!(invalid_value(&e), 15);
    // Trailing NULs are the stored form's business: with none, or one, the map is still one.
    for text in [vec![], vec![0u16]] {
        let mut map = plan_map("v22-all-event-boxes.wdata");
        map.signature.units = "stairwaygames.".encode_utf16().chain(text).collect();
        let bytes = map.to_bytes().unwrap();
        gamebin::wdata::WdataView::from_bytes(&bytes).unwrap();
    }
}

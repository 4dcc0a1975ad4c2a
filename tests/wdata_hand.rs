//! Hand-computed expectations for the `.wdata` writer: for versions 1, 7, 9, 20 and 22 the
//! expected bytes of the committed fixtures are assembled here field by field, in the read order
//! of `specs/rusty-hearts-wdata.notes.md`, with the version gates spelled out per version (not
//! computed from a version number), and compared with what the writer makes. Offsets and lengths
//! are also checked against literal numbers worked out by hand from the notes (the arithmetic is
//! in the comments). Nothing here calls the writer's encoding functions: only `fixtures()`,
//! `write()` and the public model are used, so a wrong gate in the writer fails these tests.
#![cfg(feature = "write")]

use gamebin::write::wdata::{self, WString};

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
    b.s("item\\chest.mdata").s("open").s("table\\chest.rh").u32(0);
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
    b.i32(10).i32(3).s("goblin").f32(2.5).s("spawn").u32(1).u32(0);
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
    b.s("item\\chest.mdata").s("open").s("table\\chest.rh").u32(0);
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
    assert_eq!(le_i32(&got, 2906), 1, "AniBG count right after the last group");
    // After 2906: AniBG 4 + 116 → 3026; ItemBox 4 + 148 → 3178; Gimmick 4 + 144 → 3326;
    // paths 6 + 28 + 6 → 3366; Triggers 36 + 96 → 3498; Scenes 38 → 3536;
    // SceneResources 4 + 136 → 3676.
    assert_eq!(got.len(), 3676);
}

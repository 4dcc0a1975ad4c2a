//! Rusty Hearts `.wdata` maps: the engine's whole map package — paths, EventBoxes (spawns, portals,
//! triggers, cameras…), animated backgrounds, item boxes, gimmicks, triggers, scenes and scene
//! resources — read in place, for every main version from 1 to 22.
//!
//! Where its parts are: `raw.rs` the fixed-size structs; this file the view ([`WdataView`]) and
//! the reader's sections beside it; `model` the owned map (`model::WdataModel`, feature
//! `write`), its copy from a view and its JSON form; `write` the writer
//! (`WdataModel::to_bytes`); `diff` the comparison by section and entry; the fixtures in
//! `synth::wdata`. One exception to that split, on purpose: the flat records are declared once,
//! in the tables of `flat_records.rs`, whose grammar (`records!`, with the field kinds of
//! `kind.rs`) makes from each table the reader's struct, the model's struct and its writer, so
//! that a field cannot be added to one and forgotten in another.
//!
//! The file is a sequence of variable-length records (length-prefixed UTF-16LE strings between
//! fixed fields, 4-byte bools, nothing aligned) whose layout is gated on the main version and on
//! per-section sub-versions. [`WdataView::from_bytes`] walks it once, checking every count, string
//! and gate, and records where each section starts (a few offsets in the view, no allocation).
//! Records are then iterated lazily and typed as they are read; strings stay borrowed
//! ([`WStr`]) and are decoded only on request.
//!
//! A full parse must end exactly at the end of the file: that is also how the view settles the
//! trigger layout, on which the sources disagree (see [`TriggerLayout`]).
//!
//! # Format notes
//!
//! Nothing here is verified on a real file (none is public).
//!
//! - Every bool is 4 bytes and kept as stored ([`Bool32`]); strings are `u16`-counted UTF-16LE,
//!   compared after trimming NULs, `.\` meaning no path.
//! - EventBox group offsets are absolute. A group must start after the index, groups must not
//!   overlap and must cover the bytes up to AniBG, which starts where the highest-offset non-empty
//!   group ends. Type 14's layout is unknown: its group is exposed as raw bytes when a later
//!   group's offset bounds it (a non-empty one, else an empty one's "current position" offset, as
//!   the game's writer stores it), and is an error otherwise. At most 256 index entries are
//!   accepted.
//! - Below main version 9 the triggers are a trigger list; from 9 both layouts are tried and the
//!   one after which Scenes and SceneResources end exactly at the end of the file wins (both: the
//!   trigger list, reported as ambiguous; neither: an error at the trigger section naming the
//!   furthest offset either reached).
//! - MocPath and AniBGPath are read in every version (the public reader and the seed agree);
//!   ObstaclePath and NavHeightPath from version 2. Main versions outside 1–22 are refused as
//!   unsupported.
//!
//! ```
//! # #[cfg(feature = "write")]
//! # fn main() -> Result<(), gamebin::Error> {
//! # let fixtures = gamebin::synth::wdata::fixtures().expect("the fixtures write");
//! # let file = &fixtures.iter().find(|(n, _)| *n == "v22-all-event-boxes.wdata").unwrap().1;
//! use gamebin::wdata::{EventBox, EventBoxType, TriggerLayout, WdataView};
//!
//! let map = WdataView::from_bytes(file)?; // one checking pass, no allocation
//! assert_eq!(map.version(), 22);
//! // Records are read again as they are iterated: each item is a `Result`, as for every iterator
//! // over file data (a record the opening pass checked reads again).
//! for event_box in map.event_boxes() {
//!     if let EventBox::Portal(portal) = event_box? {
//!         println!("{} warps to map {}", portal.obb.name, portal.warp_map_id);
//!     }
//! }
//! let npcs = map.event_box_group(EventBoxType::NpcBox).expect("19 index entries");
//! let first = npcs.boxes().next().expect("one NpcBox")?;
//! assert!(first.obb().name.eq_str("NpcBox60")); // compared without decoding
//! assert_eq!(first.obb().name.to_string(), "NpcBox60"); // decoded on request
//! assert_eq!(map.trigger_layout(), TriggerLayout::ScriptPaths);
//! assert!(!map.trigger_layout_ambiguous());
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "write"))]
//! # fn main() {}
//! ```

mod camera_box;
mod cursor;
#[cfg(all(feature = "write", feature = "serde"))]
pub mod diff;
mod event_box;
pub(crate) mod flat_records;
pub(crate) mod gates;
mod groups;
pub(crate) mod header;
mod info;
pub(crate) mod kind;
#[cfg(feature = "write")]
pub mod model;
mod obb;
pub mod raw;
mod records;
mod scene;
mod step;
mod triggers;
mod view;
#[cfg(feature = "write")]
pub mod write;
mod wstr;

pub use camera_box::{
    CameraBox, CameraInfo, CameraInfos, CameraLists, PvsEventBoxes, RENDER_LIST_NAMES,
};
pub use event_box::{
    CameraBlockBox, CameraTargetBox, CameraTargetName, CutoffBox, EnvironmentReverbBox, EtcBox,
    EventBox, EventBoxGroup, EventBoxType, EventBoxes, EventHitBox, InAreaBox, MAX_EVENT_BOX_TYPES,
    MiniMapIconBox, NpcBox, ObstacleBox, PortalBox, RespawnBox, SelectMapPortalBox, SkidBox,
    StartPointBox, TriggerBox, WaypointBox, WaypointLinks,
};
pub use flat_records::{
    Ambient, AniBg, Cue, Gimmick, ItemBox, ScenePath, SceneResource, Sound, SoundBlock,
};
pub use groups::{SceneCamera, SceneTiming, Signpost, SoundFades, TimeHold};
pub use header::{Header, KNOWN_VERSIONS, SIGNATURE};
pub use info::{ByEventBoxType, WdataInfo, event_box_type_name, trigger_layout_label};
pub(crate) use obb::OBB_MIN_SIZE;
pub use obb::Obb;
#[allow(unused_imports)] // used by the record tables of some feature sets
pub(crate) use raw::Bool32;
pub use records::{NameIter, NameList, Named, Record, Records, Run};
pub use scene::{Scene, SceneDetails, SceneHead, SceneSection, Scenes};
pub use triggers::{ScriptPaths, Trigger, TriggerLayout, Triggers, TriggersHead};
pub use wstr::{NO_PATH, WStr};

use crate::bytes::Cursor;
use crate::bytes::{Bytes, u64_of};
use crate::error::{Error, Result};
use crate::mmap::MappedFile;
use cursor::WdataCursor as _;
use event_box::EventBoxSection;

/// The versions that gate the layout: the main version and the sub-versions (0 where the file's
/// main version stores none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Versions {
    /// The file's main `Version`.
    pub main: i32,
    /// `EventBoxVersion` (main version >= 7).
    pub event_box: i32,
    /// `AniBGVersion` (main version >= 7).
    pub anibg: i32,
    /// `ItemBoxVersion` (main version >= 7).
    pub item_box: i32,
    /// `GimmickVersion` (main version >= 8).
    pub gimmick: i32,
}

/// Absolute offsets where the sections start, recorded at open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SectionOffsets {
    /// The EventBox index's `typeCount` (main version >= 7).
    pub event_boxes: Option<usize>,
    /// The AniBG section's count.
    pub anibg: usize,
    /// The ItemBox section's count.
    pub item_boxes: usize,
    /// The Gimmick section's count.
    pub gimmicks: usize,
    /// ObstaclePath (main version >= 2) or MocPath.
    pub trailing_paths: usize,
    /// The Triggers section.
    pub triggers: usize,
    /// The Scenes section's count.
    pub scenes: usize,
    /// The SceneResources section's count.
    pub scene_resources: usize,
}

/// A `.wdata` map, borrowed. `Copy`, `Send`, `Sync`; everything it hands out lives as long as the
/// file's bytes (`'a`).
#[derive(Debug, Clone, Copy)]
pub struct WdataView<'a> {
    bytes: Bytes<'a>,
    header: Header<'a>,
    versions: Versions,
    event_boxes: Option<EventBoxSection<'a>>,
    anibg: Run<'a, AniBg<'a>>,
    item_boxes: Run<'a, ItemBox<'a>>,
    gimmicks: Run<'a, Gimmick<'a>>,
    obstacle_path: Option<WStr<'a>>,
    moc_path: WStr<'a>,
    anibg_path: WStr<'a>,
    triggers: Triggers<'a>,
    trigger_layout_ambiguous: bool,
    scenes: SceneSection<'a>,
    scene_resources: Run<'a, SceneResource<'a>>,
    sections: SectionOffsets,
}

/// Triggers, Scenes and SceneResources parsed in one trigger layout, ending exactly at EOF.
type Tail<'a> = (
    Triggers<'a>,
    SceneSection<'a>,
    Run<'a, SceneResource<'a>>,
    usize,
    usize,
);

fn read_tail<'a>(
    bytes: Bytes<'a>,
    at: usize,
    versions: Versions,
    layout: TriggerLayout,
) -> Result<Tail<'a>> {
    let mut cur = Cursor::new(bytes, at);
    let triggers = Triggers::read(&mut cur, versions, layout)?;
    let scenes_at = cur.offset();
    let scenes = SceneSection::read(&mut cur, versions)?;
    let resources_at = cur.offset();
    let resources = Run::read_counted(&mut cur, versions, "SceneResources.count")?;
    if cur.offset() != bytes.len() {
        return Err(Error::invalid(
            u64_of(cur.offset()),
            "SceneResources.end",
            u64_of(cur.remaining()),
            "the map ends before the end of the file (value: bytes left over)",
        ));
    }
    Ok((triggers, scenes, resources, scenes_at, resources_at))
}

impl<'a> WdataView<'a> {
    /// Opens a map held in memory: one checking pass over the whole file (every count, string and
    /// version gate; the parse must end exactly at EOF). O(file size), no allocation.
    ///
    /// ```
    /// # #[cfg(feature = "write")]
    /// # fn main() -> Result<(), gamebin::Error> {
    /// # let fixtures = gamebin::synth::wdata::fixtures().expect("the fixtures write");
    /// # let file = &fixtures.iter().find(|(n, _)| *n == "v22-all-event-boxes.wdata").unwrap().1;
    /// use gamebin::wdata::WdataView;
    ///
    /// let map = WdataView::from_bytes(file)?; // parsing must end at the last byte
    /// assert_eq!(map.version(), 22);
    /// println!("{} scenes, {} scene resources", map.scenes().len(), map.scene_resources().len());
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "write"))]
    /// # fn main() {}
    /// ```
    pub fn from_bytes(data: &'a [u8]) -> Result<Self> {
        let bytes = Bytes::new(data);
        let (header, at) = Header::read(bytes)?;
        let version = header.version;
        let versions = Versions {
            main: version,
            event_box: header.event_box_version.unwrap_or(0),
            anibg: header.anibg_version.unwrap_or(0),
            item_box: header.item_box_version.unwrap_or(0),
            gimmick: header.gimmick_version.unwrap_or(0),
        };
        let (event_boxes, anibg_at) = if gates::EVENT_BOXES.stored(versions) {
            let section = EventBoxSection::read(bytes, at, versions)?;
            (Some(section), section.end)
        } else {
            (None, at)
        };
        let mut cur = Cursor::new(bytes, anibg_at);
        let anibg = Run::read_counted(&mut cur, versions, "AniBG.count")?;
        let item_boxes_at = cur.offset();
        let item_boxes = Run::read_counted(&mut cur, versions, "ItemBox.count")?;
        let gimmicks_at = cur.offset();
        let gimmicks = Run::read_counted(&mut cur, versions, "Gimmick.count")?;
        let trailing_paths = cur.offset();
        let obstacle_path = if gates::NAV_HEIGHT_AND_OBSTACLE_PATHS.stored(versions) {
            Some(cur.wstr("ObstaclePath")?)
        } else {
            None
        };
        let moc_path = cur.wstr("MocPath")?;
        let anibg_path = cur.wstr("AniBGPath")?;
        let triggers_at = cur.offset();

        let list = read_tail(bytes, triggers_at, versions, TriggerLayout::TriggerList);
        let (tail, ambiguous) = if !gates::SCRIPT_PATHS.stored(versions) {
            (list?, false)
        } else {
            let scripts = read_tail(bytes, triggers_at, versions, TriggerLayout::ScriptPaths);
            match (list, scripts) {
                (Ok(l), Ok(_)) => (l, true),
                (Ok(l), Err(_)) => (l, false),
                (Err(_), Ok(s)) => (s, false),
                (Err(a), Err(b)) => {
                    return Err(Error::invalid(
                        u64_of(triggers_at),
                        "Triggers.layout",
                        a.offset().max(b.offset()),
                        "neither trigger layout (trigger list, script paths) lets Scenes and \
                         SceneResources end exactly at EOF (value: the furthest offset either \
                         reached before failing)",
                    ));
                }
            }
        };
        let (triggers, scenes, scene_resources, scenes_at, resources_at) = tail;
        Ok(WdataView {
            bytes,
            header,
            versions,
            event_boxes,
            anibg,
            item_boxes,
            gimmicks,
            obstacle_path,
            moc_path,
            anibg_path,
            triggers,
            trigger_layout_ambiguous: ambiguous,
            scenes,
            scene_resources,
            sections: SectionOffsets {
                event_boxes: event_boxes.map(|_| at),
                anibg: anibg_at,
                item_boxes: item_boxes_at,
                gimmicks: gimmicks_at,
                trailing_paths,
                triggers: triggers_at,
                scenes: scenes_at,
                scene_resources: resources_at,
            },
        })
    }

    /// Opens a mapped map. The file must not change while mapped (see [`MappedFile`]).
    ///
    /// ```
    /// # #[cfg(feature = "write")]
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let fixtures = gamebin::synth::wdata::fixtures().expect("the fixtures write");
    /// # let bytes = &fixtures.iter().find(|(n, _)| *n == "v22-all-event-boxes.wdata").unwrap().1;
    /// # let dir = std::env::temp_dir().join(format!("gamebin-doc-wdata-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let path = dir.join("town.wdata");
    /// # std::fs::write(&path, bytes)?;
    /// use gamebin::MappedFile;
    /// use gamebin::wdata::WdataView;
    ///
    /// // Mapped: nothing may change the file while the view is in use (see `MappedFile::open`);
    /// // `MappedFile::read(&path)` copies it into memory instead, and the view is the same.
    /// let file = MappedFile::open(&path)?;
    /// let map = WdataView::open(&file)?;
    /// assert_eq!(map.version(), 22);
    /// assert_eq!(map.as_bytes().len(), bytes.len());
    /// # drop(file);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "write"))]
    /// # fn main() {}
    /// ```
    pub fn open(file: &'a MappedFile) -> Result<Self> {
        Self::from_bytes(file.bytes())
    }

    /// The file's bytes.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes.as_slice()
    }

    /// The header: signature, versions, script counts and paths.
    pub fn header(&self) -> &Header<'a> {
        &self.header
    }

    /// The main version.
    pub fn version(&self) -> i32 {
        self.header.version
    }

    /// The main version and the sub-versions that gate the layout.
    pub fn versions(&self) -> Versions {
        self.versions
    }

    /// Where each section starts.
    pub fn sections(&self) -> SectionOffsets {
        self.sections
    }

    /// The EventBox index entries as stored (main version >= 7; empty below).
    pub fn event_box_index(&self) -> &'a [raw::RawEventBoxIndexEntry] {
        self.event_boxes.map_or(&[], |s| s.index)
    }

    /// Absolute offset of the first index entry (main version >= 7).
    pub fn event_box_index_offset(&self) -> Option<usize> {
        self.event_boxes.map(|s| s.index_at)
    }

    /// One group per index entry, in index (= type) order.
    ///
    /// ```
    /// # #[cfg(feature = "write")]
    /// # fn main() -> Result<(), gamebin::Error> {
    /// # let fixtures = gamebin::synth::wdata::fixtures().expect("the fixtures write");
    /// # let file = &fixtures.iter().find(|(n, _)| *n == "v22-all-event-boxes.wdata").unwrap().1;
    /// use gamebin::wdata::WdataView;
    ///
    /// let map = WdataView::from_bytes(file)?;
    /// for group in map.event_box_groups() {
    ///     match group.event_box_type().filter(|_| group.is_known()) {
    ///         Some(ty) => println!("{}: {} boxes at {:#x}", ty.name(), group.count, group.offset),
    ///         // Type 14 (and any entry beyond 18): never guessed at; its bytes when they are bounded.
    ///         None => println!("type {}: {} records, raw {:?}", group.type_index, group.count, group.raw),
    ///     }
    /// }
    /// assert_eq!(map.event_box_groups().count(), 19); // the game's writer always stores 19 entries
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "write"))]
    /// # fn main() {}
    /// ```
    pub fn event_box_groups(&self) -> impl Iterator<Item = EventBoxGroup<'a>> + 'a {
        let view = *self;
        (0..self.event_box_index().len()).filter_map(move |i| view.event_box_group_at(i))
    }

    fn event_box_group_at(&self, i: usize) -> Option<EventBoxGroup<'a>> {
        self.event_boxes?.group(self.bytes, self.versions, i)
    }

    /// The group of one type, if the index has an entry for it.
    pub fn event_box_group(&self, ty: EventBoxType) -> Option<EventBoxGroup<'a>> {
        self.event_box_group_at(ty as usize)
    }

    /// Every EventBox of every known type, typed, in index (type) order. Records of an unknown type
    /// are not in it: see [`event_box_groups`](Self::event_box_groups). Each group's records were
    /// checked when the view opened; a read that fails anyway is yielded as its error.
    ///
    /// ```
    /// # #[cfg(feature = "write")]
    /// # fn main() -> Result<(), gamebin::Error> {
    /// # let fixtures = gamebin::synth::wdata::fixtures().expect("the fixtures write");
    /// # let file = &fixtures.iter().find(|(n, _)| *n == "v22-all-event-boxes.wdata").unwrap().1;
    /// use gamebin::wdata::{EventBox, WdataView};
    ///
    /// let map = WdataView::from_bytes(file)?;
    /// let mut boxes = 0;
    /// for event_box in map.event_boxes() {
    ///     let event_box = event_box?; // each item is a `Result`, as for every iterator over file data
    ///     boxes += 1;
    ///     match event_box {
    ///         EventBox::Etc(etc) => assert_eq!(etc.id, 6),
    ///         EventBox::Npc(npc) => println!("NPC {} (id {})", npc.npc_name, npc.id),
    ///         other => println!("{:?} {}", other.event_box_type(), other.obb().name),
    ///     }
    /// }
    /// assert_eq!(boxes, map.event_box_count()); // no box of an unknown type in this file
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "write"))]
    /// # fn main() {}
    /// ```
    pub fn event_boxes(&self) -> impl Iterator<Item = Result<EventBox<'a>>> + 'a {
        AllEventBoxes {
            view: *self,
            next_group: 0,
            boxes: None,
        }
    }

    /// Number of EventBoxes of every type, unknown ones included.
    pub fn event_box_count(&self) -> usize {
        self.event_box_index()
            .iter()
            .map(|e| usize::try_from(e.count.get()).unwrap_or(0))
            .sum()
    }

    /// The animated background objects.
    ///
    /// ```
    /// # #[cfg(feature = "write")]
    /// # fn main() -> Result<(), gamebin::Error> {
    /// # let fixtures = gamebin::synth::wdata::fixtures().expect("the fixtures write");
    /// # let file = &fixtures.iter().find(|(n, _)| *n == "v22-all-event-boxes.wdata").unwrap().1;
    /// use gamebin::wdata::WdataView;
    ///
    /// let map = WdataView::from_bytes(file)?;
    /// assert_eq!(map.anibg().len(), 1);
    /// for anibg in map.anibg() {
    ///     let anibg = anibg?;
    ///     assert!(anibg.model.eq_str("bg\\tree.mdata"));
    ///     // Gated fields are `Some` exactly when the file's AniBG version stores them (>= 5 here).
    ///     assert_eq!(map.versions().anibg, 5);
    ///     assert_eq!(anibg.pvs_radius, Some(30.0));
    /// }
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "write"))]
    /// # fn main() {}
    /// ```
    pub fn anibg(&self) -> Run<'a, AniBg<'a>> {
        self.anibg
    }

    /// The item boxes, in file order.
    ///
    /// ```
    /// # #[cfg(feature = "write")]
    /// # fn main() -> Result<(), gamebin::Error> {
    /// # let fixtures = gamebin::synth::wdata::fixtures().expect("the fixtures write");
    /// # let file = &fixtures.iter().find(|(n, _)| *n == "v22-all-event-boxes.wdata").unwrap().1;
    /// use gamebin::wdata::WdataView;
    ///
    /// let map = WdataView::from_bytes(file)?;
    /// let item = map.item_boxes().iter().next().expect("one item box")?;
    /// assert!(item.table_path.eq_str("table\\chest.rh"));
    /// assert_eq!(item.open_enable.map(|b| b.get()), Some(true)); // ItemBox version >= 3
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "write"))]
    /// # fn main() {}
    /// ```
    pub fn item_boxes(&self) -> Run<'a, ItemBox<'a>> {
        self.item_boxes
    }

    /// The gimmicks, in file order.
    ///
    /// ```
    /// # #[cfg(feature = "write")]
    /// # fn main() -> Result<(), gamebin::Error> {
    /// # let fixtures = gamebin::synth::wdata::fixtures().expect("the fixtures write");
    /// # let file = &fixtures.iter().find(|(n, _)| *n == "v22-all-event-boxes.wdata").unwrap().1;
    /// use gamebin::wdata::WdataView;
    ///
    /// let map = WdataView::from_bytes(file)?;
    /// let ids: Vec<i32> = map
    ///     .gimmicks()
    ///     .iter()
    ///     .map(|g| g.map(|g| g.template_id))
    ///     .collect::<Result<_, _>>()?;
    /// assert_eq!(ids, [42]);
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "write"))]
    /// # fn main() {}
    /// ```
    pub fn gimmicks(&self) -> Run<'a, Gimmick<'a>> {
        self.gimmicks
    }

    /// Main version >= 2.
    pub fn obstacle_path(&self) -> Option<WStr<'a>> {
        self.obstacle_path
    }

    /// MocPath (stored in every version, unlike ObstaclePath).
    pub fn moc_path(&self) -> WStr<'a> {
        self.moc_path
    }

    /// AniBGPath (stored in every version).
    pub fn anibg_path(&self) -> WStr<'a> {
        self.anibg_path
    }

    /// The trigger section, in the layout the file was found to use.
    ///
    /// ```
    /// # #[cfg(feature = "write")]
    /// # fn main() -> Result<(), gamebin::Error> {
    /// # let fixtures = gamebin::synth::wdata::fixtures().expect("the fixtures write");
    /// # let file = &fixtures.iter().find(|(n, _)| *n == "v22-peer-triggers.wdata").unwrap().1;
    /// use gamebin::wdata::{TriggerLayout, WdataView};
    ///
    /// let map = WdataView::from_bytes(file)?;
    /// let triggers = map.triggers();
    /// assert_eq!(triggers.layout(), TriggerLayout::TriggerList);
    /// assert_eq!(triggers.trigger_count(), 2);
    /// for trigger in triggers.triggers() {
    ///     let trigger = trigger?;
    ///     for action in trigger.actions {
    ///         println!("{} runs {}", trigger.name, action?.name);
    ///     }
    /// }
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "write"))]
    /// # fn main() {}
    /// ```
    pub fn triggers(&self) -> Triggers<'a> {
        self.triggers
    }

    /// Which trigger layout the file was read with (see [`TriggerLayout`]).
    pub fn trigger_layout(&self) -> TriggerLayout {
        self.triggers.layout()
    }

    /// Whether both trigger layouts let the file end exactly at EOF. The view then uses the trigger
    /// list (the layout of the reader used on the game's files) and says so here.
    pub fn trigger_layout_ambiguous(&self) -> bool {
        self.trigger_layout_ambiguous
    }

    /// The scenes: heads and, from main version 20, their second pass.
    ///
    /// ```
    /// # #[cfg(feature = "write")]
    /// # fn main() -> Result<(), gamebin::Error> {
    /// # let fixtures = gamebin::synth::wdata::fixtures().expect("the fixtures write");
    /// # let file = &fixtures.iter().find(|(n, _)| *n == "v22-all-event-boxes.wdata").unwrap().1;
    /// use gamebin::wdata::{RENDER_LIST_NAMES, WdataView};
    ///
    /// let map = WdataView::from_bytes(file)?;
    /// assert_eq!(map.scenes().len(), 2);
    /// for scene in map.scenes().iter() {
    ///     let scene = scene?;
    ///     println!("{} fades in over {} s", scene.head.file, scene.head.fade_in_preview);
    ///     if let Some(details) = scene.details {
    ///         for (list, name) in details.render().iter().zip(RENDER_LIST_NAMES) {
    ///             println!("  {name}: {} items", list.len());
    ///         }
    ///     }
    /// }
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "write"))]
    /// # fn main() {}
    /// ```
    pub fn scenes(&self) -> SceneSection<'a> {
        self.scenes
    }

    /// The scene resources, in file order.
    ///
    /// ```
    /// # #[cfg(feature = "write")]
    /// # fn main() -> Result<(), gamebin::Error> {
    /// # let fixtures = gamebin::synth::wdata::fixtures().expect("the fixtures write");
    /// # let file = &fixtures.iter().find(|(n, _)| *n == "v22-all-event-boxes.wdata").unwrap().1;
    /// use gamebin::wdata::WdataView;
    ///
    /// let map = WdataView::from_bytes(file)?;
    /// let first = map.scene_resources().iter().next().expect("two resources")?;
    /// assert!(first.key.eq_str("res0"));
    /// for path in first.paths {
    ///     let path = path?;
    ///     assert!(path.model.eq_str("npc.mdata"));
    /// }
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "write"))]
    /// # fn main() {}
    /// ```
    pub fn scene_resources(&self) -> Run<'a, SceneResource<'a>> {
        self.scene_resources
    }
}

/// Whether `data` looks like a `.wdata`: the signature (NULs trimmed) is `"stairwaygames."`, the
/// main version is one this reader knows, and the header reads with a ModelPath that is empty,
/// `.\` or a `.mmp` (`.mdata` model files share the signature).
pub(crate) fn looks_like(data: &[u8]) -> bool {
    Header::read(Bytes::new(data)).is_ok_and(|(h, _)| h.model_path_is_a_map())
}

/// Every typed EventBox of every group, in index order: what
/// [`WdataView::event_boxes`] returns.
// Its own iterator rather than a `flat_map` over the groups: a walk steps through it once a
// record, and the adapter checks its front and back iterators and moves each record through
// them every time (not measured apart from the reads inlined with it: see BENCHMARKS.md).
#[derive(Debug, Clone)]
struct AllEventBoxes<'a> {
    view: WdataView<'a>,
    next_group: usize,
    boxes: Option<EventBoxes<'a>>,
}

impl<'a> Iterator for AllEventBoxes<'a> {
    type Item = Result<EventBox<'a>>;

    #[inline]
    fn next(&mut self) -> Option<Result<EventBox<'a>>> {
        loop {
            if let Some(record) = self.boxes.as_mut().and_then(Iterator::next) {
                return Some(record);
            }
            let group = self.view.event_box_group_at(self.next_group)?;
            self.next_group += 1;
            self.boxes = Some(group.boxes());
        }
    }
}

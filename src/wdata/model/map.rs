//! The owned model of a whole `.wdata` map: header, paths, the sequential sections and the
//! building blocks every section shares (strings, 4-byte bools, oriented boxes).
//!
//! Every field the file stores is a field here, including the ones nobody understands yet, so a
//! map read from a file and written back is the same bytes. Fields that only some format versions
//! store are `Option`s: `Some` exactly when the version stores them (the writer refuses a model
//! where that does not hold, naming the field), so a model can never silently lose a value.
//!
//! With the `cli` feature the model derives `serde::Serialize` (what `gamebin dump --json` prints
//! for a `.wdata`): strings as text, gated fields left out when `None`; see `json.rs`.

use super::event_boxes::EventBoxes;
use super::{AniBg, Gimmick, ItemBox, Trigger, Triggers};
use super::{Scene, SceneResource};

/// The signature every `.wdata` starts with (stored with a trailing NUL: 15 code units).
pub const SIGNATURE: &str = "stairwaygames.";

/// The "no path" sentinel the game stores in path fields.
pub const NO_PATH: &str = ".\\";

/// A length-prefixed UTF-16LE string exactly as stored: its code units, including any trailing
/// NULs (the signature is stored as 14 characters + NUL) and any unpaired surrogates, so that
/// writing it back gives the same bytes. The file stores the count as a `u16`, so a string holds
/// at most 65,535 code units; the writer refuses longer ones.
#[derive(Clone, PartialEq, Eq, Default, Hash)]
pub struct WString {
    /// The stored code units, in order.
    pub units: Vec<u16>,
}

impl WString {
    /// `text` as UTF-16, without a trailing NUL.
    pub fn new(text: &str) -> WString {
        WString {
            units: text.encode_utf16().collect(),
        }
    }

    /// `text` as UTF-16 followed by one NUL code unit (how the signature is stored).
    pub fn nul_terminated(text: &str) -> WString {
        let mut units: Vec<u16> = text.encode_utf16().collect();
        units.push(0);
        WString { units }
    }

    /// The text with trailing NULs trimmed; unpaired surrogates become U+FFFD.
    pub fn to_string_lossy(&self) -> String {
        let end = self
            .units
            .iter()
            .rposition(|&u| u != 0)
            .map_or(0, |i| i + 1);
        String::from_utf16_lossy(self.units.get(..end).unwrap_or_default())
    }

    /// Whether this is the `".\"` "no path" sentinel (after trimming trailing NULs).
    pub fn is_no_path(&self) -> bool {
        self.to_string_lossy() == NO_PATH
    }
}

/// Shows the text with every code unit, e.g. `WString("stairwaygames.\0")` (an unpaired
/// surrogate shows as U+FFFD).
impl core::fmt::Debug for WString {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "WString({:?})", String::from_utf16_lossy(&self.units))
    }
}

impl From<&str> for WString {
    fn from(text: &str) -> WString {
        WString::new(text)
    }
}

/// A bool stored as 4 bytes (every bool in a `.wdata` is). The stored value is kept, so a value
/// other than 0 or 1 survives a round trip; `get()` gives its meaning (`!= 0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub struct Bool32(pub u32);

impl Bool32 {
    /// Whether the stored value means true (any non-zero value does).
    pub const fn get(self) -> bool {
        self.0 != 0
    }
}

impl From<bool> for Bool32 {
    fn from(value: bool) -> Bool32 {
        Bool32(u32::from(value))
    }
}

/// The oriented bounding box that starts every EventBox, AniBG, ItemBox and Gimmick record.
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(deny_unknown_fields)
)]
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Obb {
    /// The box's name.
    pub name: WString,
    /// Centre, X Y Z.
    pub position: [f32; 3],
    /// Scale x, y, z.
    pub scale: [f32; 3],
    /// Quaternion X Y Z W.
    pub rotation: [f32; 4],
    /// Half sizes along the box's local axes.
    pub extents: [f32; 3],
}

/// What follows the Triggers prefix (the owned model's
/// [`Triggers`](super::Triggers), whose prefix is declared in the record tables).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, PartialEq)]
pub enum TriggerLayout {
    /// The public reader's layout (any version): `i32 triggerCount` and the triggers.
    #[cfg_attr(feature = "serde", serde(rename = "triggers"))]
    Peer(Vec<Trigger>),
    /// The seed's layout for version >= 9: three counts, then three lists of script paths. The
    /// writer refuses it below version 9.
    #[cfg_attr(feature = "serde", serde(rename = "script_lists"))]
    ScriptLists {
        /// Event script paths.
        event_scripts: Vec<WString>,
        /// Condition script paths.
        condition_scripts: Vec<WString>,
        /// Action script paths.
        action_scripts: Vec<WString>,
    },
}

impl Default for TriggerLayout {
    fn default() -> TriggerLayout {
        TriggerLayout::Peer(Vec::new())
    }
}

/// A whole `.wdata` map, in file order.
///
/// Version gates (main version `version`):
/// - `event_box_version`, `anibg_version`, `item_box_version`, `event_boxes`: v >= 7;
/// - `gimmick_version`: v >= 8; `script_count1`: v >= 9; `script_condition_count1`: v >= 16;
///   `script_count2`, `script_condition_count2`: v >= 18;
/// - `nav_height_path`, `obstacle_path`: v >= 2 (`moc_path` and `anibg_path` are in every
///   version, as in the public reader and the seed);
/// - below v7 the sub-versions are absent and count as 0 for the AniBG and ItemBox gates.
///
/// The sections' own gates are documented on their fields' types.
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(deny_unknown_fields)
)]
#[derive(Clone, Debug, PartialEq, Default)]
pub struct WdataModel {
    /// Stored as-is; normally [`SIGNATURE`] with a trailing NUL.
    pub signature: WString,
    /// The main version: every gate below depends on it.
    pub version: i32,
    /// `EventBoxVersion` (main version >= 7).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub event_box_version: Option<i32>,
    /// `AniBGVersion` (main version >= 7).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub anibg_version: Option<i32>,
    /// `ItemBoxVersion` (main version >= 7).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub item_box_version: Option<i32>,
    /// `GimmickVersion` (main version >= 8).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub gimmick_version: Option<i32>,
    /// `ScriptCount1` (main version >= 9).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub script_count1: Option<i32>,
    /// `ScriptConditionCount1` (main version >= 16).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub script_condition_count1: Option<i32>,
    /// `ScriptCount2` (main version >= 18).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub script_count2: Option<i32>,
    /// `ScriptConditionCount2` (main version >= 18).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub script_condition_count2: Option<i32>,
    /// Empty or a `.mmp` path (`".\"` = none).
    pub model_path: WString,
    /// Path of the navigation mesh.
    pub nav_mesh_path: WString,
    /// Path of the navigation heights (main version >= 2).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub nav_height_path: Option<WString>,
    /// Path of the event-box file.
    pub event_box_path: WString,
    /// The event boxes (main version >= 7).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub event_boxes: Option<EventBoxes>,
    /// The AniBG records.
    pub anibg: Vec<AniBg>,
    /// The item boxes.
    pub item_boxes: Vec<ItemBox>,
    /// The gimmicks.
    pub gimmicks: Vec<Gimmick>,
    /// ObstaclePath (main version >= 2).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub obstacle_path: Option<WString>,
    /// MocPath.
    pub moc_path: WString,
    /// AniBGPath.
    pub anibg_path: WString,
    /// The triggers section.
    pub triggers: Triggers,
    /// Scenes: the first pass of every scene, then (v >= 20) the second pass of every scene.
    pub scenes: Vec<Scene>,
    /// The scene resources.
    pub scene_resources: Vec<SceneResource>,
}

//! Writes Rusty Hearts `.wdata` maps from an owned [`WdataModel`], in the read order and with the
//! version gates of `specs/rusty-hearts-wdata.notes.md`. No real `.wdata` is public, so this
//! writer is the source of the committed fixtures (`fixtures/rusty-hearts-wdata/`); it is written
//! from the notes alone, and `tests/wdata_hand.rs` checks its output against bytes assembled by
//! hand.
//!
//! - [`WdataModel::to_bytes`] turns a [`WdataModel`] into file bytes: `mod.rs` the header, paths and section order,
//!   `event_boxes.rs` the EventBox index and groups, `scenes.rs` the scenes, `map.rs` the OBB and
//!   the triggers, `encode.rs` the `Encoder` over the shared sink; the flat
//!   records' writers are made by the record tables (`wdata::flat_records`) with their readers
//!   and models, from one declaration;
//! - the committed fixtures and the benchmarks' large map are made from it in
//!   `synth::wdata` (feature `synth`).
//!
//! # Layout choices
//! - The EventBox index has [`EventBoxes::type_count`](crate::wdata::model::EventBoxes::type_count) entries (normally 19) of absolute `i32`
//!   offsets and counts; the groups follow in type order, and an empty group's offset is the
//!   position where it would start (as the public writer does) — unless the model keeps another
//!   writer's layout ([`EventBoxLayout`](crate::wdata::model::EventBoxLayout): the groups' order in the file, the empty groups stored
//!   with offset 0), which the writer then follows.
//! - Strings are written exactly as their stored code units ([`WString::units`](crate::wdata::model::WString::units)), so a trailing
//!   NUL is kept where the model has one.
//!
//! # What the writer refuses
//! A model the version cannot express is an error naming the structure and field, never a
//! silent drop: an optional field set where the version does not store it (or left `None` where
//! it does), a layout variant of the wrong version (PVS ids vs entries, CameraTarget name vs text
//! id, the script-lists trigger layout below version 9), a string over 65,535 code units, a list
//! longer than its count field can hold, a delay without paths or a blend time on the last path.
//!
//! ```
//! use gamebin::wdata::model::{self as wdata, WString, WdataModel};
//!
//! let map = WdataModel {
//!     signature: WString::nul_terminated(wdata::SIGNATURE),
//!     version: 1,
//!     model_path: WString::new("map\\town.mmp"),
//!     nav_mesh_path: WString::new(wdata::NO_PATH),
//!     event_box_path: WString::new(wdata::NO_PATH),
//!     moc_path: WString::new(wdata::NO_PATH),
//!     anibg_path: WString::new(wdata::NO_PATH),
//!     ..WdataModel::default()
//! };
//! let bytes = map.to_bytes()?;
//! assert_eq!(&bytes[..2], &[15, 0]); // the signature's 15 code units
//! # Ok::<(), gamebin::WriteError>(())
//! ```

pub(crate) mod encode;
mod event_boxes;
mod map;
mod scenes;

pub(crate) use event_boxes::{Record, place, write_records};

use crate::wdata::gates::{self, Decision};
use crate::wdata::header::GATED_I32S;
use crate::wdata::model::{SIGNATURE, WdataModel};
use crate::write_error::{WriteContext, WriteResult as Result};
use encode::Encoder;

impl WdataModel {
    /// The map as a file. See the module docs for the layout and for what is refused.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let mut s = Encoder::new();
        write_into(&mut s, self)?;
        Ok(s.out.into_bytes())
    }
}

/// The JSON key (serde name) of each field the writer checks against a version, by the name the
/// writer's errors give it.
const GATED_KEYS: [(&str, &str); 38] = [
    ("Header.EventBoxVersion", "event_box_version"),
    ("Header.AniBGVersion", "anibg_version"),
    ("Header.ItemBoxVersion", "item_box_version"),
    ("Header.GimmickVersion", "gimmick_version"),
    ("Header.ScriptCount1", "script_count1"),
    ("Header.ScriptConditionCount1", "script_condition_count1"),
    ("Header.ScriptCount2", "script_count2"),
    ("Header.ScriptConditionCount2", "script_condition_count2"),
    ("Header.NavHeightPath", "nav_height_path"),
    ("EventBoxes", "event_boxes"),
    ("ObstaclePath", "obstacle_path"),
    ("AniBG.Shadow", "shadow"),
    ("AniBG.MoveWeight", "move_weight"),
    ("AniBG.PVSRad", "pvs_radius"),
    ("ItemBox.OpenEnable", "open_enable"),
    ("Scene.Category", "timing"),
    ("Scene.Position", "camera"),
    ("Scene.pass2", "pass2"),
    ("Scene.Name", "name"),
    ("SceneElement.Category", "category"),
    ("SceneData.Time", "time_hold"),
    ("SceneData.BlendTime", "blend_time"),
    ("SceneResource.Delay", "delay"),
    ("SceneResource.cueCnt", "cues"),
    ("SceneResource.soundCnt", "sound"),
    ("SceneResource.ambientCnt", "ambients"),
    ("Sound.FadeIn", "fades"),
    ("SceneResource.Unk1", "unk1"),
    ("SceneResource.unknownInts", "unknown_ints"),
    ("SceneResource.unknownStrings", "unknown_strings"),
    ("CameraBox.Category", "category"),
    ("CameraInfo.CameraTarget", "camera_target"),
    ("CameraInfo.BuildPVS", "build_pvs"),
    ("CameraInfo.lists", "lists"),
    ("CameraInfo.renderList.id", "id"),
    ("TriggerBox.SignpostTextID", "signpost"),
    ("CameraTargetBox.TargetLocalPC", "target_local_pc"),
    ("Triggers.layout", "script_lists"),
];

/// The JSON key of a field the writer checks against a version, by the format's name for it
/// (`AniBG.Shadow` is `shadow`): the last step of such an error's path.
pub(crate) fn gated_json_key(what: &str) -> Option<&'static str> {
    GATED_KEYS
        .iter()
        .find(|(name, _)| *name == what)
        .map(|&(_, key)| key)
}

fn write_into(s: &mut Encoder, map: &WdataModel) -> Result<()> {
    let s = &mut *s;
    let v = map.version;
    // Readers know a map by its signature: a map that does not say "stairwaygames." (trailing
    // NULs aside) would not be read back as one.
    let units = &map.signature.units;
    let end = units
        .iter()
        .rposition(|&u| u != 0)
        .map_or(0, |last| last + 1);
    let text = units.get(..end).unwrap_or_default();
    if !text.iter().copied().eq(SIGNATURE.encode_utf16()) {
        return Err(encode::refused(
            "Header.signature",
            crate::bytes::u64_of(units.len()),
            "not \"stairwaygames.\" (value: the length in UTF-16 units); no reader would know the map",
        )
        .in_field("signature"));
    }
    // Readers read the versions they know: a map of another would not open.
    if !crate::wdata::KNOWN_VERSIONS.contains(&v) {
        return Err(encode::refused(
            "Header.Version",
            encode::version_value(v),
            "a version no reader reads (1 to 22)",
        )
        .in_field("version"));
    }
    s.wstr(&map.signature, "Header.signature")
        .in_field("signature")?;
    s.i32(v);
    // The gated header `i32`s, in the order (and with the gates) of the reader's list.
    let fields = [
        &map.event_box_version,
        &map.anibg_version,
        &map.item_box_version,
        &map.gimmick_version,
        &map.script_count1,
        &map.script_condition_count1,
        &map.script_count2,
        &map.script_condition_count2,
    ];
    let mut values = [0; 8];
    for ((field, (since, what)), value) in fields.into_iter().zip(GATED_I32S).zip(&mut values) {
        *value = header_i32(s, field, v >= since, v, what)?;
    }
    // Below version 7 the sub-versions are absent and their gates see 0.
    let [event_box, anibg, item_box, gimmick, ..] = values;
    // The same versions the reader gates on.
    let versions = crate::wdata::Versions {
        main: v,
        event_box,
        anibg,
        item_box,
        gimmick,
    };
    s.wstr(&map.model_path, "Header.ModelPath")
        .in_field("model_path")?;
    s.wstr(&map.nav_mesh_path, "Header.NavMeshPath")
        .in_field("nav_mesh_path")?;
    let paths = gates::NAV_HEIGHT_AND_OBSTACLE_PATHS;
    if let Some(p) = s.gate(
        &map.nav_height_path,
        paths.decide(versions),
        "Header.NavHeightPath",
    )? {
        s.wstr(p, "Header.NavHeightPath")
            .in_field("nav_height_path")?;
    }
    s.wstr(&map.event_box_path, "Header.EventBoxPath")
        .in_field("event_box_path")?;
    if let Some(boxes) = s.gate(
        &map.event_boxes,
        gates::EVENT_BOXES.decide(versions),
        "EventBoxes",
    )? {
        // Each group's errors name it by its full key (`event_boxes.CameraBox[3]`).
        boxes.write(s, versions)?;
    }
    write_section(s, &map.anibg, versions)?;
    write_section(s, &map.item_boxes, versions)?;
    write_section(s, &map.gimmicks, versions)?;
    if let Some(p) = s.gate(&map.obstacle_path, paths.decide(versions), "ObstaclePath")? {
        s.wstr(p, "ObstaclePath").in_field("obstacle_path")?;
    }
    s.wstr(&map.moc_path, "MocPath").in_field("moc_path")?;
    s.wstr(&map.anibg_path, "AniBGPath")
        .in_field("anibg_path")?;
    map.triggers.write_section(s, versions)?;
    scenes::write_scenes(s, &map.scenes, versions)?;
    scenes::write_scene_resources(s, &map.scene_resources, versions)?;
    Ok(())
}

/// A counted section (`i32 count`, then the records), every record's errors naming its entry.
fn write_section<R: Record>(
    s: &mut Encoder,
    list: &[R],
    versions: crate::wdata::Versions,
) -> Result<()> {
    s.count_i32(list.len(), R::WHAT)?;
    for (i, r) in list.iter().enumerate() {
        r.write(s, versions, place(i, list.len()))
            .map_err(|e| e.at_index(i).in_field(R::SECTION))?;
    }
    Ok(())
}

/// A gated header `i32`: written when the version stores it; its value, or 0 when absent.
fn header_i32(
    s: &mut Encoder,
    field: &Option<i32>,
    stored: bool,
    version: i32,
    what: &'static str,
) -> Result<i32> {
    let value = s.gate(field, Decision { stored, version }, what)?.copied();
    if let Some(x) = value {
        s.i32(x);
    }
    Ok(value.unwrap_or(0))
}

#[cfg(all(test, feature = "synth"))]
mod tests;

//! The header: signature, main version, the version-gated sub-versions and script counts, and the
//! four leading paths.

use super::cursor::WdataCursor as _;
use super::wstr::WStr;
use crate::bytes::Cursor;
use crate::bytes::{Bytes, u64_of};
use crate::error::{Error, ErrorKind, Result};

/// The signature every `.wdata` (and every `.mdata`) starts with.
pub const SIGNATURE: &str = "stairwaygames.";

/// The main versions this reader knows (1 to 22).
pub const KNOWN_VERSIONS: core::ops::RangeInclusive<i32> = 1..=22;

/// The header, borrowed. Sub-versions and counts absent at the file's main version are `None`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header<'a> {
    /// `"stairwaygames."`, as stored (a trailing NUL included when the file has one).
    pub signature: WStr<'a>,
    /// The main version.
    pub version: i32,
    /// Main version >= 7.
    pub event_box_version: Option<i32>,
    /// Main version >= 7.
    pub anibg_version: Option<i32>,
    /// Main version >= 7.
    pub item_box_version: Option<i32>,
    /// Main version >= 8.
    pub gimmick_version: Option<i32>,
    /// Main version >= 9 (ScriptCount1; unused by known readers, kept).
    pub script_count1: Option<i32>,
    /// Main version >= 16 (ScriptConditionCount1).
    pub script_condition_count1: Option<i32>,
    /// Main version >= 18 (ScriptCount2).
    pub script_count2: Option<i32>,
    /// Main version >= 18 (ScriptConditionCount2).
    pub script_condition_count2: Option<i32>,
    /// The map model (`.mmp`).
    pub model_path: WStr<'a>,
    /// Path of the navigation mesh.
    pub nav_mesh_path: WStr<'a>,
    /// Main version >= 2.
    pub nav_height_path: Option<WStr<'a>>,
    /// Path of the event-box file.
    pub event_box_path: WStr<'a>,
}

/// The header's gated `i32`s, in file order (after `Version`): the first main version that stores
/// each, and its name. The reader and the writer both walk this list, so the order and the gates
/// are written down once.
pub(crate) const GATED_I32S: [(i32, &str); 8] = [
    (7, "Header.EventBoxVersion"),
    (7, "Header.AniBGVersion"),
    (7, "Header.ItemBoxVersion"),
    (8, "Header.GimmickVersion"),
    (9, "Header.ScriptCount1"),
    (16, "Header.ScriptConditionCount1"),
    (18, "Header.ScriptCount2"),
    (18, "Header.ScriptConditionCount2"),
];

impl<'a> Header<'a> {
    /// Reads the header; returns it and where the EventBoxes (or, below version 7, AniBG) start.
    pub(crate) fn read(bytes: Bytes<'a>) -> Result<(Self, usize)> {
        let mut cur = Cursor::new(bytes, 0);
        let signature = cur.wstr("Header.Signature")?;
        if !signature.eq_str(SIGNATURE) {
            return Err(Error::invalid(
                0,
                "Header.Signature",
                u64_of(signature.len_units()),
                "not \"stairwaygames.\" (value: the stored length in UTF-16 units)",
            ));
        }
        let version_at = cur.offset();
        let version = cur.i32_le("Header.Version")?;
        if !KNOWN_VERSIONS.contains(&version) {
            return Err(Error::new(
                u64_of(version_at),
                "Header.Version",
                ErrorKind::UnsupportedVersion {
                    found: u64::from(version as u32),
                },
            ));
        }
        let mut gated = [None; GATED_I32S.len()];
        for (value, (since, what)) in gated.iter_mut().zip(GATED_I32S) {
            if version >= since {
                *value = Some(cur.i32_le(what)?);
            }
        }
        let [
            event_box_version,
            anibg_version,
            item_box_version,
            gimmick_version,
            script_count1,
            script_condition_count1,
            script_count2,
            script_condition_count2,
        ] = gated;
        let model_path = cur.wstr("Header.ModelPath")?;
        let nav_mesh_path = cur.wstr("Header.NavMeshPath")?;
        let main = super::Versions {
            main: version,
            ..super::Versions::default()
        };
        let nav_height_path = if super::gates::NAV_HEIGHT_AND_OBSTACLE_PATHS.stored(main) {
            Some(cur.wstr("Header.NavHeightPath")?)
        } else {
            None
        };
        let event_box_path = cur.wstr("Header.EventBoxPath")?;
        Ok((
            Header {
                signature,
                version,
                event_box_version,
                anibg_version,
                item_box_version,
                gimmick_version,
                script_count1,
                script_condition_count1,
                script_count2,
                script_condition_count2,
                model_path,
                nav_mesh_path,
                nav_height_path,
                event_box_path,
            },
            cur.offset(),
        ))
    }

    /// Whether the model path is what a map has: empty, `.\`, or a `.mmp` file. (`.mdata` model
    /// files share the signature; their second string is not a map model.)
    pub fn model_path_is_a_map(&self) -> bool {
        let t = self.model_path.trimmed();
        t.is_empty() || t.is_no_path() || t.ends_with_ignore_ascii_case(".mmp")
    }
}

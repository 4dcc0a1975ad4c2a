//! The owned model of the records declared in tables (every EventBox type but the unknown 14;
//! AniBG, ItemBox, Gimmick; a trigger; a scene resource, its cues, sounds, ambient sounds, paths
//! and sound block; a camera info and its lists; a scene's first and second pass), their writers
//! and their conversion from the reader's records: all made from the four tables of
//! `wdata::flat_records` (`flat_event_boxes!`, `flat_sections!`, `flat_inner_records!`,
//! `nested_records!`), which the reader expands too (so a field added there, or a gate changed,
//! is read, held, written and copied).

use zerocopy::little_endian::{F32, I32};

use super::encode::Encoder;
use super::event_boxes::{
    CameraTargetName, PvsEventBoxes, Record, RenderEntry, WaypointLink, place,
};
use super::from_view::{
    b32, camera_infos, copied, event_entries, floats, names, obb, pvs_event_boxes, render_entries,
    scene_elements, ws,
};
use super::map::{Bool32, Obb, TriggerLayout, WString};
use super::scenes::{EventEntry, SceneElement};
use crate::bytes::Place;
use crate::error::Result;
use crate::wdata::FixedGroup;
use crate::wdata::Versions;
use crate::wdata::flat_records::{
    first, flat_event_boxes, flat_inner_records, flat_sections, gate_doc, kind_doc, last_doc,
    nested_records, one, then_doc,
};
use crate::write_error::WriteResult;

/// The model's type for a field kind; a gated field is an `Option`. A fixed group's type is the
/// reader's.
macro_rules! model_type {
    ($kind:ident, $ver:ident) => {
        Option<model_type!($kind)>
    };
    (obb) => {
        Obb
    };
    (i32) => {
        i32
    };
    (u32) => {
        u32
    };
    (f32) => {
        f32
    };
    (bool32) => {
        Bool32
    };
    (wstr) => {
        WString
    };
    (vec3) => {
        [f32; 3]
    };
    (f32x14) => {
        [f32; 14]
    };
    (i32x7) => {
        [i32; 7]
    };
    (wstrx2) => {
        [WString; 2]
    };
    (sounds) => {
        Vec<Sound>
    };
    (cues) => {
        Vec<Cue>
    };
    (ambients) => {
        Vec<Ambient>
    };
    (scene_paths) => {
        Vec<SceneData>
    };
    (sound_block) => {
        SoundBlock
    };
    (bool32x5) => {
        [Bool32; 5]
    };
    (target_name) => {
        CameraTargetName
    };
    (camera_infos) => {
        [CameraInfo; 4]
    };
    (camera_lists) => {
        CameraLists
    };
    (f32s) => {
        Vec<f32>
    };
    (u32s) => {
        Vec<u32>
    };
    (vec3s) => {
        Vec<[f32; 3]>
    };
    (names) => {
        Vec<WString>
    };
    (render_entries) => {
        Vec<RenderEntry>
    };
    (scene_elements) => {
        Vec<SceneElement>
    };
    (event_entries) => {
        Vec<EventEntry>
    };
    (pvs_event_boxes) => {
        PvsEventBoxes
    };
    (waypoint_links) => {
        Vec<WaypointLink>
    };
    ($group:ident) => {
        crate::wdata::$group
    };
}

/// Writes a field of kind `$kind` named `$what` (`$g`, `$p`: the versions and the record's place
/// in its run, for the kinds that are records themselves); a fixed group fills the reader's raw
/// struct.
macro_rules! write_field {
    ($s:ident, $g:ident, $p:ident, obb, $v:expr, $what:expr) => {
        $v.write($s, $what)?
    };
    ($s:ident, $g:ident, $p:ident, i32, $v:expr, $what:expr) => {
        $s.i32($v)
    };
    ($s:ident, $g:ident, $p:ident, u32, $v:expr, $what:expr) => {
        $s.u32($v)
    };
    ($s:ident, $g:ident, $p:ident, f32, $v:expr, $what:expr) => {
        $s.f32($v)
    };
    ($s:ident, $g:ident, $p:ident, bool32, $v:expr, $what:expr) => {
        $s.bool32($v)
    };
    ($s:ident, $g:ident, $p:ident, wstr, $v:expr, $what:expr) => {
        $s.wstr(&$v, $what)?
    };
    ($s:ident, $g:ident, $p:ident, vec3, $v:expr, $what:expr) => {
        $s.out.put(&$v.map(F32::new))
    };
    ($s:ident, $g:ident, $p:ident, f32x14, $v:expr, $what:expr) => {
        $s.out.put(&$v.map(F32::new))
    };
    ($s:ident, $g:ident, $p:ident, bool32x5, $v:expr, $what:expr) => {
        for d in $v {
            $s.bool32(d);
        }
    };
    ($s:ident, $g:ident, $p:ident, i32x7, $v:expr, $what:expr) => {
        $s.out.put(&$v.map(I32::new))
    };
    ($s:ident, $g:ident, $p:ident, wstrx2, $v:expr, $what:expr) => {
        $s.wstrs(&$v, $what)?
    };
    // A run: an `i32` count, then the records.
    ($s:ident, $g:ident, $p:ident, sounds, $v:expr, $what:expr) => {
        write_run($s, &$v, $g, $what)?
    };
    ($s:ident, $g:ident, $p:ident, cues, $v:expr, $what:expr) => {
        write_run($s, &$v, $g, $what)?
    };
    ($s:ident, $g:ident, $p:ident, ambients, $v:expr, $what:expr) => {
        write_run($s, &$v, $g, $what)?
    };
    ($s:ident, $g:ident, $p:ident, scene_paths, $v:expr, $what:expr) => {
        write_run($s, &$v, $g, $what)?
    };
    ($s:ident, $g:ident, $p:ident, sound_block, $v:expr, $what:expr) => {
        $v.write($s, $g, $p)?
    };
    // The four camera infos, each knowing whether it is the first.
    ($s:ident, $g:ident, $p:ident, camera_infos, $v:expr, $what:expr) => {
        for (index, info) in (0u32..).zip(&$v) {
            info.write(
                $s,
                $g,
                Place {
                    index,
                    last: index == 3,
                },
            )?;
        }
    };
    ($s:ident, $g:ident, $p:ident, camera_lists, $v:expr, $what:expr) => {
        $v.write($s, $g, $p)?
    };
    ($s:ident, $g:ident, $p:ident, $group:ident, $v:expr, $what:expr) => {
        $s.out.put(&FixedGroup::to_raw(&$v))
    };
}

/// Writes a list's items (after every count of the record); a list counted `here` and any other
/// field is written already.
macro_rules! write_list {
    ($s:ident, $g:ident, $kind:ident, $val:expr, $what:expr, here) => {};
    ($s:ident, $g:ident, f32s, $val:expr, $what:expr) => {
        $s.f32s(&$val);
    };
    ($s:ident, $g:ident, u32s, $val:expr, $what:expr) => {
        for &x in &$val {
            $s.u32(x);
        }
    };
    ($s:ident, $g:ident, vec3s, $val:expr, $what:expr) => {
        for p in &$val {
            $s.out.put(&p.map(F32::new));
        }
    };
    ($s:ident, $g:ident, names, $val:expr, $what:expr) => {
        $s.wstrs(&$val, $what)?;
    };
    ($s:ident, $g:ident, render_entries, $val:expr, $what:expr) => {
        for e in &$val {
            e.write($s, $g)?;
        }
    };
    ($s:ident, $g:ident, scene_elements, $val:expr, $what:expr) => {
        for e in &$val {
            e.write($s, $g)?;
        }
    };
    ($s:ident, $g:ident, event_entries, $val:expr, $what:expr) => {
        for e in &$val {
            $s.u32(e.category);
            $s.wstr(&e.key, $what)?;
        }
    };
    ($s:ident, $g:ident, pvs_event_boxes, $val:expr, $what:expr) => {
        $val.write_items($s, $what)?;
    };
    ($s:ident, $g:ident, waypoint_links, $val:expr, $what:expr) => {
        for l in &$val {
            $s.i32(l.id);
        }
        for l in &$val {
            $s.f32(l.distance);
        }
    };
    ($s:ident, $g:ident, $kind:ident, $val:expr, $what:expr) => {};
}

/// A list's count, as wide as the table says (`i32` unless `u32`); the PVS list first checks that
/// its variant is the one the EventBox version stores.
macro_rules! write_count {
    ($s:ident, $g:ident, pvs_event_boxes, $val:expr, $what:expr, $count:expr $(, $cw:ident)?) => {
        $val.check($g, $what)?;
        write_count!($s, $g, list, $val, $what, $count $(, $cw)?);
    };
    ($s:ident, $g:ident, $kind:ident, $val:expr, $what:expr, $count:expr) => {
        $s.count_i32($val.len(), $count)?;
    };
    ($s:ident, $g:ident, $kind:ident, $val:expr, $what:expr, $count:expr, u32) => {
        $s.count_u32($val.len(), $count)?;
    };
}

/// Writes a list's count when it is the one stored in slot `$slot` of the record's counts (the
/// `@N` of the table); nothing for any other field.
macro_rules! write_slot {
    (
        $s:ident, $g:ident, $at:ident, $kind:ident, $val:expr, $what:expr,
        $count:expr $(, $cw:ident)?, @ $slot:literal
    ) => {
        if $at == $slot {
            write_count!($s, $g, $kind, $val, $what, $count $(, $cw)?);
        }
    };
    ($s:ident, $g:ident, $at:ident, $kind:ident, $val:expr, $what:expr $(, $($rest:tt)*)?) => {};
}

/// Writes a field, or for a gated one checks that the model holds it exactly when the version
/// stores it (naming the field when not) and writes it then, or for a list writes its count.
macro_rules! write_gated {
    ($s:ident, $g:ident, $p:ident, target_name, $val:expr, $what:expr) => {
        $val.write($s, $g)?;
    };
    // A list counted `here`: its count, then its items at once.
    ($s:ident, $g:ident, $p:ident, $kind:ident, $val:expr, $what:expr, count here $count:expr) => {
        write_count!($s, $g, $kind, $val, $what, $count);
        write_list!($s, $g, $kind, $val, $what);
    };
    // A run with a value between its count and its records: the value is present exactly when
    // the run has records (the error's value is the count).
    (
        $s:ident, $g:ident, $p:ident, $kind:ident, $val:expr, $what:expr,
        then $tval:expr, $tkind:ident, $twhat:expr, $why:expr
    ) => {
        $s.count_i32($val.len(), $what)?;
        if $tval.is_some() == $val.is_empty() {
            return Err(crate::wdata::model::encode::refused($twhat,
                crate::bytes::u64_of($val.len()),
                $why,
            ));
        }
        if let Some(x) = &$tval {
            write_field!($s, $g, $p, $tkind, *x, $twhat);
        }
        write_records($s, &$val, $g)?;
    };
    // A count stored in a slot: written with the others, in slot order.
    (
        $s:ident, $g:ident, $p:ident, $kind:ident, $val:expr, $what:expr,
        count $count:expr $(, $cw:ident)?, @ $slot:literal
    ) => {};
    (
        $s:ident, $g:ident, $p:ident, $kind:ident, $val:expr, $what:expr,
        count $count:expr $(, $cw:ident)?
    ) => {
        write_count!($s, $g, $kind, $val, $what, $count $(, $cw)?);
    };
    (
        $s:ident, $g:ident, $p:ident, $kind:ident, unless $last:ident ($why:literal),
        $val:expr, $what:expr
    ) => {
        // The error's value is the record's index.
        if $val.is_some() == $p.$last {
            return Err(crate::wdata::model::encode::refused($what,
                u64::from($p.index),
                $why,
            ));
        }
        if let Some(x) = &$val {
            write_field!($s, $g, $p, $kind, *x, $what);
        }
    };
    (
        $s:ident, $g:ident, $p:ident, $kind:ident, $ver:ident $op:tt $min:literal $(|| $first:ident)?,
        $val:expr, $what:expr
    ) => {
        if let Some(x) = $s.gate(&$val, $g.$ver $op $min $(|| $first($p))?, $g.$ver, $what)? {
            write_field!($s, $g, $p, $kind, *x, $what);
        }
    };
    ($s:ident, $g:ident, $p:ident, $kind:ident, $val:expr, $what:expr) => {
        write_field!($s, $g, $p, $kind, $val, $what);
    };
}

/// The model's value of a reader's field.
macro_rules! from_read {
    ($kind:ident, $ver:ident, $v:expr) => {
        match $v {
            Some(x) => Some(from_read!($kind, x)),
            None => None,
        }
    };
    (obb, $v:expr) => {
        obb(&$v)
    };
    (bool32, $v:expr) => {
        b32($v)
    };
    (wstr, $v:expr) => {
        ws($v)
    };
    (bool32x5, $v:expr) => {
        $v.map(b32)
    };
    (target_name, $v:expr) => {
        CameraTargetName::from_read($v)
    };
    (camera_infos, $v:expr) => {
        camera_infos($v)?
    };
    (wstrx2, $v:expr) => {
        $v.map(ws)
    };
    (sounds, $v:expr) => {
        copied($v, Sound::from_read)?
    };
    (cues, $v:expr) => {
        copied($v, Cue::from_read)?
    };
    (ambients, $v:expr) => {
        copied($v, Ambient::from_read)?
    };
    (scene_paths, $v:expr) => {
        copied($v, SceneData::from_read)?
    };
    (sound_block, $v:expr) => {
        SoundBlock::from_read(&$v)?
    };
    (camera_lists, $v:expr) => {
        CameraLists::from_read(&$v)?
    };
    (f32s, $v:expr) => {
        floats($v)
    };
    (u32s, $v:expr) => {
        $v.iter().map(|x| x.get()).collect()
    };
    (vec3s, $v:expr) => {
        $v.iter().map(crate::wdata::raw::floats).collect()
    };
    (render_entries, $v:expr) => {
        render_entries($v)?
    };
    (scene_elements, $v:expr) => {
        scene_elements($v)?
    };
    (event_entries, $v:expr) => {
        event_entries($v)?
    };
    (pvs_event_boxes, $v:expr) => {
        pvs_event_boxes($v)?
    };
    (waypoint_links, $v:expr) => {
        $v.iter()
            .map(|(id, distance)| WaypointLink { id, distance })
            .collect()
    };
    (names, $v:expr) => {
        names($v)?
    };
    // Numbers, vectors and fixed groups are the same values in both.
    ($kind:ident, $v:expr) => {
        $v
    };
}

/// The owned struct, its writer and its conversion for each record of a table.
macro_rules! model_records {
    (
        $count_prefix:literal;
        $(
            $(#[$doc:meta])*
            $name:ident = $label:literal in $section:literal
                $(model $model:ident $(+ { $($extra:tt)* })?)? {
                $(
                    $(#[$fdoc:meta])*
                    $field:ident : $kind:ident
                        $([$($here:ident)? $count:literal $($cw:ident)? $(@ $slot:literal)?])?
                        $(if $ver:ident $op:tt $min:literal $(or $first:ident)?)?
                        $(unless $last:ident ($why:literal))?
                        = $fname:literal $((json $key:literal))?
                        $(then { $(#[$tdoc:meta])* $then:ident : $tkind:ident = $tname:literal })?,
                )*
            }
        )*
    ) => {$(
        model_struct! {
            $(#[$doc])*
            #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
            #[derive(Clone, Debug, PartialEq, Default)]
            [$name $($model)?] {
                $(
                    $(
                        $(#[$tdoc])*
                        #[doc = ""]
                        #[doc = then_doc!()]
                        #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
                        pub $then: Option<model_type!($tkind)>,
                    )?
                    $(#[$fdoc])*
                    #[doc = kind_doc!($kind)]
                    $(
                        #[doc = ""]
                        #[doc = gate_doc!($ver $op $min $(, $first)?)]
                        #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
                    )?
                    $(
                        #[doc = ""]
                        #[doc = last_doc!($last)]
                        #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
                    )?
                    $(#[cfg_attr(feature = "serde", serde(rename = $key))])?
                    pub $field: model_type!($kind $(, $ver)? $(, $last)?),
                )*
            } [$($($($extra)*)?)?]
        }

        impl Record for model_name!($name $($model)?) {
            const WHAT: &'static str = concat!($count_prefix, $label, ".count");
            const SECTION: &'static str = $section;
            fn write(&self, s: &mut Encoder, v: Versions, place: Place) -> WriteResult<()> {
                // Read only by the gated fields and the nested records (a record may have none).
                let _ = (v, place);
                $(
                    write_gated!(
                        s,
                        v,
                        place,
                        $kind,
                        $($ver $op $min $(|| $first)?,)?
                        $(unless $last ($why),)?
                        self.$field,
                        concat!($label, ".", $fname)
                        $(, count $($here)? concat!($label, ".", $count) $(, $cw)? $(, @ $slot)?)?
                        $(
                            , then self.$then,
                            $tkind,
                            concat!($label, ".", $tname),
                            concat!(
                                "stored after ", $label, ".", $fname,
                                " exactly when that count is not zero (value: the count)"
                            )
                        )?
                    );
                )*
                // The counts stored in slots, in slot order.
                let slotted: u32 = 0 $($($(+ one!($slot))?)?)*;
                // (`at` is unused in a record without slotted counts.)
                #[allow(unused_variables)]
                for at in 0..slotted {
                    $(
                        write_slot!(
                            s,
                            v,
                            at,
                            $kind,
                            self.$field,
                            concat!($label, ".", $fname)
                            $(, concat!($label, ".", $count) $(, $cw)? $(, @ $slot)?)?
                        );
                    )*
                }
                $(
                    write_list!(
                        s, v, $kind, self.$field, concat!($label, ".", $fname) $($(, $here)?)?
                    );
                )*
                Ok(())
            }
        }

        impl model_name!($name $($model)?) {
            /// Copies the reader's record (its lists are read again, and may fail).
            pub(crate) fn from_read(r: &crate::wdata::$name<'_>) -> Result<Self> {
                Ok(Self {
                    $(
                        $($then: from_read!($tkind, then, r.$then),)?
                        $field: from_read!($kind $(, $ver)? $(, $last)?, r.$field),
                    )*
                    // The model's own fields (a scene's second pass) are the caller's to fill;
                    // a record without any names every field above.
                    $($(..{ ignore!($($extra)*); Self::default() })?)?
                })
            }
        }
    )*};
}

/// The model's struct: named as the reader's record, or as the table's `model` clause says, with
/// the clause's own fields after the table's. Its JSON refuses unknown keys, beside a flattened
/// field too (the triggers' layout): serde's derive hands a flattened enum the keys no other
/// field took, the enum takes the one naming its variant, and `deny_unknown_fields` refuses any
/// key still left over (a test in `json.rs` holds serde to it).
macro_rules! model_struct {
    ($(#[$a:meta])* [$name:ident] { $($body:tt)* } []) => {
        $(#[$a])*
        #[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
        pub struct $name { $($body)* }
    };
    ($(#[$a:meta])* [$name:ident $model:ident] { $($body:tt)* } [$($extra:tt)*]) => {
        $(#[$a])*
        #[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
        pub struct $model { $($body)* $($extra)* }
    };
}

/// The model's type name for a record (see [`model_struct!`]).
macro_rules! model_name {
    ($name:ident) => {
        $name
    };
    ($name:ident $model:ident) => {
        $model
    };
}

/// An `i32` count (named `what`), then the records.
fn write_run<R: Record>(
    s: &mut Encoder,
    list: &[R],
    versions: Versions,
    what: &'static str,
) -> WriteResult<()> {
    s.count_i32(list.len(), what)?;
    write_records(s, list, versions)
}

/// The records of a run, each knowing its place in it.
fn write_records<R: Record>(s: &mut Encoder, list: &[R], versions: Versions) -> WriteResult<()> {
    for (i, r) in list.iter().enumerate() {
        r.write(s, versions, place(i, list.len()))?;
    }
    Ok(())
}

/// Swallows its tokens (to expand a repetition only where the tokens are present).
macro_rules! ignore {
    ($($t:tt)*) => {};
}

flat_event_boxes!(model_records);
flat_sections!(model_records);
flat_inner_records!(model_records);
nested_records!(model_records);

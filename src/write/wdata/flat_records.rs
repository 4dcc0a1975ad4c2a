//! The owned model of the flat records (every EventBox type but CameraBox and WaypointBox; AniBG,
//! ItemBox, Gimmick; a trigger, a scene resource's cues, sounds and ambient sounds), their writers
//! and their conversion from the reader's records: all made from the three tables of
//! `wdata::flat_records` (`flat_event_boxes!`, `flat_sections!`, `flat_inner_records!`), which
//! the reader expands too (so a field added there, or a gate changed, is read, held, written and
//! copied).

use zerocopy::little_endian::F32;

use super::encode::Sink;
use super::event_boxes::{CameraTargetName, Record};
use super::model::{Bool32, Obb, WString};
use crate::error::Result;
use crate::wdata::FixedGroup;
use crate::wdata::Versions;
use crate::wdata::flat_records::{
    flat_event_boxes, flat_inner_records, flat_sections, gate_doc, kind_doc,
};
use crate::write::wdata_from_view::{b32, floats, names, obb, ws};

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
    (bool32x5) => {
        [Bool32; 5]
    };
    (target_name) => {
        CameraTargetName
    };
    (f32s) => {
        Vec<f32>
    };
    (names) => {
        Vec<WString>
    };
    ($group:ident) => {
        crate::wdata::$group
    };
}

/// Writes a field of kind `$kind` named `$what`; a fixed group fills the reader's raw struct.
macro_rules! write_field {
    ($s:ident, obb, $v:expr, $what:expr) => {
        $v.write($s, $what)?
    };
    ($s:ident, i32, $v:expr, $what:expr) => {
        $s.i32($v)
    };
    ($s:ident, u32, $v:expr, $what:expr) => {
        $s.u32($v)
    };
    ($s:ident, f32, $v:expr, $what:expr) => {
        $s.f32($v)
    };
    ($s:ident, bool32, $v:expr, $what:expr) => {
        $s.bool32($v)
    };
    ($s:ident, wstr, $v:expr, $what:expr) => {
        $s.wstr(&$v, $what)?
    };
    ($s:ident, vec3, $v:expr, $what:expr) => {
        $s.out.put(&$v.map(F32::new))
    };
    ($s:ident, bool32x5, $v:expr, $what:expr) => {
        for d in $v {
            $s.bool32(d);
        }
    };
    ($s:ident, $group:ident, $v:expr, $what:expr) => {
        $s.out.put(&FixedGroup::to_raw(&$v))
    };
}

/// Writes a list's items (after every count of the record); any other field is written already.
macro_rules! write_list {
    ($s:ident, f32s, $val:expr, $what:expr) => {
        $s.f32s(&$val);
    };
    ($s:ident, names, $val:expr, $what:expr) => {
        $s.wstrs(&$val, $what)?;
    };
    ($s:ident, $kind:ident, $val:expr, $what:expr) => {};
}

/// Writes a field, or for a gated one checks that the model holds it exactly when the version
/// stores it (naming the field when not) and writes it then, or for a list writes its count.
macro_rules! write_gated {
    ($s:ident, $v:ident, target_name, $val:expr, $what:expr) => {
        $val.write($s, $v)?;
    };
    ($s:ident, $v:ident, $kind:ident, $val:expr, $what:expr, count $count:expr) => {
        $s.count_i32($val.len(), $count)?;
    };
    ($s:ident, $v:ident, $kind:ident, $ver:ident >= $min:literal, $val:expr, $what:expr) => {
        if let Some(x) = $s.gate(&$val, $v.$ver >= $min, $v.$ver, $what)? {
            write_field!($s, $kind, *x, $what);
        }
    };
    ($s:ident, $v:ident, $kind:ident, $val:expr, $what:expr) => {
        write_field!($s, $kind, $val, $what);
    };
}

/// The model's value of a reader's field.
macro_rules! from_read {
    ($kind:ident, $ver:ident, $v:expr) => {
        $v.map(|x| from_read!($kind, x))
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
    (f32s, $v:expr) => {
        floats($v)
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
            $name:ident = $label:literal in $section:literal {
                $(
                    $(#[$fdoc:meta])*
                    $field:ident : $kind:ident $([$count:literal])?
                        $(if $ver:ident >= $min:literal)?
                        = $fname:literal $((json $key:literal))?,
                )*
            }
        )*
    ) => {$(
        $(#[$doc])*
        #[cfg_attr(
            feature = "serde",
            derive(serde::Serialize, serde::Deserialize),
            serde(deny_unknown_fields)
        )]
        #[derive(Clone, Debug, PartialEq, Default)]
        pub struct $name {
            $(
                $(#[$fdoc])*
                #[doc = kind_doc!($kind)]
                $(
                    #[doc = ""]
                    #[doc = gate_doc!($ver, $min)]
                    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
                )?
                $(#[cfg_attr(feature = "serde", serde(rename = $key))])?
                pub $field: model_type!($kind $(, $ver)?),
            )*
        }

        impl Record for $name {
            const WHAT: &'static str = concat!($count_prefix, $label, ".count");
            const SECTION: &'static str = $section;
            fn write(&self, s: &mut Sink, v: Versions) -> Result<()> {
                // Read only by the gated fields (a record may have none).
                let _ = v;
                $(
                    write_gated!(
                        s,
                        v,
                        $kind,
                        $($ver >= $min,)?
                        self.$field,
                        concat!($label, ".", $fname)
                        $(, count concat!($label, ".", $count))?
                    );
                )*
                $( write_list!(s, $kind, self.$field, concat!($label, ".", $fname)); )*
                Ok(())
            }
        }

        impl $name {
            /// Copies the reader's record (its lists are read again, and may fail).
            pub(crate) fn from_read(r: &crate::wdata::$name<'_>) -> Result<$name> {
                Ok($name {
                    $( $field: from_read!($kind $(, $ver)?, r.$field), )*
                })
            }
        }
    )*};
}

flat_event_boxes!(model_records);
flat_sections!(model_records);
flat_inner_records!(model_records);

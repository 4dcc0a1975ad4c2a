//! The `.wdata` records declared once, in four tables at the end of this file: the EventBoxes
//! (every type but the unknown 14), the AniBG, ItemBox and Gimmick sections (whose fields are
//! gated on their sub-versions), the flat records inside other sections (a trigger, a scene
//! resource's cues, sounds and ambient sounds) and the nested ones (the records other records or
//! sections hold: a CameraBox's camera infos and their lists, a scene's first and second pass, a
//! scene resource, its paths and its sound block). Each table is one invocation of
//! [`records!`], the grammar written once: for every record (its name, its format name for
//! errors, where its list sits in the map's JSON, and each field with its kind, its version gate
//! and its format name) it makes the reader's borrowed struct and its `read` here, and, with the
//! `write` feature, in the module the table names (re-exported by `wdata::model`), the owned
//! model's struct, its writer and its conversion from the reader's record. So a field added to a
//! record, or a gate changed, reaches all of them.
//!
//! What a field of each kind is, and how it is read and written, is the kind's: one
//! implementation of [`FieldKind`](super::kind::FieldKind) in `kind.rs`, which the grammar calls
//! whatever the kind (it knows only where a field stands: gated, counted, in place).
//!
//! Record syntax: `Name = "FormatName" in "json.section" { fields }`, optionally with
//! `model ModelName` before the `{` (the model's struct is named so) and `+ { fields }` after it
//! (fields of the model's own, written out in full, that the caller fills: a scene's second
//! pass, the triggers' layout).
//!
//! Field syntax: `name: kind = "FormatName"`, then optionally:
//! - `if version OP N` before the `=`: the field is stored only when that field of
//!   [`Versions`](super::Versions) compares so with `N` (`>=`, `<=`); it is an `Option`, `Some`
//!   exactly then; `or first` after it: stored in the first record of its run too. The gate is
//!   written down once, as a `const fn` of the record named as the field
//!   (`Sound::fades(versions, place)`), which the reader, the writer and the steps over records
//!   by their lengths (`step.rs`) all ask;
//! - `unless last ("why")` before the `=`: stored in every record of its run but the last (the
//!   writer's error gives the reason);
//! - `(json "key")` after the format name: the model's JSON key when it is not the field's name;
//! - `["CountName"]` after a list's kind (`["CountName" u32]` for a `u32` count): the list's
//!   count, an `i32` named `CountName`. Lists come last in a record, and the file stores every
//!   list's count (in field order) before the first list's items; `["CountName" @N]` when the
//!   counts are stored in another order than the lists: the count is the `N`th (from 0) of the
//!   record's counts (then every list of the record names its slot); `[here "CountName"]`: the
//!   count is stored in the field's place and the items right after it (such a list may stand
//!   anywhere in a record);
//! - `then { value: kind = "FormatName" }` after a run's format name: a value stored between
//!   the run's count and its records, only when the count is not zero (a scene resource's delay
//!   after its path count). It is a field of its own, an `Option` (`Some` exactly when the run
//!   has records) that comes just before the run's field in the struct and the JSON.
//!
//! Field kinds: the types of [`kind`](super::kind), by name (`obb`, `i32`, `wstr`, `vec3`,
//! `sounds`, `camera_lists`, `f32s`, `render_entries` …, and the fixed groups of plain numbers
//! such as `Signpost`). A list's kind implements `Listed`, any other `InPlace`.

/// Whether a record is the first of its run: the `or first` of a gate (a CameraBox's first
/// camera info stores its target in every version).
pub(crate) const fn first(place: crate::bytes::Place) -> bool {
    place.index == 0
}

/// Documents a field's gate (on both the reader's and the model's field).
macro_rules! gate_doc {
    ($ver:ident $op:tt $min:literal) => {
        concat!(
            "Stored only when [`Versions::",
            stringify!($ver),
            "`](crate::wdata::Versions::",
            stringify!($ver),
            ") ",
            stringify!($op),
            " ",
            stringify!($min),
            " (`None` otherwise)."
        )
    };
    ($ver:ident $op:tt $min:literal, $first:ident) => {
        concat!(
            "Stored in the first record of its run, and in every one when [`Versions::",
            stringify!($ver),
            "`](crate::wdata::Versions::",
            stringify!($ver),
            ") ",
            stringify!($op),
            " ",
            stringify!($min),
            " (`None` where it is not)."
        )
    };
}

/// Documents the value stored between a run's count and its records (`then`).
macro_rules! then_doc {
    () => {
        "Stored after the count of the run that follows, only when the run has records (`None` \
         otherwise)."
    };
}

/// Documents a field stored in every record of its run but the last (`unless last`).
macro_rules! last_doc {
    (last) => {
        "Stored in every record of its run but the last (`None` in the last)."
    };
}

/// A field's type on one side (`Read<'a>` for the reader, by the kind's alias in
/// `kind::read`; `Model` for the owned model): its kind's, in an `Option` when the field may be left out (`if` gate, `unless last`).
macro_rules! field_type {
    (Read<$lt:lifetime>, $kind:ident) => {
        $crate::wdata::kind::read::$kind<$lt>
    };
    (Model, $kind:ident) => {
        <$crate::wdata::kind::$kind as $crate::wdata::kind::FieldKind>::Model
    };
    ($side:ident $(<$lt:lifetime>)?, $kind:ident, $optional:ident) => {
        Option<field_type!($side $(<$lt>)?, $kind)>
    };
}

/// The fewest bytes a field takes: a list its count, a field that may be left out nothing.
macro_rules! field_min_size {
    ($kind:ident [list $count:literal]) => {
        4
    };
    ($kind:ident if $ver:ident) => {
        0
    };
    ($kind:ident unless $last:ident) => {
        0
    };
    ($kind:ident) => {
        <$crate::wdata::kind::$kind as $crate::wdata::kind::InPlace>::MIN_SIZE
    };
}

/// Where a field named `$label.$fname` is, in a record at `$p` of its run (a box's placement is
/// `$label.Obb`).
macro_rules! field_at {
    ($v:expr, $p:expr, $label:literal, $fname:literal) => {
        $crate::wdata::kind::FieldAt {
            field: concat!($label, ".", $fname),
            placement: concat!($label, ".Obb"),
            versions: $v,
            place: $p,
        }
    };
}

/// Reads a field stored in place.
macro_rules! read_in_place {
    ($cur:ident, $v:ident, $p:ident, $kind:ident, $label:literal, $fname:literal) => {
        <$crate::wdata::kind::$kind as $crate::wdata::kind::InPlace>::read(
            $cur,
            field_at!($v, $p, $label, $fname),
        )?
    };
}

/// A list's count, as wide as the table says (`i32` unless `u32`), checked against the bytes
/// its items need.
macro_rules! read_count {
    ($cur:ident, $kind:ident, $what:expr) => {
        $cur.count(
            $what,
            <$crate::wdata::kind::$kind as $crate::wdata::kind::Listed>::ITEM_SIZE,
        )?
    };
    ($cur:ident, $kind:ident, $what:expr, u32) => {
        $cur.count_u32(
            $what,
            <$crate::wdata::kind::$kind as $crate::wdata::kind::Listed>::ITEM_SIZE,
        )?
    };
}

/// Reads a field as its place in the table says: a gated one `Some(field)` when the version
/// stores it and `None` (nothing read) when it does not; a list its count (the items come after
/// every count), or counted `here` its count and items at once.
macro_rules! read_field {
    // A list counted `here`: its count, then its items at once.
    (
        $cur:ident, $v:ident, $p:ident, $kind:ident, $label:literal, $fname:literal,
        here $count:literal
    ) => {{
        let n = read_count!($cur, $kind, concat!($label, ".", $count));
        <$crate::wdata::kind::$kind as $crate::wdata::kind::Listed>::read_items(
            $cur,
            n,
            field_at!($v, $p, $label, $fname),
        )?
    }};
    // A run with a value between its count and its records: the value goes to `$then` (declared
    // by the record's read), the run is the field.
    (
        $cur:ident, $v:ident, $p:ident, $kind:ident, $label:literal, $fname:literal,
        then $then:ident $tkind:ident $tname:literal
    ) => {{
        let (value, run) = $crate::wdata::Run::read_counted_then(
            $cur,
            $v,
            concat!($label, ".", $fname),
            |$cur| Ok(read_in_place!($cur, $v, $p, $tkind, $label, $tname)),
        )?;
        $then = value;
        run
    }};
    // A count stored in a slot of the record's counts: read there, the cursor left at the
    // first count (it moves past them all once every count is read).
    (
        $cur:ident, $v:ident, $p:ident, $kind:ident, $label:literal, $fname:literal,
        $count:literal $(, $cw:ident)?, @ $slot:literal
    ) => {{
        let mut at = $crate::bytes::Cursor::new($cur.bytes(), $cur.offset().saturating_add(4 * $slot));
        read_count!(at, $kind, concat!($label, ".", $count) $(, $cw)?)
    }};
    (
        $cur:ident, $v:ident, $p:ident, $kind:ident, $label:literal, $fname:literal,
        $count:literal $(, $cw:ident)?
    ) => {
        read_count!($cur, $kind, concat!($label, ".", $count) $(, $cw)?)
    };
    (
        $cur:ident, $v:ident, $p:ident, $kind:ident, unless $last:ident ($why:literal),
        $label:literal, $fname:literal
    ) => {
        if $p.$last {
            None
        } else {
            Some(read_in_place!($cur, $v, $p, $kind, $label, $fname))
        }
    };
    (
        $cur:ident, $v:ident, $p:ident, $kind:ident,
        gated [$stored:path] $ver:ident $op:tt $min:literal $(|| $first:ident)?,
        $label:literal, $fname:literal
    ) => {
        if $stored($v, $p) {
            Some(read_in_place!($cur, $v, $p, $kind, $label, $fname))
        } else {
            None
        }
    };
    ($cur:ident, $v:ident, $p:ident, $kind:ident, $label:literal, $fname:literal) => {
        read_in_place!($cur, $v, $p, $kind, $label, $fname)
    };
}

/// A list (`[]`), once its count (`$n`) is read: the items, borrowed and checked; a list counted
/// `here` (`[here]`) and any other field as read.
macro_rules! read_items {
    ($cur:ident, $v:ident, $p:ident, $kind:ident, $n:ident, $label:literal, $fname:literal, []) => {
        <$crate::wdata::kind::$kind as $crate::wdata::kind::Listed>::read_items(
            $cur,
            $n,
            field_at!($v, $p, $label, $fname),
        )?
    };
    (
        $cur:ident, $v:ident, $p:ident, $kind:ident, $value:ident, $label:literal, $fname:literal
        $(, [$($here:ident)?])?
    ) => {
        $value
    };
}

/// Writes a field stored in place.
#[cfg(feature = "write")]
macro_rules! write_in_place {
    ($s:ident, $g:ident, $p:ident, $kind:ident, $v:expr, $what:expr) => {
        <$crate::wdata::kind::$kind as $crate::wdata::kind::InPlace>::write(
            $s,
            $v,
            $crate::wdata::kind::FieldAt::written($what, $g, $p),
        )?
    };
}

/// A list's count, as wide as the table says (`i32` unless `u32`), once the list is checked.
#[cfg(feature = "write")]
macro_rules! write_count {
    (
        $s:ident, $g:ident, $p:ident, $kind:ident, $val:expr, $what:expr, $count:expr
        $(, $cw:ident)?
    ) => {
        <$crate::wdata::kind::$kind as $crate::wdata::kind::Listed>::check(
            &$val,
            $crate::wdata::kind::FieldAt::written($what, $g, $p),
        )?;
        write_count!(@width $s, <$crate::wdata::kind::$kind as $crate::wdata::kind::Listed>::len(&$val), $count $(, $cw)?);
    };
    (@width $s:ident, $len:expr, $count:expr) => {
        $s.count_i32($len, $count)?
    };
    (@width $s:ident, $len:expr, $count:expr, u32) => {
        $s.count_u32($len, $count)?
    };
}

/// Writes a list's count when it is the one stored in slot `$slot` of the record's counts (the
/// `@N` of the table); nothing for any other field.
#[cfg(feature = "write")]
macro_rules! write_slot {
    (
        $s:ident, $g:ident, $p:ident, $at:ident, $kind:ident, $val:expr, $what:expr,
        $count:expr $(, $cw:ident)?, @ $slot:literal
    ) => {
        if $at == $slot {
            write_count!($s, $g, $p, $kind, $val, $what, $count $(, $cw)?);
        }
    };
    (
        $s:ident, $g:ident, $p:ident, $at:ident, $kind:ident, $val:expr, $what:expr
        $(, $($rest:tt)*)?
    ) => {};
}

/// Writes a field as its place in the table says: a gated one after checking that the model
/// holds it exactly when the version stores it (naming the field when not); a list its count,
/// or counted `here` its count and items at once.
#[cfg(feature = "write")]
macro_rules! write_field {
    // A list counted `here`: its count, then its items at once.
    ($s:ident, $g:ident, $p:ident, $kind:ident, $val:expr, $what:expr, count here $count:expr) => {
        write_count!($s, $g, $p, $kind, $val, $what, $count);
        write_items!($s, $g, $p, $kind, $val, $what, []);
    };
    // A run with a value between its count and its records: the value is present exactly when
    // the run has records (the error's value is the count).
    (
        $s:ident, $g:ident, $p:ident, $kind:ident, $val:expr, $what:expr,
        then $tval:expr, $tkind:ident, $twhat:expr, $why:expr
    ) => {
        $s.count_i32($val.len(), $what)?;
        if $tval.is_some() == $val.is_empty() {
            return Err($crate::wdata::write::encode::refused(
                $twhat,
                $crate::bytes::u64_of($val.len()),
                $why,
            ));
        }
        if let Some(x) = &$tval {
            write_in_place!($s, $g, $p, $tkind, x, $twhat);
        }
        $crate::wdata::write::write_records($s, &$val, $g)?;
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
        write_count!($s, $g, $p, $kind, $val, $what, $count $(, $cw)?);
    };
    (
        $s:ident, $g:ident, $p:ident, $kind:ident, unless $last:ident ($why:literal),
        $val:expr, $what:expr
    ) => {
        // The error's value is the record's index.
        if $val.is_some() == $p.$last {
            return Err($crate::wdata::write::encode::refused(
                $what,
                u64::from($p.index),
                $why,
            ));
        }
        if let Some(x) = &$val {
            write_in_place!($s, $g, $p, $kind, x, $what);
        }
    };
    (
        $s:ident, $g:ident, $p:ident, $kind:ident,
        gated [$stored:path] $ver:ident $op:tt $min:literal $(|| $first:ident)?,
        $val:expr, $what:expr
    ) => {
        if let Some(x) = $s.gate(
            &$val,
            $crate::wdata::gates::Decision {
                stored: $stored($g, $p),
                version: $g.$ver,
            },
            $what,
        )? {
            write_in_place!($s, $g, $p, $kind, x, $what);
        }
    };
    ($s:ident, $g:ident, $p:ident, $kind:ident, $val:expr, $what:expr) => {
        write_in_place!($s, $g, $p, $kind, &$val, $what);
    };
}

/// Writes a list's items (`[]`, after every count of the record); a list counted `here` and any
/// other field is written already.
#[cfg(feature = "write")]
macro_rules! write_items {
    ($s:ident, $g:ident, $p:ident, $kind:ident, $val:expr, $what:expr, []) => {
        <$crate::wdata::kind::$kind as $crate::wdata::kind::Listed>::write_items(
            $s,
            &$val,
            $crate::wdata::kind::FieldAt::written($what, $g, $p),
        )?;
    };
    ($s:ident, $g:ident, $p:ident, $kind:ident, $val:expr, $what:expr $(, [$($here:ident)?])?) => {};
}

/// The model's value of a reader's field (of one that may be left out, when it is there).
#[cfg(feature = "write")]
macro_rules! field_from_read {
    ($kind:ident, $v:expr) => {
        <$crate::wdata::kind::$kind as $crate::wdata::kind::FieldKind>::from_read(&$v)?
    };
    ($kind:ident, $v:expr, $optional:ident) => {
        match &$v {
            Some(x) => Some(field_from_read!($kind, *x)),
            None => None,
        }
    };
}

/// 1, whatever the token (to count a repetition).
macro_rules! one {
    ($t:tt) => {
        1
    };
}

/// Swallows its tokens (to expand a repetition only where the tokens are present).
#[cfg(feature = "write")]
macro_rules! ignore {
    ($($t:tt)*) => {};
}

/// The model's struct: named as the reader's record, or as the table's `model` clause says, with
/// the clause's own fields after the table's. Its JSON refuses unknown keys, beside a flattened
/// field too (the triggers' layout): serde's derive hands a flattened enum the keys no other
/// field took, the enum takes the one naming its variant, and `deny_unknown_fields` refuses any
/// key still left over (a test in `model/json.rs` holds serde to it).
#[cfg(feature = "write")]
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
#[cfg(feature = "write")]
macro_rules! model_name {
    ($name:ident) => {
        $name
    };
    ($name:ident $model:ident) => {
        $model
    };
}

/// The grammar of the tables, written once: for each record, the reader's borrowed struct, its
/// `read` and its [`Record`](super::Record) implementation (the fewest bytes it takes, from its
/// fields' kinds); and in the module `$models` (feature `write`) the owned model's struct, its
/// writer and its conversion from the reader's record.
macro_rules! records {
    (
        $count_prefix:literal in $models:ident;
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
    ) => {
        $(
            $(#[$doc])*
            #[derive(Debug, Clone, Copy, PartialEq)]
            // Fields in table order, so every EventBox record has its box first, at the same
            // place: `EventBox::obb` is then one address whatever the type (see `EventBox`).
            #[repr(C)]
            pub struct $name<'a> {
                $(
                    $(
                        $(#[$tdoc])*
                        #[doc = ""]
                        #[doc = then_doc!()]
                        pub $then: field_type!(Read<'a>, $tkind, then),
                    )?
                    $(#[$fdoc])*
                    $(#[doc = ""] #[doc = gate_doc!($ver $op $min $(, $first)?)])?
                    $(#[doc = ""] #[doc = last_doc!($last)])?
                    pub $field: field_type!(Read<'a>, $kind $(, $ver)? $(, $last)?),
                )*
            }

            impl<'a> $name<'a> {
                /// Reads the record at the cursor, the one at `place` in its run; `versions` open
                /// or close its gated fields.
                // Always inlined: opening a view reads every record only to check it and drops
                // it, and only inlined can the compiler drop what the record builds. Left to the
                // compiler, which inlines by how the crate's code is split into units (it
                // differs with the features), a CameraInfo's lists came back from an outlined
                // read and were copied three times per camera info (memcpy, about 300 bytes
                // each): 0.85 M of the 20.8 M instructions per open of the bench's large map.
                #[inline(always)]
                pub(crate) fn read(
                    cur: &mut $crate::bytes::Cursor<'a>,
                    versions: $crate::wdata::Versions,
                    place: $crate::bytes::Place,
                ) -> $crate::error::Result<Self> {
                    // Read only by the gated fields and the nested records (a record may have
                    // none).
                    let _ = (versions, place);
                    // The fields in order, a list's count in its place; then the lists' items.
                    $(
                        $(let $then;)?
                        let $field = read_field!(
                            cur,
                            versions,
                            place,
                            $kind,
                            $(gated [Self::$field] $ver $op $min $(|| $first)?,)?
                            $(unless $last ($why),)?
                            $label,
                            $fname
                            $(, $($here)? $count $(, $cw)? $(, @ $slot)?)?
                            $(, then $then $tkind $tname)?
                        );
                    )*
                    // Counts stored in slots were read where they are: move past them.
                    let slotted: usize = 0 $($($(+ one!($slot))?)?)*;
                    if slotted > 0 {
                        cur.take(4 * slotted, concat!($label, ".counts"))?;
                    }
                    $(
                        let $field = read_items!(
                            cur, versions, place, $kind, $field, $label, $fname
                            $(, [$($here)?])?
                        );
                    )*
                    Ok($name { $($($then,)? $field,)* })
                }
            }

            // The gates of the table, each once: whether a record stores a gated field.
            impl $name<'_> {
                $($(
                    #[doc = concat!(
                        "Whether a record at `place` of its run stores `", stringify!($field),
                        "` at these versions: its gate in the table (`if ", stringify!($ver),
                        " ", stringify!($op), " ", stringify!($min),
                        $(" or ", stringify!($first),)? "`)."
                    )]
                    // Asked by the reader and the writer, and by the steps over records by
                    // their lengths (`step.rs`, `camera_infos_end`).
                    #[inline(always)]
                    pub(crate) const fn $field(
                        versions: $crate::wdata::Versions,
                        place: $crate::bytes::Place,
                    ) -> bool {
                        let _ = place;
                        versions.$ver $op $min $(|| $crate::wdata::flat_records::$first(place))?
                    }
                )?)*
            }

            impl<'a> $crate::wdata::Record<'a> for $name<'a> {
                type Context = $crate::wdata::Versions;
                const MIN_SIZE: usize = 0 $(
                    + field_min_size!($kind $([list $count])? $(if $ver)? $(unless $last)?)
                )*;

                // Always inlined, as the inherent `read` is.
                #[inline(always)]
                fn read(
                    cur: &mut $crate::bytes::Cursor<'a>,
                    versions: $crate::wdata::Versions,
                    place: $crate::bytes::Place,
                ) -> $crate::error::Result<Self> {
                    Self::read(cur, versions, place)
                }
            }

            // A record must take bytes in every version: a stored count is bounded by them.
            const _: () = assert!(<$name<'_> as $crate::wdata::Record<'_>>::MIN_SIZE > 0);
        )*

        /// The owned model's records of this table (re-exported by `wdata::model`).
        #[cfg(feature = "write")]
        pub(crate) mod $models {
            // The model types a table's records name (one table's records name none).
            #[allow(unused_imports)]
            use $crate::wdata::model::*;
            use $crate::write_error::WriteResult;
            use $crate::wdata::Versions;
            use $crate::bytes::Place;
            use $crate::wdata::write::encode::Encoder;
            use $crate::wdata::write::Record;

            $(
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
                                pub $then: field_type!(Model, $tkind, then),
                            )?
                            $(#[$fdoc])*
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
                            pub $field: field_type!(Model, $kind $(, $ver)? $(, $last)?),
                        )*
                    } [$($($($extra)*)?)?]
                }

                impl Record for model_name!($name $($model)?) {
                    const WHAT: &'static str = concat!($count_prefix, $label, ".count");
                    const SECTION: &'static str = $section;
                    fn write(&self, s: &mut Encoder, v: Versions, place: Place) -> WriteResult<()> {
                        // Read only by the gated fields and the nested records (a record may
                        // have none).
                        let _ = (v, place);
                        $(
                            write_field!(
                                s,
                                v,
                                place,
                                $kind,
                                $(gated [$crate::wdata::$name::$field] $ver $op $min $(|| $first)?,)?
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
                                    place,
                                    at,
                                    $kind,
                                    self.$field,
                                    concat!($label, ".", $fname)
                                    $(, concat!($label, ".", $count) $(, $cw)? $(, @ $slot)?)?
                                );
                            )*
                        }
                        $(
                            write_items!(
                                s, v, place, $kind, self.$field, concat!($label, ".", $fname)
                                $(, [$($here)?])?
                            );
                        )*
                        Ok(())
                    }
                }

                impl model_name!($name $($model)?) {
                    /// Copies the reader's record (its lists are read again, and may fail).
                    pub(crate) fn from_read(
                        r: &$crate::wdata::$name<'_>,
                    ) -> $crate::error::Result<Self> {
                        Ok(Self {
                            $(
                                $($then: field_from_read!($tkind, r.$then, then),)?
                                $field: field_from_read!($kind, r.$field $(, $ver)? $(, $last)?),
                            )*
                            // The model's own fields (a scene's second pass) are the caller's to
                            // fill; a record without any names every field above.
                            $($(..{ ignore!($($extra)*); Self::default() })?)?
                        })
                    }
                }
            )*
        }
    };
}

use super::cursor::WdataCursor as _;

// The table of flat EventBox records; `$m!` receives all of them.
records! {
    // Each record's count is `EventBoxes.<name>.count` in errors.
    "EventBoxes." in event_box_models;
    /// CameraBox (type 0): a camera area with its four cameras and their render lists.
    /// The reader types the camera infos when asked for (`camera_infos()`),
    /// so that an [`EventBox`](crate::wdata::EventBox) stays small.
    CameraBox = "CameraBox" in "event_boxes.CameraBox" {
        /// The box: name, placement and half sizes.
        obb: obb = "Name",
        /// The camera area's category.
        category: u32 if event_box >= 7 = "Category",
        /// The four cameras.
        infos: camera_infos = "CameraInfo",
    }
    /// RespawnBox (type 1): an enemy spawn volume.
    RespawnBox = "RespawnBox" in "event_boxes.RespawnBox" {
        /// The box: name, placement and half sizes.
        obb: obb = "Name",
        /// Total number of enemies to respawn.
        total_enemy_num: i32 = "TotalEnemyNum",
        /// Number of enemies at a time.
        enemy_num: i32 = "EnemyNum",
        /// Name of the enemy.
        enemy_name: wstr = "EnemyName",
        /// Time between respawns.
        respawn_time: f32 = "RespawnTime",
        /// Motion the enemies respawn with.
        respawn_motion: wstr = "RespawnMotion",
        /// Respawn only while in the area (the seed's guess).
        in_check: bool32 = "InCheck",
        /// Whether respawned enemies face random directions.
        random_direction: bool32 = "RandomDirection",
        /// One flag per difficulty level.
        difficulty: bool32x5 = "Difficulty",
    }
    /// StartPointBox (type 2): a player start position.
    StartPointBox = "StartPointBox" in "event_boxes.StartPointBox" {
        /// The box: name, placement and half sizes.
        obb: obb = "Name",
        /// The start point's id.
        id: i32 = "ID",
    }
    /// TriggerBox (type 3): a trigger area.
    TriggerBox = "TriggerBox" in "event_boxes.TriggerBox" {
        /// The box: name, placement and half sizes.
        obb: obb = "Name",
        /// Trigger state.
        state: i32 = "State",
        /// Motion of the action.
        action_motion: wstr = "ActionMotion",
        /// Motion.
        motion: wstr = "Motion",
        /// The signpost: its text id and where it shows.
        signpost: Signpost if event_box >= 9 = "SignpostTextID",
    }
    /// SkidBox (type 4): a sliding volume.
    SkidBox = "SkidBox" in "event_boxes.SkidBox" {
        /// The box: name, placement and half sizes.
        obb: obb = "Name",
        /// Skid state.
        state: i32 = "State",
        /// Velocity x, y, z.
        velocity: vec3 = "Velocity",
        /// End time.
        end_time: f32 = "EndTime",
        /// Duration.
        duration: f32 = "Duration",
    }
    /// EventHitBox (type 5): an area that hits (damages).
    EventHitBox = "EventHitBox" in "event_boxes.EventHitBox" {
        /// The box: name, placement and half sizes.
        obb: obb = "Name",
        /// Hit state.
        state: i32 = "State",
        /// Name of the AniBG that hits.
        anibg_name: wstr = "AniBGName",
        /// Damage dealt.
        damage: f32 = "Damage",
        /// Direction of the hit, x, y, z.
        direction: vec3 = "Direction",
        /// Motion played by the one hit.
        damage_motion: wstr = "DamageMotion",
        /// The hit times (`hitCnt` floats).
        hit_times: f32s["hitCnt"] = "HitTime",
        /// The temporary hit times (`tempHitCnt` floats).
        temp_hit_times: f32s["tempHitCnt"] = "TempHitTime",
    }
    /// NpcBox (type 6): an NPC spawn.
    NpcBox = "NpcBox" in "event_boxes.NpcBox" {
        /// The box: name, placement and half sizes.
        obb: obb = "Name",
        /// Name of the NPC.
        npc_name: wstr = "NpcName",
        /// The NPC's id.
        id: i32 = "ID",
        /// Instance id of the NPC.
        instance_id: i32 = "InstanceID",
    }
    /// PortalBox (type 7): a portal to another map.
    PortalBox = "PortalBox" in "event_boxes.PortalBox" {
        /// The box: name, placement and half sizes.
        obb: obb = "Name",
        /// Name of the map it warps to.
        warp_map_name: wstr = "WarpMapName",
        /// The portal's id.
        id: i32 = "ID",
        /// Message or portal type (how the portal behaves and shows).
        msg_type: i32 = "MsgType",
        /// Id of the map it warps to.
        warp_map_id: i32 = "WarpMapID",
        /// Id of the entry portal in that map.
        warp_portal_id: i32 = "WarpPortalID",
        /// Whether the portal is active.
        active: bool32 = "Active",
    }
    /// SelectMapPortalBox (type 8): a portal that opens the map selection.
    SelectMapPortalBox = "SelectMapPortalBox" in "event_boxes.SelectMapPortalBox" {
        /// The box: name, placement and half sizes.
        obb: obb = "Name",
        /// The portal's id.
        id: i32 = "ID",
        /// Message or portal type (how the selection shows).
        msg_type: i32 = "MsgType",
        /// Whether the portal is active.
        active: bool32 = "Active",
    }
    /// InAreaBox (type 9): an area trigger.
    InAreaBox = "InAreaBox" in "event_boxes.InAreaBox" {
        /// The box: name, placement and half sizes.
        obb: obb = "Name",
        /// Name of the map it warps to.
        warp_map_name: wstr = "WarpMapName",
        /// The box's id.
        id: i32 = "ID",
        /// Whether the box is active.
        active: bool32 = "Active",
    }
    /// EtcBox (type 10): any other box with an id.
    EtcBox = "EtcBox" in "event_boxes.EtcBox" {
        /// The box: name, placement and half sizes.
        obb: obb = "Name",
        /// The box's id.
        id: i32 = "ID",
    }
    /// CameraBlockBox (type 11): blocks the camera; the box alone.
    CameraBlockBox = "CameraBlockBox" in "event_boxes.CameraBlockBox" {
        /// The box: name, placement and half sizes.
        obb: obb = "Name",
    }
    /// CutoffBox (type 12): a cutoff area.
    CutoffBox = "CutoffBox" in "event_boxes.CutoffBox" {
        /// The box: name, placement and half sizes.
        obb: obb = "Name",
        /// Type of cutoff (meanings are the game's).
        cutoff_type: i32 = "CutoffType",
    }
    /// CameraTargetBox (type 13): what the camera targets.
    CameraTargetBox = "CameraTargetBox" in "event_boxes.CameraTargetBox" {
        /// The box: name, placement and half sizes.
        obb: obb = "Name",
        /// What the camera targets: a name below EventBoxVersion 8, a text id from 8.
        target: target_name = "NameTextID",
        /// Whether the target is the local player character.
        target_local_pc: bool32 if event_box >= 2 = "TargetLocalPC",
    }
    /// MiniMapIconBox (type 15): an icon on the mini map.
    MiniMapIconBox = "MiniMapIconBox" in "event_boxes.MiniMapIconBox" {
        /// The box: name, placement and half sizes.
        obb: obb = "Name",
        /// Type of icon.
        icon_type: i32 = "IconType",
    }
    /// EnvironmentReverbBox (type 16): an area with an environment reverb.
    EnvironmentReverbBox = "EnvironmentReverbBox" in "event_boxes.EnvironmentReverbBox" {
        /// The box: name, placement and half sizes.
        obb: obb = "Name",
        /// Type of reverb.
        reverb_type: i32 = "ReverbType",
    }
    /// WaypointBox (type 17): a waypoint of a path network.
    WaypointBox = "WaypointBox" in "event_boxes.WaypointBox" {
        /// The box: name, placement and half sizes.
        obb: obb = "Name",
        /// The waypoint's id.
        id: i32 = "ID",
        /// Range of the waypoint.
        range: f32 = "Range",
        /// Links to other waypoints: the file stores `linkCnt` ids, then as many
        /// distances.
        links: waypoint_links["linkCnt"] = "Links",
    }
    /// ObstacleBox (type 18): an obstacle; the box alone.
    ObstacleBox = "ObstacleBox" in "event_boxes.ObstacleBox" {
        /// The box: name, placement and half sizes.
        obb: obb = "Name",
    }
}

// The table of the AniBG, ItemBox and Gimmick records (each section is `i32 count`, then the
// records); `$m!` receives all of them. Their gates look at the header's sub-versions (0 below
// main version 7, where the header stores none).
records! {
    // Each record's count is `<name>.count` in errors.
    "" in section_models;
    /// An animated background object (the AniBG section).
    AniBg = "AniBG" in "anibg" {
        /// The box: name, placement and half sizes.
        obb: obb = "Name",
        /// Path of the model to show.
        model: wstr = "Model",
        /// Path of the motion (animation) to play.
        motion: wstr = "Motion",
        /// Whether the motion loops (`Loop`).
        looped: bool32 = "Loop" (json "loop"),
        /// Index of the light to use.
        light_index: i32 = "LightIndex",
        /// Cover index (perhaps an occlusion group; the seed does not know).
        cover_index: i32 = "CoverIndex",
        /// Whether the object casts a shadow.
        shadow: bool32 if anibg >= 3 = "Shadow",
        /// The "move weight" flag (exact use unknown).
        move_weight: bool32 if anibg >= 4 = "MoveWeight",
        /// Radius of the potentially visible set (`PVSRad`).
        pvs_radius: f32 if anibg >= 5 = "PVSRad",
    }
    /// An item container (the ItemBox section).
    ItemBox = "ItemBox" in "item_boxes" {
        /// The box: name, placement and half sizes.
        obb: obb = "Name",
        /// Path of the model to show.
        model: wstr = "Model",
        /// Path of the motion (animation) to play.
        motion: wstr = "Motion",
        /// The drop table.
        table_path: wstr = "TablePath",
        /// Whether the motion loops (`Loop`).
        looped: bool32 = "Loop" (json "loop"),
        /// Whether the box can be opened.
        open_enable: bool32 if item_box >= 3 = "OpenEnable",
    }
    /// An in-world mechanism (the Gimmick section). Its flags are stored as plain `i32`s
    /// (not bools) and kept as such; no sub-version gates are known.
    Gimmick = "Gimmick" in "gimmicks" {
        /// The box: name, placement and half sizes.
        obb: obb = "Name",
        /// Path of the model to show.
        model: wstr = "Model",
        /// Path of the motion (animation) to play.
        motion: wstr = "Motion",
        /// Loop flag or mode (0/1 or a mode value; an `i32` here, not a bool).
        loop_flag: i32 = "LoopFlag",
        /// Index of the light to use.
        light_index: i32 = "LightIndex",
        /// Cover index (perhaps an occlusion group; the seed does not know).
        cover_index: i32 = "CoverIndex",
        /// Whether the gimmick casts a shadow (0 or 1).
        shadow: i32 = "Shadow",
        /// The "move weight" flag (0 or 1; exact use unknown).
        move_weight: i32 = "MoveWeight",
        /// Row of the gimmick template table.
        template_id: i32 = "TemplateID",
    }
}

// The table of the flat records inside the Triggers and SceneResources sections (a trigger, a
// scene resource's cues, sounds and ambient sounds); `$m!` receives all of them. Their gates look
// at the main version.
records! {
    // Their counts are fields of the section or the scene resource, named there.
    "" in inner_record_models;
    /// One trigger of the trigger-list layout: its name, comment and script names.
    Trigger = "Trigger" in "triggers.triggers" {
        /// The trigger's name.
        name: wstr = "Name",
        /// The editor's comment.
        comment: wstr = "Comment",
        /// Event script names.
        events: names["evCnt"] = "Events",
        /// Condition script names.
        conditions: names["condCnt"] = "Conditions",
        /// Action script names.
        actions: names["actCnt"] = "Actions",
    }
    /// A timed cue (main version >= 11).
    Cue = "Cue" in "scene_resources" {
        /// End time of the cue.
        end: f32 = "End",
        /// The cue's name.
        name: wstr = "Name",
        /// The cue's id.
        id: u32 = "ID",
        /// Start time of the cue.
        start: f32 = "Start",
    }
    /// A sound (main version >= 12).
    Sound = "Sound" in "scene_resources" {
        /// Start time of the sound.
        start: f32 = "Start",
        /// Its fades and volume range.
        fades: SoundFades if main >= 16 = "FadeIn",
        /// Path of the sound file.
        path: wstr = "Path",
    }
    /// An ambient sound (main version >= 17).
    Ambient = "Ambient" in "scene_resources" {
        /// Start time of the ambient sound.
        start: f32 = "Start",
        /// Path of the sound file.
        path: wstr = "Path",
        /// Whether it starts with the scene.
        play_on_start: bool32 = "PlayOnStart",
        /// Whether it loops (`Loop`).
        looped: bool32 = "Loop" (json "loop"),
    }
}
// The table of the records nested in other records or sections (a CameraBox's camera infos and
// their lists, a scene's two passes, a scene resource, its paths and its sound block); `$m!`
// receives all of them. A record here is read and written as a field of the record that holds
// it (its kind names it) or by the section that holds it (the SceneResources section is read
// and written with its own count name, `SceneResources.count`), never as a counted section of
// its own.
records! {
    // Not counted sections: `WHAT` is never used.
    "" in nested_record_models;
    /// The Triggers section's prefix, the same in both layouts. The owned model's
    /// `Triggers` also holds what follows it, in one of the two layouts (flattened into
    /// the prefix's JSON object: `"triggers"` or `"script_lists"`).
    TriggersHead = "Triggers" in "triggers" model Triggers + {
        /// The triggers, in one of the two layouts.
        #[cfg_attr(feature = "serde", serde(flatten))]
        pub layout: TriggerLayout,
    } {
        /// Reserved (the peer's `reserved0`); kept as read.
        reserved0: i32 = "reserved0",
        /// Directory of the scripts.
        script_dir: wstr = "scriptDir",
        /// Reserved (the peer's `reserved1`); kept as read.
        reserved1: i32 = "reserved1",
        /// Path of the main script.
        main_script: wstr = "mainScript",
    }
    /// A scene's first-pass record. The owned model's `Scene` also holds the scene's
    /// second pass (main version >= 20), which the file stores after every scene's first
    /// pass.
    SceneHead = "Scene" in "scenes" model Scene + {
        /// Version >= 20: the scene's second-pass record.
        #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
        pub pass2: Option<ScenePass2>,
    } {
        /// The camera file (`.mec`).
        file: wstr = "File",
        /// Fade-in time in the editor's preview.
        fade_in_preview: f32 = "FadeInPreview",
        /// Fade hold time in the editor's preview.
        fade_hold_preview: f32 = "FadeHoldPreview",
        /// Fade-out time in the editor's preview.
        fade_out_preview: f32 = "FadeOutPreview",
        /// The scene's timing: its category, fades, blend time and fog.
        timing: SceneTiming if main >= 15 = "Category",
        /// The scene's camera.
        camera: SceneCamera if main >= 19 = "Position",
    }
    /// A scene resource's sound block (main version >= 12): the sounds and the unknown
    /// fields after them.
    SoundBlock = "SceneResource" in "scene_resources" {
        /// The sounds.
        sounds: sounds = "soundCnt",
        /// Unknown (the peer's `Unk1`); kept as read.
        unk1: u32 if main >= 13 = "Unk1",
        /// Unknown (the peer's `Unk2`); kept as read.
        unk2: u32 = "Unk2",
        /// Unknown (the peer's `Unk3`); kept as read.
        unk3: f32 = "Unk3",
        /// Unknown (the peer's `Unk4`); kept as read.
        unk4: u32 = "Unk4",
        /// Seven unknown `i32`s.
        unknown_ints: i32x7 if main <= 14 = "unknownInts",
        /// Two unknown strings.
        unknown_strings: wstrx2 if main <= 13 = "unknownStrings",
    }
    /// A scene's second-pass record (main version >= 20): its name (main version >= 21),
    /// ten counts (the event entries' first, then the ids'), then the lists in this
    /// order.
    SceneDetails = "Scene" in "scenes" model ScenePass2 {
        /// The scene's name.
        name: wstr if main >= 21 = "Name",
        /// The scene ids.
        scene_ids: u32s["sceneIdCnt" @1] = "IndexList",
        /// The `(category, key)` event entries.
        event_entries: event_entries["entryCnt" @0] = "EventScenes",
        /// Backgrounds to render.
        render_bg: scene_elements["rBg" @2] = "RenderBg",
        /// AniBGs to render.
        render_ani: scene_elements["rAni" @3] = "RenderAniBg",
        /// Item boxes to render.
        render_item: scene_elements["rItem" @4] = "RenderItem",
        /// Gimmicks to render.
        render_gimmick: scene_elements["rGim" @5] = "RenderGimmick",
        /// Backgrounds not to render.
        no_render_bg: scene_elements["nBg" @6] = "NoRenderBg",
        /// AniBGs not to render.
        no_render_ani: scene_elements["nAni" @7] = "NoRenderAniBg",
        /// Item boxes not to render.
        no_render_item: scene_elements["nItem" @8] = "NoRenderItem",
        /// Gimmicks not to render.
        no_render_gimmick: scene_elements["nGim" @9] = "NoRenderGimmick",
    }
    /// One scene resource (the SceneResources section is `i32 count`, then the
    /// resources): a keyed sequence of animated paths, cues and sounds.
    SceneResource = "SceneResource" in "scene_resources" {
        /// The resource's key.
        key: wstr = "Key",
        /// Other names of the resource.
        aliases: names[here "aliasCnt"] = "Aliases",
        /// The model/motion paths played in turn.
        paths: scene_paths = "pathCnt" then {
            /// The delay before the paths play.
            delay: f32 = "Delay"
        },
        /// The timed cues.
        cues: cues if main >= 11 = "cueCnt",
        /// The sounds and the unknown fields after them.
        sound: sound_block if main >= 12 = "soundCnt",
        /// The ambient sounds.
        ambients: ambients if main >= 17 = "ambientCnt",
    }
    // Named `SceneData` (the model's name) in errors.
    /// One animated element of a scene resource: a model, its motion and the event it
    /// raises.
    ScenePath = "SceneData" in "scene_resources" model SceneData {
        /// Path of the model.
        model: wstr = "Model",
        /// Path of the motion.
        motion: wstr = "Motion",
        /// The path's name.
        name: wstr = "Name",
        /// Name of the event the path raises.
        event_name: wstr = "EventName",
        /// How long the path plays and holds.
        time_hold: TimeHold if main >= 10 = "Time",
        /// Blend into the next path.
        blend_time: f32
            unless last ("the blend time is stored after every path but the last")
            = "BlendTime",
    }
    /// One of a CameraBox's four cameras.
    CameraInfo = "CameraInfo" in "event_boxes.CameraBox" {
        /// What the camera looks at.
        camera_target: wstr if event_box >= 3 or first = "CameraTarget",
        /// The camera's name.
        camera_name: wstr = "CameraName",
        /// Camera position x, y, z (the first 3 of the 21 camera floats).
        camera_position: vec3 = "Position",
        /// Camera rotation x, y, z.
        camera_rotation: vec3 = "Rotation",
        /// Field of view, in degrees.
        fov: f32 = "FOV",
        /// Further frustum parameters (extents or clipping planes; the seed does not say
        /// which).
        frustum: f32x14 = "Frustum",
        /// Whether the game builds the camera's potentially visible set.
        build_pvs: bool32 if event_box >= 5 = "BuildPVS",
        /// The camera's visibility lists.
        lists: camera_lists if event_box >= 4 = "lists",
    }
    /// A camera info's visibility lists (EventBoxVersion >= 4): eleven `u32` counts, then
    /// the lists in this order.
    CameraLists = "CameraInfo" in "event_boxes.CameraBox" {
        /// Background ids of the potentially visible set.
        pvs_bg: u32s["pvsBgCount" u32] = "PVS_BG",
        /// The event boxes of the potentially visible set: ids below EventBoxVersion 6,
        /// `(category, name)` entries from 6.
        pvs_event_boxes: pvs_event_boxes["pvsEvCount" u32] = "PVS_EventBox",
        /// Backgrounds to render.
        render_bg: render_entries["renderBgCount" u32] = "RenderBg",
        /// AniBGs to render.
        render_ani: render_entries["renderAniCount" u32] = "RenderAniBg",
        /// Item boxes to render.
        render_item: render_entries["renderItemCount" u32] = "RenderItem",
        /// Gimmicks to render.
        render_gimmick: render_entries["renderGimmickCount" u32] = "RenderGimmick",
        /// Backgrounds not to render.
        no_render_bg: render_entries["noRenderBgCount" u32] = "NoRenderBg",
        /// AniBGs not to render.
        no_render_ani: render_entries["noRenderAniCount" u32] = "NoRenderAniBg",
        /// Item boxes not to render.
        no_render_item: render_entries["noRenderItemCount" u32] = "NoRenderItem",
        /// Gimmicks not to render.
        no_render_gimmick: render_entries["noRenderGimmickCount" u32] = "NoRenderGimmick",
        /// Build positions (`buildPos`), x, y, z each.
        build_positions: vec3s["buildPosCount" u32] = "BuildPos",
    }
}

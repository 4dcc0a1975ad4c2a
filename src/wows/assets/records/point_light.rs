//! PointLightPrototype: colour and radius, each optionally animated by keyframes.

use super::{Budget, PrototypeRecord, RecordView, Strings, count_i32};
use crate::bytes::{Bytes, Located, Table};
use crate::error::Result;
#[cfg(feature = "serde")]
use crate::wows::assets::fields_float as float;
use crate::wows::assets::raw::{
    self, ANIMATION_POINTS, ANIMATION_POINTS_PTR, Animation, ColorPoint,
    POINT_LIGHT_RADIUS_ANIMATION, ScalarPoint,
};

/// A point light record.
#[derive(Debug, Clone, Copy)]
pub struct PointLight<'a> {
    bytes: Bytes<'a>,
    raw: Located<'a, raw::PointLightPrototype>,
}

impl<'a> PointLight<'a> {
    /// The stored record.
    pub fn raw(&self) -> &'a raw::PointLightPrototype {
        self.raw.get()
    }
    /// File offset of the record.
    pub fn offset(&self) -> usize {
        self.raw.offset()
    }
    /// Colour RGBA.
    pub fn color(&self) -> [f32; 4] {
        self.raw.color.map(|f| f.get())
    }
    /// Position relative to the owner, x, y, z.
    pub fn local_position(&self) -> [f32; 3] {
        self.raw.local_position.map(|f| f.get())
    }
    /// Radius of the light.
    pub fn radius(&self) -> f32 {
        self.raw.radius.get()
    }
    /// The `minQuality` setting, as stored (presumably the lowest graphics quality that shows the
    /// light).
    pub fn min_quality(&self) -> u32 {
        self.raw.min_quality.get()
    }
    /// Whether the colour animation applies.
    pub fn animated_color(&self) -> bool {
        self.raw.animated_color != 0
    }
    /// Whether the radius animation applies.
    pub fn animated_radius(&self) -> bool {
        self.raw.animated_radius != 0
    }

    fn points<T>(&self, offset: usize, a: &Animation, what: &'static str) -> Result<&'a [T]>
    where
        T: zerocopy::FromBytes + zerocopy::KnownLayout + zerocopy::Immutable + zerocopy::Unaligned,
    {
        // The pointer counts from the animation's inner {count, pointer} struct.
        let animation = self.raw.field_offset(offset);
        let base = animation.saturating_add(ANIMATION_POINTS);
        let count = count_i32(a.points_count.get(), base, what)?;
        let points = Table::at_pointer(
            self.bytes,
            animation.saturating_add(ANIMATION_POINTS_PTR),
            base,
            a.points_ptr.get(),
            count,
            what,
        )?;
        Ok(points.records())
    }

    /// Colour animation: (period, repeated, keyframes).
    pub fn color_animation(&self) -> Result<(f32, bool, &'a [ColorPoint])> {
        let a = &self.raw.get().color_animation;
        let points = self.points(0, a, "PointLightPrototype.colorAnimation.points")?;
        Ok((a.period.get(), a.repeated != 0, points))
    }

    /// Radius animation: (period, repeated, keyframes).
    pub fn radius_animation(&self) -> Result<(f32, bool, &'a [ScalarPoint])> {
        let a = &self.raw.get().radius_animation;
        let points = self.points(
            POINT_LIGHT_RADIUS_ANIMATION,
            a,
            "PointLightPrototype.radiusAnimation.points",
        )?;
        Ok((a.period.get(), a.repeated != 0, points))
    }
}

/// A key of a point light's animation.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(bound(serialize = "T: float::Floats", deserialize = "T: float::Floats"))
)]
pub struct KeyFields<T> {
    /// The key's time.
    #[cfg_attr(feature = "serde", serde(with = "float"))]
    pub time: f32,
    /// The value at that time.
    #[cfg_attr(feature = "serde", serde(with = "float"))]
    pub value: T,
}

/// A point light's animation of one value.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(bound(serialize = "T: float::Floats", deserialize = "T: float::Floats"))
)]
pub struct AnimationFields<T> {
    /// The period.
    #[cfg_attr(feature = "serde", serde(with = "float"))]
    pub period: f32,
    /// Whether it repeats.
    pub repeated: bool,
    /// The keys.
    pub points: Vec<KeyFields<T>>,
}

/// A PointLightPrototype's fields.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PointLightFields {
    /// RGBA colour.
    #[cfg_attr(feature = "serde", serde(with = "float"))]
    pub color: [f32; 4],
    /// Position relative to its node.
    #[cfg_attr(feature = "serde", serde(with = "float"))]
    pub local_position: [f32; 3],
    /// Radius.
    #[cfg_attr(feature = "serde", serde(with = "float"))]
    pub radius: f32,
    /// The lowest graphics quality that shows it.
    pub min_quality: u32,
    /// Whether the colour is animated.
    pub animated_color: bool,
    /// Whether the radius is animated.
    pub animated_radius: bool,
    /// The colour animation.
    pub color_animation: AnimationFields<[f32; 4]>,
    /// The radius animation.
    pub radius_animation: AnimationFields<f32>,
}

impl<T> AnimationFields<T> {
    /// An animation read from its period, repeat flag and stored keys (each converted by
    /// `key`), within `budget`.
    fn read<P>(
        (period, repeated, points): (f32, bool, &[P]),
        key: impl Fn(&P) -> KeyFields<T>,
        budget: &mut Budget<'_, '_>,
        what: &'static str,
    ) -> Result<Self> {
        Ok(AnimationFields {
            period,
            repeated,
            points: budget.list(points, key, what)?,
        })
    }
}

impl<'a> RecordView<'a> for PointLight<'a> {
    fn read(bytes: Bytes<'a>, at: usize, _item_size: usize, _strings: Strings<'a>) -> Result<Self> {
        Ok(PointLight {
            bytes,
            raw: Located::read(bytes, at, "PointLightPrototype")?,
        })
    }

    fn validate(&self) -> Result<()> {
        self.color_animation()?;
        self.radius_animation().map(drop)
    }
}

impl PrototypeRecord for PointLightFields {
    type View<'a> = PointLight<'a>;
    type Raw = raw::PointLightPrototype;
    const LAYOUTS: &'static [usize] = &[0x70];

    fn from_view(l: PointLight<'_>, budget: &mut Budget<'_, '_>) -> Result<Self> {
        // Both animations are read before either is copied (the first error is the view's).
        let (color_animation, radius_animation) = (l.color_animation()?, l.radius_animation()?);
        Ok(PointLightFields {
            color: l.color(),
            local_position: l.local_position(),
            radius: l.radius(),
            min_quality: l.min_quality(),
            animated_color: l.animated_color(),
            animated_radius: l.animated_radius(),
            color_animation: AnimationFields::read(
                color_animation,
                |p| KeyFields {
                    time: p.time.get(),
                    value: p.value.map(|f| f.get()),
                },
                budget,
                "PointLightPrototype.colorAnimation",
            )?,
            radius_animation: AnimationFields::read(
                radius_animation,
                |p| KeyFields {
                    time: p.time.get(),
                    value: p.value.get(),
                },
                budget,
                "PointLightPrototype.radiusAnimation",
            )?,
        })
    }
}

/// The encoder (feature `write`).
#[cfg(feature = "write")]
mod encode {
    use core::mem::offset_of;
    use zerocopy::little_endian::{F32, I32, I64, U32};

    use super::*;
    use crate::bytes::sink::narrow;
    use crate::wows::assets::records::EncodeRecord;
    use crate::wows::assets::write::{Blob, NodeNameMaps, floats};
    use crate::write_error::WriteResult;

    impl<T> AnimationFields<T> {
        /// The stored animation header (its points are stored out of line, by the encoder).
        fn raw(&self) -> WriteResult<Animation> {
            Ok(Animation {
                period: F32::new(self.period),
                repeated: u8::from(self.repeated),
                pad0: [0; 11],
                points_count: I32::new(narrow(self.points.len(), "Animation.pointsCount")?),
                pad1: U32::new(0),
                points_ptr: I64::new(0),
            })
        }
    }

    impl EncodeRecord for PointLightFields {
        /// The record, then the colour and radius keyframes.
        fn encode(&self, b: &mut Blob, _name_maps: NodeNameMaps) -> WriteResult<()> {
            let PointLightFields {
                color,
                local_position,
                radius,
                min_quality,
                animated_color,
                animated_radius,
                color_animation,
                radius_animation,
            } = self;
            let r = b.push_record(
                &raw::PointLightPrototype {
                    color_animation: color_animation.raw()?,
                    radius_animation: radius_animation.raw()?,
                    color: floats(*color),
                    local_position: floats(*local_position),
                    pad0: U32::new(0),
                    radius: F32::new(*radius),
                    min_quality: U32::new(*min_quality),
                    animated_color: u8::from(*animated_color),
                    animated_radius: u8::from(*animated_radius),
                    pad1: [0; 6],
                },
                "PointLightPrototype",
            )?;
            let color_points: Vec<ColorPoint> = color_animation
                .points
                .iter()
                .map(|&KeyFields { time, value }| ColorPoint {
                    time: F32::new(time),
                    value: floats(value),
                })
                .collect();
            let radius_points: Vec<ScalarPoint> = radius_animation
                .points
                .iter()
                .map(|&KeyFields { time, value }| ScalarPoint {
                    time: F32::new(time),
                    value: F32::new(value),
                })
                .collect();
            // `points_ptr` is relative to the inner {count, ptr} struct, not to the animation.
            let (base, field) = (
                offset_of!(Animation, points_count),
                offset_of!(Animation, points_ptr),
            );
            let color = offset_of!(raw::PointLightPrototype, color_animation);
            b.record_array_from(r + color + field, r + color + base, &color_points)?;
            let radius = offset_of!(raw::PointLightPrototype, radius_animation);
            b.record_array_from(r + radius + field, r + radius + base, &radius_points)
        }
    }
}

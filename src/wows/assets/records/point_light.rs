//! PointLightPrototype: colour and radius, each optionally animated by keyframes.

use super::count_i32;
use crate::bytes::{Bytes, Located, Table};
use crate::error::Result;
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
    pub(crate) fn read(bytes: Bytes<'a>, at: usize) -> Result<Self> {
        Ok(PointLight {
            bytes,
            raw: Located::read(bytes, at, "PointLightPrototype")?,
        })
    }
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

    pub(crate) fn validate(&self) -> Result<()> {
        self.color_animation()?;
        self.radius_animation().map(drop)
    }
}

//! A PBS material's texture maps as glTF's: which `.mfm` property names which map, and how each
//! map's channels become the channels glTF reads.
//!
//! What the conversions rest on (measured on the real mod textures in the samples, and on the
//! public World of Warships reader Akizuki where the data alone cannot decide):
//!
//! - **Albedo** (`diffuseMap`, `_a`): RGB is the base colour, as stored.
//! - **Metallic/gloss** (`metallicGlossMap`, `_mg`): R is gloss (0–134 on the samples, varying
//!   across a part), G a constant-ish term (40–60), B metalness (0 on every sample: painted
//!   steel). glTF's metallic-roughness texture reads roughness from G and metalness from B, so the
//!   converted texel is `(G, 255 − R, B)`: roughness is one minus gloss, metalness stays in B, and
//!   the stored G is kept in glTF's unused R. That R is gloss and B metalness follows Akizuki;
//!   the one public reader of the same engine's tank textures reads metalness from G instead.
//! - **Normal** (`normalMap`, `_n`): tangent-space X in R, Y in G, kept as stored. Two layouts
//!   exist: XYZ (B ≈ 254 on a BC1 map) and XY with B holding something else (82–140 on a BC7 map),
//!   so Z is always rebuilt as `√(1 − x² − y²)`. Kept, because the game's convention is glTF's:
//!   - its tangent frame is glTF's: on each of the 11 sample meshes with tangents (the mod
//!     models' and `wows-geometry/`'s), the stored tangent follows +U on 98.3 % of the triangles
//!     or more, and the binormal −V, the image's up, on 98.5 % or more;
//!   - X and Y are oriented as glTF's: as the slopes of one height field with +Y up the image,
//!     ∂x/∂row + ∂y/∂column is about half of ∂x/∂row − ∂y/∂column on both sample maps;
//!   - their sign makes raised details raised: across each arm of the BC7 map's U-shaped handle,
//!     X runs −, +, −, + (two rails, each facing left on its left edge and right on its right),
//!     and a ring beside it faces outwards.
//!
//!   Akizuki inverts R and G for its exports, which would make those details recessed here.
//! - **Ambient occlusion** (`ambientOcclusionMap`, `_ao`): glTF reads R; the samples' maps are
//!   grey (R, G and B within 1), so the texels are kept as stored.

/// A texture map of a PBS material.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MapKind {
    /// `diffuseMap` (`_a`): the base colour.
    Albedo,
    /// `metallicGlossMap` (`_mg`): glTF's metallic-roughness texture, converted.
    MetallicGloss,
    /// `normalMap` (`_n`): glTF's normal texture, converted.
    Normal,
    /// `ambientOcclusionMap` (`_ao`): glTF's occlusion texture.
    AmbientOcclusion,
}

impl MapKind {
    /// Every map, in the order a material lists them in glTF.
    pub const ALL: [MapKind; 4] = [
        MapKind::Albedo,
        MapKind::MetallicGloss,
        MapKind::Normal,
        MapKind::AmbientOcclusion,
    ];

    /// The `.mfm` property that names the map.
    pub const fn property(self) -> &'static str {
        match self {
            MapKind::Albedo => "diffuseMap",
            MapKind::MetallicGloss => "metallicGlossMap",
            MapKind::Normal => "normalMap",
            MapKind::AmbientOcclusion => "ambientOcclusionMap",
        }
    }

    /// What the converted image is called beside the texture's stem (`X_mg` → `X_mg.roughness`),
    /// so that a converted image never takes the name of the texels as stored; empty when the
    /// texels are kept.
    pub const fn converted_suffix(self) -> &'static str {
        match self {
            MapKind::Albedo | MapKind::AmbientOcclusion => "",
            MapKind::MetallicGloss => ".metallic-roughness",
            MapKind::Normal => ".normal",
        }
    }

    /// Converts decoded RGBA8 texels in place into what glTF reads for this map (see the module
    /// docs). Alpha is kept for the albedo (it may carry a mask) and is opaque otherwise.
    pub fn convert(self, rgba: &mut [u8]) {
        match self {
            MapKind::Albedo | MapKind::AmbientOcclusion => {}
            MapKind::MetallicGloss => {
                for texel in rgba.chunks_exact_mut(4) {
                    let [gloss, kept, metal, _] = [texel[0], texel[1], texel[2], texel[3]];
                    texel.copy_from_slice(&[kept, 255 - gloss, metal, 255]);
                }
            }
            MapKind::Normal => {
                for texel in rgba.chunks_exact_mut(4) {
                    let [x, y, z] = tangent_normal(texel[0], texel[1]);
                    texel.copy_from_slice(&[x, y, z, 255]);
                }
            }
        }
    }
}

/// A unit normal from its X and Y bytes (`byte / 127.5 − 1`), Z rebuilt, as glTF's bytes. X and Y
/// past the unit circle (compression error) are scaled onto it, with Z 0.
fn tangent_normal(x: u8, y: u8) -> [u8; 3] {
    let unit = |b: u8| f32::from(b) / 127.5 - 1.0;
    let (mut nx, mut ny) = (unit(x), unit(y));
    let flat = nx * nx + ny * ny;
    let nz = if flat > 1.0 {
        let scale = flat.sqrt().recip();
        nx *= scale;
        ny *= scale;
        0.0
    } else {
        (1.0 - flat).sqrt()
    };
    let byte = |v: f32| ((v + 1.0) * 127.5).round().clamp(0.0, 255.0) as u8;
    [byte(nx), byte(ny), byte(nz)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gloss_becomes_roughness_and_metal_stays_in_blue() {
        let mut texels = [90, 60, 0, 255, 0, 40, 200, 17];
        MapKind::MetallicGloss.convert(&mut texels);
        assert_eq!(texels, [60, 165, 0, 255, 40, 255, 200, 255]);
    }

    #[test]
    fn normal_xy_are_kept_and_z_rebuilt() {
        // A flat texel (x = y = 0) is +Z whatever its B held.
        let mut flat = [128, 128, 82, 255];
        MapKind::Normal.convert(&mut flat);
        assert_eq!(flat, [128, 128, 255, 255]);
        // Tilted towards +X: still, and of unit length.
        let mut tilted = [218, 128, 17, 0];
        MapKind::Normal.convert(&mut tilted);
        let n: Vec<f32> = tilted[..3]
            .iter()
            .map(|&b| f32::from(b) / 127.5 - 1.0)
            .collect();
        assert!(n[0] > 0.7 && n[1].abs() < 0.01 && n[2] > 0.6, "{n:?}");
        let length = n.iter().map(|c| c * c).sum::<f32>().sqrt();
        assert!((length - 1.0).abs() < 0.02, "{length}");
        assert_eq!(tilted[3], 255);
    }

    #[test]
    fn normal_past_the_unit_circle_lies_in_the_plane() {
        let mut corner = [255, 255, 0, 255];
        MapKind::Normal.convert(&mut corner);
        // (1, 1) scaled to (0.707, 0.707), Z 0.
        assert_eq!(corner, [218, 218, 128, 255]);
    }

    #[test]
    fn albedo_and_occlusion_are_kept() {
        for kind in [MapKind::Albedo, MapKind::AmbientOcclusion] {
            let mut texels = [1, 2, 3, 4];
            kind.convert(&mut texels);
            assert_eq!(texels, [1, 2, 3, 4]);
        }
    }
}

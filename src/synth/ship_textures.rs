//! The textures of the synthetic install's ships: which maps each ship material names, and the
//! DDS files that hold them, laid out as a real install keeps them.
//!
//! Every material names the four maps the exporter reads ([`MAPS`]: `diffuseMap`,
//! `metallicGlossMap`, `normalMap`, `ambientOcclusionMap`, suffixes `_a`, `_mg`, `_n`, `_ao`), and
//! the textures are shared as a real game's are, so that an install at any scale holds the same
//! few (196: the ships meet 48 of the 60 pairs of nation and class; 270 files, 263 MB of DDS
//! that the tiled pattern deflates to 6 MB):
//!
//! - the hull's maps by nation (`content/gameplay/<nation>/ship/textures/<nation>_hull_*`): every
//!   ship of the nation; the albedo BC7 up to 2048 pixels (4096 for the first four nations, as
//!   Yamato's hull is), the normal map BC5 (`ATI2`) to 2048, metallic/gloss BC1 to 1024;
//! - the deck's by class (`content/gameplay/common/ship/textures/<class>_deck_*`): every ship of
//!   the class, whatever its nation; BC1 albedo and BC5 normals to 1024, BC1 metallic/gloss 512;
//! - the bridge's by nation and class (`content/gameplay/<nation>/ship/<class>/textures/…`):
//!   BC3 albedo (its alpha a mask), BC1 metallic/gloss, BC5 normals, 512 pixels;
//! - one ambient occlusion map for every material (`content/gameplay/common/textures/
//!   default_ao.dds`, BC1 512), as mod materials often share a `default_ao`.
//!
//! Each texture's `.dds` holds the mip chain from 512 pixels down; a larger texture has its
//! larger levels in single-level files of the same stem (`.dd2` 1024, `.dd1` 2048, `.dd0` 4096),
//! as real installs split them ([`crate::dds::tiers`]).

/// The block format of a texture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TextureFormat {
    /// BC1 (`DXT1`).
    Bc1,
    /// BC3 (`DXT5`).
    Bc3,
    /// BC5 (`ATI2`).
    Bc5,
    /// BC7 (a DX10 header).
    Bc7,
}

/// One texture of the install: its `.dds` path, format and largest side.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ShipTexture {
    /// Its path under `res/`, ending in `.dds`.
    pub path: String,
    /// Its block format.
    pub format: TextureFormat,
    /// The side of its largest level: 512, 1024, 2048 or 4096 pixels.
    pub size: u32,
}

/// The material properties that name a map, with the suffix of the map's file name, in the
/// order a material lists them.
pub const MAPS: [(&str, &str); 4] = [
    ("diffuseMap", "a"),
    ("metallicGlossMap", "mg"),
    ("normalMap", "n"),
    ("ambientOcclusionMap", "ao"),
];

/// The side of a texture's `.dds` (the mip chain); larger levels go to the tier files.
pub const DDS_SIZE: u32 = 512;

/// The tier files above the `.dds`, smallest first: (extension, side).
pub const TIERS: [(&str, u32); 3] = [("dd2", 1024), ("dd1", 2048), ("dd0", 4096)];

/// Nations whose hull albedo has a 4096-pixel tier (the rest stop at 2048).
const LARGEST_HULLS: usize = 4;

/// The four maps of material `part` (0 hull, 1 deck, 2 bridge) of a ship of `nation` (its
/// index in the world's nation list, and name) and `class`, in [`MAPS`] order.
pub fn material_textures(nation: (usize, &str), class: &str, part: usize) -> [ShipTexture; 4] {
    use TextureFormat::*;
    let (index, nation) = nation;
    let (stem, formats, sizes) = match part {
        0 => (
            format!("content/gameplay/{nation}/ship/textures/{nation}_hull"),
            [Bc7, Bc1, Bc5],
            [if index < LARGEST_HULLS { 4096 } else { 2048 }, 1024, 2048],
        ),
        1 => (
            format!("content/gameplay/common/ship/textures/{class}_deck"),
            [Bc1, Bc1, Bc5],
            [1024, 512, 1024],
        ),
        _ => (
            format!("content/gameplay/{nation}/ship/{class}/textures/{nation}_{class}_bridge"),
            [Bc3, Bc1, Bc5],
            [512, 512, 512],
        ),
    };
    let map = |i: usize| ShipTexture {
        path: format!("{stem}_{}.dds", MAPS[i].1),
        format: formats[i],
        size: sizes[i],
    };
    [
        map(0),
        map(1),
        map(2),
        ShipTexture {
            path: "content/gameplay/common/textures/default_ao.dds".to_owned(),
            format: Bc1,
            size: DDS_SIZE,
        },
    ]
}

/// The files of `texture`: its `.dds` (the mip chain from 512 pixels down to 1) and the tier
/// files up to its size, each `(path, bytes)`; the pattern's colours seeded by the path.
#[cfg(feature = "dds")]
pub fn texture_files(
    texture: &ShipTexture,
) -> crate::write_error::WriteResult<Vec<(String, Vec<u8>)>> {
    use super::dds::{Kind, tiled_texture};
    let kind = match texture.format {
        TextureFormat::Bc1 => Kind::Bc1,
        TextureFormat::Bc3 => Kind::Bc3,
        TextureFormat::Bc5 => Kind::Bc5,
        TextureFormat::Bc7 => Kind::Bc7,
    };
    let seed = crate::hash::murmur3_32(texture.path.as_bytes(), 0);
    let stem = texture.path.strip_suffix(".dds").unwrap_or(&texture.path);
    let chain = DDS_SIZE.min(texture.size);
    let mut files = vec![(
        texture.path.clone(),
        tiled_texture(kind, chain, chain.ilog2() + 1, seed)?,
    )];
    for (extension, side) in TIERS {
        if side <= texture.size {
            files.push((
                format!("{stem}.{extension}"),
                tiled_texture(kind, side, 1, seed)?,
            ));
        }
    }
    Ok(files)
}

//! Synthetic DDS textures made with the DDS writer ([`DdsModel::to_bytes`]): the committed
//! fixtures (`fixtures/dds/`), the docs' example, and the benchmarks' inputs. The pixels are a
//! deterministic pattern of valid blocks (a gradient across the image, indices varying by block),
//! so that every decoder has something to agree on.

use crate::dds::model::{DdsModel, Dx10Model, HeaderModel, LevelModel, PixelFormatModel};
use crate::dds::raw::{DDPF_ALPHAPIXELS, DDPF_FOURCC, DDPF_LUMINANCE, DDPF_RGB};
use crate::dds::{TextureFormat, mip_size};
use crate::write_error::WriteResult;

/// The pixel layouts the generator writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// BC1 through the FourCC `DXT1`.
    Bc1,
    /// BC3 through the FourCC `DXT5`.
    Bc3,
    /// BC7 through a DX10 header (DXGI 98, as real mod textures store it).
    Bc7,
    /// BC5 through the FourCC `ATI2`: two channels, as the game's normal maps store X and Y.
    Bc5,
    /// 32-bit BGRA (masks `0x00ff0000`, `0xff00`, `0xff`, `0xff000000`).
    Bgra8,
    /// 16-bit B5G6R5.
    B5g6r5,
    /// 8-bit luminance.
    L8,
}

/// A texture to generate.
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    /// The layout.
    pub kind: Kind,
    /// Width of the top level.
    pub width: u32,
    /// Height of the top level.
    pub height: u32,
    /// Mip levels (0 is stored as 0: one level).
    pub mips: u32,
    /// Six cube faces instead of one image.
    pub cube: bool,
    /// Array slices (a DX10 header is written when more than 1).
    pub array: u32,
}

impl Spec {
    /// One image of `kind`, `width` × `height`, with `mips` levels.
    pub const fn new(kind: Kind, width: u32, height: u32, mips: u32) -> Spec {
        Spec {
            kind,
            width,
            height,
            mips,
            cube: false,
            array: 1,
        }
    }

    fn format(&self) -> TextureFormat {
        match self.kind {
            Kind::Bc1 => TextureFormat::Bc1,
            Kind::Bc3 => TextureFormat::Bc3,
            Kind::Bc7 => TextureFormat::Bc7,
            Kind::Bc5 => TextureFormat::Bc5 { signed: false },
            kind => TextureFormat::from_dxgi(dxgi(kind)).unwrap_or(TextureFormat::Bc1),
        }
    }
}

fn pixel_format(kind: Kind, dx10: bool) -> PixelFormatModel {
    let four_cc = |code: &[u8; 4]| (DDPF_FOURCC, u32::from_le_bytes(*code), 0, [0; 4]);
    let (flags, four_cc, bits, masks) = match kind {
        _ if dx10 => four_cc(b"DX10"),
        Kind::Bc7 => four_cc(b"DX10"),
        Kind::Bc1 => four_cc(b"DXT1"),
        Kind::Bc3 => four_cc(b"DXT5"),
        Kind::Bc5 => four_cc(b"ATI2"),
        Kind::Bgra8 => (
            DDPF_RGB | DDPF_ALPHAPIXELS,
            0,
            32,
            [0xFF_0000, 0xFF00, 0xFF, 0xFF00_0000],
        ),
        Kind::B5g6r5 => (DDPF_RGB, 0, 16, [0xF800, 0x07E0, 0x001F, 0]),
        Kind::L8 => (DDPF_LUMINANCE, 0, 8, [0xFF, 0, 0, 0]),
    };
    PixelFormatModel {
        size: 32,
        flags,
        four_cc,
        rgb_bit_count: bits,
        r_bit_mask: masks[0],
        g_bit_mask: masks[1],
        b_bit_mask: masks[2],
        a_bit_mask: masks[3],
    }
}

fn dxgi(kind: Kind) -> u32 {
    match kind {
        Kind::Bc1 => 71,
        Kind::Bc3 => 77,
        Kind::Bc7 => 98,
        Kind::Bc5 => 83,
        Kind::Bgra8 => 87,
        Kind::B5g6r5 => 85,
        Kind::L8 => 61,
    }
}

fn header(spec: &Spec, dx10: Option<&Dx10Model>) -> HeaderModel {
    let compressed = matches!(spec.kind, Kind::Bc1 | Kind::Bc3 | Kind::Bc5 | Kind::Bc7);
    let mut flags = 0x1007 | if compressed { 0x8_0000 } else { 0x8 };
    let mut caps = 0x1000;
    if spec.mips > 1 {
        flags |= 0x2_0000;
        caps |= 0x40_0008;
    }
    let mut caps2 = 0;
    if spec.cube {
        caps |= 0x8;
        caps2 = 0x200 | 0xFC00;
    }
    let pixel_format = pixel_format(spec.kind, dx10.is_some());
    let top = match spec.kind {
        Kind::Bc1 => u32::div_ceil(spec.width, 4) * u32::div_ceil(spec.height, 4) * 8,
        Kind::Bc3 | Kind::Bc5 | Kind::Bc7 => {
            u32::div_ceil(spec.width, 4) * u32::div_ceil(spec.height, 4) * 16
        }
        Kind::Bgra8 => spec.width * 4,
        Kind::B5g6r5 => spec.width * 2,
        Kind::L8 => spec.width,
    };
    let mut reserved1 = [0; 11];
    reserved1[9] = u32::from_le_bytes(*b"GBIN");
    HeaderModel {
        size: 124,
        flags,
        height: spec.height,
        width: spec.width,
        pitch_or_linear_size: top,
        depth: 0,
        mip_map_count: spec.mips,
        reserved1,
        pixel_format,
        caps,
        caps2,
        caps3: 0,
        caps4: 0,
        reserved2: 0,
    }
}

/// Writes bits from the least significant end of each byte up, as BC7 blocks are read.
struct Bits {
    block: [u8; 16],
    at: usize,
}

impl Bits {
    fn put(&mut self, value: u32, count: usize) {
        for i in 0..count {
            if value >> i & 1 != 0 {
                self.block[(self.at + i) / 8] |= 1 << ((self.at + i) % 8);
            }
        }
        self.at += count;
    }
}

fn rgb565(r: u32, g: u32, b: u32) -> u16 {
    ((r >> 3) << 11 | (g >> 2) << 5 | b >> 3) as u16
}

/// The pattern's colour at block (`bx`, `by`) of a level `blocks_wide` × `blocks_high` blocks.
fn gradient(bx: u32, by: u32, blocks_wide: u32, blocks_high: u32, salt: u32) -> [u32; 3] {
    let r = bx * 255 / blocks_wide.max(2).saturating_sub(1).max(1);
    let g = by * 255 / blocks_high.max(2).saturating_sub(1).max(1);
    let b = (salt * 53 + bx * 17 + by * 31) % 256;
    [r.min(255), g.min(255), b]
}

/// One block of the pattern.
fn block(kind: Kind, bx: u32, by: u32, wide: u32, high: u32, salt: u32, out: &mut Vec<u8>) {
    let [r, g, b] = gradient(bx, by, wide, high, salt);
    let indices =
        (bx.wrapping_mul(0x9E37_79B9) ^ by.wrapping_mul(0x85EB_CA6B) ^ salt).rotate_left(7);
    let color = |out: &mut Vec<u8>| {
        let mut c0 = rgb565(r, g, b);
        let mut c1 = rgb565(r / 3, g / 3, 255 - b);
        // BC1's four-colour mode (c0 > c1), the one BC3 always uses.
        if c0 <= c1 {
            core::mem::swap(&mut c0, &mut c1);
        }
        if c0 == c1 {
            c0 = c0.wrapping_add(1).max(1);
            c1 = 0;
        }
        out.extend_from_slice(&c0.to_le_bytes());
        out.extend_from_slice(&c1.to_le_bytes());
        out.extend_from_slice(&indices.to_le_bytes());
    };
    match kind {
        Kind::Bc1 => color(out),
        Kind::Bc3 => {
            let alpha0 = (200 + bx * 7) as u8;
            let alpha1 = (by * 13 % 200) as u8;
            out.extend_from_slice(&[alpha0, alpha1]);
            out.extend_from_slice(&(u64::from(indices) * 0x1_0001).to_le_bytes()[..6]);
            color(out);
        }
        Kind::Bc7 => {
            // Mode 6: one subset, RGBA endpoints of 7 bits plus a p-bit each, 4-bit indices.
            let mut bits = Bits {
                block: [0; 16],
                at: 0,
            };
            bits.put(1 << 6, 7);
            for (e0, e1) in [
                (r, r / 4),
                (g, 255 - g),
                (b, b / 2),
                (255, 96 + (bx * 11) % 128),
            ] {
                bits.put(e0 >> 1, 7);
                bits.put(e1 >> 1, 7);
            }
            bits.put(1, 1);
            bits.put(0, 1);
            let spread = u64::from(indices) | u64::from(indices.rotate_left(13)) << 32;
            bits.put((spread & 0x7) as u32, 3);
            bits.put((spread >> 3) as u32, 30);
            bits.put((spread >> 33) as u32, 30);
            out.extend_from_slice(&bits.block);
        }
        Kind::Bc5 => {
            // Two BC4 halves, X in red and Y in green, their endpoints about the flat normal's
            // 128: the decoded normals lean a little, differently by block.
            for lean in [r >> 3, g >> 3] {
                out.extend_from_slice(&[(128 + lean) as u8, (128 - lean) as u8]);
                out.extend_from_slice(&(u64::from(indices) * 0x1_0001).to_le_bytes()[..6]);
            }
        }
        Kind::Bgra8 | Kind::B5g6r5 | Kind::L8 => {}
    }
}

/// One level's bytes.
fn level(spec: &Spec, width: u32, height: u32, salt: u32) -> Vec<u8> {
    let mut out = Vec::new();
    match spec.kind {
        Kind::Bc1 | Kind::Bc3 | Kind::Bc5 | Kind::Bc7 => {
            let (wide, high) = (width.div_ceil(4), height.div_ceil(4));
            for by in 0..high {
                for bx in 0..wide {
                    block(spec.kind, bx, by, wide, high, salt, &mut out);
                }
            }
        }
        Kind::Bgra8 | Kind::B5g6r5 | Kind::L8 => {
            for y in 0..height {
                for x in 0..width {
                    let [r, g, b] = gradient(x, y, width, height, salt);
                    match spec.kind {
                        Kind::Bgra8 => {
                            out.extend_from_slice(&[b as u8, g as u8, r as u8, (x * 16 + y) as u8])
                        }
                        Kind::B5g6r5 => out.extend_from_slice(&rgb565(r, g, b).to_le_bytes()),
                        _ => out.push(((r + g + b) / 3) as u8),
                    }
                }
            }
        }
    }
    out
}

/// Blocks a side of one tile of [`tiled_texture`]'s pattern (64 pixels).
const TILE_BLOCKS: u32 = 16;

/// One level of [`tiled_texture`]: every block of a 64-pixel tile the same, the tiles' colours
/// following the gradient across the level and alternating as a checker. Each tile's block is
/// made once and each row of blocks once per tile row, so a 4096-pixel level costs a few copies
/// of its bytes; and the repeats let a volume deflate it to little.
fn tiled_level(kind: Kind, width: u32, height: u32, salt: u32) -> Vec<u8> {
    if !matches!(kind, Kind::Bc1 | Kind::Bc3 | Kind::Bc5 | Kind::Bc7) {
        // Not blocks: the plain gradient.
        return level(&Spec::new(kind, width, height, 1), width, height, salt);
    }
    let (wide, high) = (width.div_ceil(4), height.div_ceil(4));
    let (tiles_wide, tiles_high) = (wide.div_ceil(TILE_BLOCKS), high.div_ceil(TILE_BLOCKS));
    let mut out = Vec::new();
    let mut tile = Vec::new();
    let mut row = Vec::new();
    for ty in 0..tiles_high {
        row.clear();
        for tx in 0..tiles_wide {
            tile.clear();
            let checker = if (tx + ty) % 2 == 0 { 0 } else { 0x5A };
            block(
                kind,
                tx,
                ty,
                tiles_wide,
                tiles_high,
                salt ^ checker,
                &mut tile,
            );
            ramp_rows(kind, &mut tile);
            let blocks = (wide - tx * TILE_BLOCKS).min(TILE_BLOCKS);
            for _ in 0..blocks {
                row.extend_from_slice(&tile);
            }
        }
        for _ in 0..(high - ty * TILE_BLOCKS).min(TILE_BLOCKS) {
            out.extend_from_slice(&row);
        }
    }
    out
}

/// Sets `count` bits of `block` from bit `at` (least significant bit of each byte first, as
/// every BCn block is read) to `value`.
fn set_bits(block: &mut [u8], at: usize, count: usize, value: u32) {
    for i in 0..count {
        if let Some(byte) = block.get_mut((at + i) / 8) {
            let bit = 1 << ((at + i) % 8);
            if value >> i & 1 != 0 {
                *byte |= bit;
            } else {
                *byte &= !bit;
            }
        }
    }
}

/// Gives every row of the block's pixels one index, a ramp from its first endpoint to its
/// second down the block: the decoded tile is stripes of four shades, each row of pixels one
/// colour. Real textures vary along the row too; these rows let the export's PNG encoder (the
/// fastest level, which finds only short repeats) keep a synthetic 4096-pixel map to some
/// hundred kilobytes instead of tens of megabytes in every GLB that embeds it.
fn ramp_rows(kind: Kind, block: &mut [u8]) {
    // BC4 halves (BC3's alpha, BC5's two channels): 3-bit indices after two endpoint bytes,
    // in the eight-value mode the endpoints' order gives (0 the first, 1 the second, 2–7
    // between, from the first).
    let bc4 = |block: &mut [u8], start: usize| {
        for (row, index) in [0, 2, 5, 1].into_iter().enumerate() {
            for column in 0..4 {
                set_bits(block, start * 8 + 16 + (row * 4 + column) * 3, 3, index);
            }
        }
    };
    // BC1's colour half: 2-bit indices after two 16-bit colours (four-colour mode: 0, 2, 3, 1
    // from the first colour to the second).
    let bc1 = |block: &mut [u8], start: usize| {
        for (row, index) in [0, 2, 3, 1].into_iter().enumerate() {
            for column in 0..4 {
                set_bits(block, start * 8 + 32 + (row * 4 + column) * 2, 2, index);
            }
        }
    };
    match kind {
        Kind::Bc1 => bc1(block, 0),
        Kind::Bc3 => {
            bc4(block, 0);
            bc1(block, 8);
        }
        Kind::Bc5 => {
            bc4(block, 0);
            bc4(block, 8);
        }
        Kind::Bc7 => {
            // Mode 6: 65 bits of mode, endpoints and p-bits, then the first pixel's index in 3
            // bits (its top bit implied 0) and the others' in 4.
            for (row, index) in [0, 5, 10, 15].into_iter().enumerate() {
                for column in 0..4 {
                    match row * 4 + column {
                        0 => set_bits(block, 65, 3, index),
                        pixel => set_bits(block, 68 + (pixel - 1) * 4, 4, index),
                    }
                }
            }
        }
        Kind::Bgra8 | Kind::B5g6r5 | Kind::L8 => {}
    }
}

/// A square block-compressed texture (`kind` BC1, BC3, BC5 or BC7) of `size` pixels with `mips`
/// levels, in the tiled pattern of `tiled_level`, its colours varied by `seed`: the textures of
/// the synthetic install ([`crate::synth::pfs::synth_install`]), 512 to 4096 pixels a side,
/// made fast.
pub fn tiled_texture(kind: Kind, size: u32, mips: u32, seed: u32) -> WriteResult<Vec<u8>> {
    // The pattern multiplies its salt: kept small, any seed is valid.
    let seed = seed & 0xFFFF;
    let spec = Spec::new(kind, size, size, mips);
    let mut texture = model(&Spec::new(kind, 4, 4, 1));
    texture.header = header(&spec, texture.dx10.as_ref());
    texture.levels = (0..mips.max(1))
        .map(|mip| {
            let side = mip_size(size, mip);
            LevelModel {
                slice: 0,
                mip,
                width: side,
                height: side,
                depth: 1,
                data: tiled_level(kind, side, side, seed.wrapping_add(mip)),
            }
        })
        .collect();
    texture.to_bytes()
}

/// The model of the texture `spec` describes.
pub fn model(spec: &Spec) -> DdsModel {
    let dx10 = (spec.kind == Kind::Bc7 || spec.array > 1).then(|| Dx10Model {
        dxgi_format: dxgi(spec.kind),
        resource_dimension: 3,
        misc_flag: if spec.cube { 0x4 } else { 0 },
        array_size: spec.array,
        misc_flags2: 0,
    });
    let header = header(spec, dx10.as_ref());
    let faces = if spec.cube { 6 } else { 1 };
    let mut levels = Vec::new();
    let format = spec.format();
    for slice in 0..spec.array * faces {
        for mip in 0..spec.mips.max(1) {
            let (width, height) = (mip_size(spec.width, mip), mip_size(spec.height, mip));
            let data = level(spec, width, height, slice * 8 + mip);
            debug_assert_eq!(Some(data.len() as u64), format.image_bytes(width, height));
            levels.push(LevelModel {
                slice,
                mip,
                width,
                height,
                depth: 1,
                data,
            });
        }
    }
    DdsModel {
        header,
        dx10,
        levels,
        trailing: Vec::new(),
    }
}

/// The texture `spec` describes, written.
pub fn texture(spec: &Spec) -> WriteResult<Vec<u8>> {
    model(spec).to_bytes()
}

/// The docs' example: a 16×16 BC1 texture with its five mip levels.
pub fn example_file() -> Vec<u8> {
    texture(&Spec::new(Kind::Bc1, 16, 16, 5)).expect("the example texture writes")
}

/// The committed fixtures (`fixtures/dds/`).
pub fn fixtures() -> WriteResult<Vec<(&'static str, Vec<u8>)>> {
    let cube = Spec {
        cube: true,
        ..Spec::new(Kind::Bc1, 8, 8, 4)
    };
    let array = Spec {
        array: 2,
        ..Spec::new(Kind::Bc7, 8, 4, 2)
    };
    let mut trailing = model(&Spec::new(Kind::Bc3, 8, 8, 1));
    trailing.trailing = b"not a level".to_vec();
    Ok(vec![
        ("bc1_mips.dds", texture(&Spec::new(Kind::Bc1, 32, 16, 6))?),
        ("bc1_odd.dds", texture(&Spec::new(Kind::Bc1, 5, 3, 3))?),
        (
            "bc3_one_level.dds",
            texture(&Spec::new(Kind::Bc3, 16, 16, 0))?,
        ),
        ("bc7_dx10.dds", texture(&Spec::new(Kind::Bc7, 16, 8, 5))?),
        ("bc7_array.dds", texture(&array)?),
        ("bc1_cube.dds", texture(&cube)?),
        ("bgra8.dds", texture(&Spec::new(Kind::Bgra8, 6, 5, 3))?),
        ("b5g6r5.dds", texture(&Spec::new(Kind::B5g6r5, 4, 4, 1))?),
        ("l8.dds", texture(&Spec::new(Kind::L8, 7, 3, 2))?),
        ("bc3_trailing.dds", trailing.to_bytes()?),
    ])
}

//! The DDS header as stored: the 4-byte magic `DDS `, the 124-byte `DDS_HEADER` with its 32-byte
//! pixel format, and the 20-byte `DDS_HEADER_DXT10` that follows when the pixel format's FourCC is
//! `DX10`. Every field is little-endian; nothing is aligned (the header is read straight out of the
//! mapping).

use zerocopy::little_endian::U32;
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

/// `DDS ` read as a little-endian `u32`.
pub const MAGIC: u32 = u32::from_le_bytes(*b"DDS ");
/// The value of `DDS_HEADER.size`.
pub const HEADER_SIZE: u32 = 124;
/// The value of `DDS_PIXELFORMAT.size`.
pub const PIXEL_FORMAT_SIZE: u32 = 32;
/// Where the texture data starts without the DX10 header: magic + header.
pub const DATA_OFFSET: usize = 4 + HEADER_SIZE as usize;
/// Where the texture data starts after a DX10 header.
pub const DX10_DATA_OFFSET: usize = DATA_OFFSET + 20;

/// `DDS_PIXELFORMAT.flags`: the alpha mask is meaningful.
pub const DDPF_ALPHAPIXELS: u32 = 0x1;
/// `DDS_PIXELFORMAT.flags`: an alpha-only uncompressed format.
pub const DDPF_ALPHA: u32 = 0x2;
/// `DDS_PIXELFORMAT.flags`: the FourCC names the format.
pub const DDPF_FOURCC: u32 = 0x4;
/// `DDS_PIXELFORMAT.flags`: uncompressed RGB, described by the masks.
pub const DDPF_RGB: u32 = 0x40;
/// `DDS_PIXELFORMAT.flags`: YUV data (not decoded).
pub const DDPF_YUV: u32 = 0x200;
/// `DDS_PIXELFORMAT.flags`: uncompressed luminance (the red mask holds it).
pub const DDPF_LUMINANCE: u32 = 0x2_0000;
/// `DDS_PIXELFORMAT.flags`: signed bump-map data (dU/dV).
pub const DDPF_BUMPDUDV: u32 = 0x8_0000;

/// `DDS_HEADER.caps2`: a cube map; the face bits say which faces are stored.
pub const DDSCAPS2_CUBEMAP: u32 = 0x200;
/// `DDS_HEADER.caps2`: the six face bits (+X, -X, +Y, -Y, +Z, -Z).
pub const DDSCAPS2_CUBEMAP_FACES: u32 = 0xFC00;
/// `DDS_HEADER.caps2`: a volume texture (`depth` slices per level).
pub const DDSCAPS2_VOLUME: u32 = 0x20_0000;

/// `DDS_HEADER_DXT10.resourceDimension` of a 3D texture.
pub const DIMENSION_TEXTURE3D: u32 = 4;
/// `DDS_HEADER_DXT10.miscFlag`: the array's slices are cube maps of six faces each.
pub const DX10_MISC_TEXTURECUBE: u32 = 0x4;

/// `DDS_PIXELFORMAT`: how the pixels are stored (a FourCC, or bit masks of an uncompressed layout).
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct RawPixelFormat {
    /// Always 32.
    pub size: U32,
    /// `DDPF_*` flags.
    pub flags: U32,
    /// The compressed format's code (`DXT1`, `DXT5`, `DX10`, ...).
    pub four_cc: U32,
    /// Bits per pixel of an uncompressed layout.
    pub rgb_bit_count: U32,
    /// The red (or luminance) bits of a pixel.
    pub r_bit_mask: U32,
    /// The green bits.
    pub g_bit_mask: U32,
    /// The blue bits.
    pub b_bit_mask: U32,
    /// The alpha bits.
    pub a_bit_mask: U32,
}

/// `DDS_HEADER`, after the magic.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct RawHeader {
    /// Always 124.
    pub size: U32,
    /// `DDSD_*` flags (which fields are meaningful; readers do not rely on them).
    pub flags: U32,
    /// Height of the top level in pixels.
    pub height: U32,
    /// Width of the top level in pixels.
    pub width: U32,
    /// Bytes per row of the top level, or bytes of the whole top level (writers disagree).
    pub pitch_or_linear_size: U32,
    /// Depth of a volume texture's top level.
    pub depth: U32,
    /// Mip levels stored; 0 means one.
    pub mip_map_count: U32,
    /// Unused; writers keep their own tags here (`NVTT`, `GIMP`).
    pub reserved1: [U32; 11],
    /// The pixel format.
    pub pixel_format: RawPixelFormat,
    /// `DDSCAPS_*`: texture, mipmap, complex.
    pub caps: U32,
    /// `DDSCAPS2_*`: cube map faces, volume.
    pub caps2: U32,
    /// Unused.
    pub caps3: U32,
    /// Unused.
    pub caps4: U32,
    /// Unused.
    pub reserved2: U32,
}

/// `DDS_HEADER_DXT10`: the DXGI format and the array of a texture whose FourCC is `DX10`.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct RawDx10Header {
    /// A `DXGI_FORMAT` value (98: BC7_UNORM).
    pub dxgi_format: U32,
    /// `D3D10_RESOURCE_DIMENSION`: 2 texture1D, 3 texture2D, 4 texture3D.
    pub resource_dimension: U32,
    /// `DDS_RESOURCE_MISC_*` (0x4: a cube map).
    pub misc_flag: U32,
    /// Slices of a texture array (cube maps: cubes, of six faces each).
    pub array_size: U32,
    /// The alpha mode in the low three bits.
    pub misc_flags2: U32,
}

const _: () = assert!(core::mem::size_of::<RawPixelFormat>() == PIXEL_FORMAT_SIZE as usize);
const _: () = assert!(core::mem::size_of::<RawHeader>() == HEADER_SIZE as usize);
const _: () = assert!(core::mem::size_of::<RawDx10Header>() == 20);

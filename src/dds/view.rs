//! [`DdsView`]: a DDS texture read in place. Opening reads the header (and the DX10 header) and
//! checks that every level it implies lies inside the file, with overflow-checked sizes; each level
//! is then a borrowed byte range, found without a walk.

use super::format::{FOURCC_DX10, TextureFormat, UnknownFormat, is_srgb_dxgi};
use super::info::{DdsFinding, DdsInfo};
use super::raw::PIXEL_FORMAT_SIZE;
use super::raw::{
    DATA_OFFSET, DDPF_FOURCC, DDSCAPS2_CUBEMAP, DDSCAPS2_CUBEMAP_FACES, DDSCAPS2_VOLUME,
    DIMENSION_TEXTURE3D, DX10_DATA_OFFSET, DX10_MISC_TEXTURECUBE, HEADER_SIZE, MAGIC,
    RawDx10Header, RawHeader,
};
use crate::bytes::{Bytes, u64_of};
use crate::error::{Error, ErrorKind, Result};
use crate::view::{self, CheckReport, NameHint, Scratch, View, ViewError};

/// A DDS texture over its bytes: the header, the format, and every mip level of every array slice
/// (or cube face) as a borrowed byte range. Opening allocates nothing; `Copy`.
#[derive(Debug, Clone, Copy)]
pub struct DdsView<'a> {
    bytes: Bytes<'a>,
    header: &'a RawHeader,
    dx10: Option<&'a RawDx10Header>,
    format: TextureFormat,
    srgb: bool,
    width: u32,
    height: u32,
    depth: u32,
    mips: u32,
    /// Array slices, cube faces counted one by one (a cube of an array of 2: 12).
    slices: u32,
    cube: bool,
    data_offset: usize,
    /// Bytes of one slice's chain of mip levels.
    slice_bytes: u64,
}

/// One mip level of one array slice (or cube face): its size and its bytes in the file.
#[derive(Debug, Clone, Copy)]
pub struct Level<'a> {
    /// The array slice (for a cube map: cube × 6 + face, faces in the order +X, -X, +Y, -Y, +Z, -Z).
    pub slice: u32,
    /// The mip level, 0 the largest.
    pub mip: u32,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Depth slices (1 unless a volume texture).
    pub depth: u32,
    /// Where its bytes start in the file.
    pub offset: usize,
    /// Its bytes: `depth` images of the format, one after the other.
    pub data: &'a [u8],
    /// How its pixels are stored.
    pub format: TextureFormat,
}

/// The size of mip level `mip` of a dimension of `size` pixels.
pub const fn mip_size(size: u32, mip: u32) -> u32 {
    let shifted = if mip >= 32 { 0 } else { size >> mip };
    if shifted == 0 { 1 } else { shifted }
}

fn unknown_format(e: UnknownFormat) -> Error {
    let (offset, what, value, reason) = match e {
        UnknownFormat::FourCc(code) => (
            84,
            "DDS_PIXELFORMAT.fourCC",
            code,
            "not a FourCC gamebin decodes (DXT1-DXT5, ATI1, ATI2, BC4U/S, BC5U/S, DX10)",
        ),
        UnknownFormat::Dxgi(code) => (
            DATA_OFFSET as u64,
            "DDS_HEADER_DXT10.dxgiFormat",
            code,
            "not a DXGI format gamebin decodes (BC1-BC7, 8-bit RGBA/BGRA/R/RG/A, 565, 5551, 4444, 10:10:10:2)",
        ),
        UnknownFormat::Masks(bits) => (
            88,
            "DDS_PIXELFORMAT.RGBBitCount",
            bits,
            "an uncompressed layout needs 8, 16, 24 or 32 bits and channel masks of contiguous bits within them",
        ),
        UnknownFormat::Flags(flags) => (
            80,
            "DDS_PIXELFORMAT.flags",
            flags,
            "YUV and bump-map (dU/dV) layouts are not decoded",
        ),
    };
    Error::invalid(offset, what, u64::from(value), reason)
}

impl<'a> DdsView<'a> {
    /// Opens a DDS file held in `data`: reads the header, the DX10 header when the FourCC is
    /// `DX10`, and checks that every level lies inside `data` (trailing bytes after the last level
    /// are allowed, and [`View::check`](crate::View::check) reports them). Allocates nothing.
    pub fn from_bytes(data: &'a [u8]) -> Result<DdsView<'a>> {
        DdsView::open(data, true)
    }

    /// The header of a texture whose levels may not follow yet (the writer's check of a model):
    /// everything [`from_bytes`](Self::from_bytes) checks but that the levels are in `data`.
    #[cfg(feature = "write")]
    pub(crate) fn header_only(data: &'a [u8]) -> Result<DdsView<'a>> {
        DdsView::open(data, false)
    }

    fn open(data: &'a [u8], levels_present: bool) -> Result<DdsView<'a>> {
        let bytes = Bytes::new(data);
        let magic = bytes.u32_le(0, "DDS magic")?;
        if magic != MAGIC {
            return Err(Error::new(
                0,
                "DDS magic",
                ErrorKind::BadMagic {
                    expected: u64::from(MAGIC),
                    found: u64::from(magic),
                },
            ));
        }
        let header: &RawHeader = bytes.read(4, "DDS_HEADER")?;
        if header.size.get() != HEADER_SIZE {
            return Err(Error::invalid(
                4,
                "DDS_HEADER.size",
                u64::from(header.size.get()),
                "the header's size must be 124",
            ));
        }
        let (width, height) = (header.width.get(), header.height.get());
        if width == 0 {
            return Err(Error::invalid(
                16,
                "DDS_HEADER.width",
                0,
                "a texture is at least 1 pixel wide",
            ));
        }
        if height == 0 {
            return Err(Error::invalid(
                12,
                "DDS_HEADER.height",
                0,
                "a texture is at least 1 pixel high",
            ));
        }
        let pf = &header.pixel_format;
        let is_dx10 = pf.flags.get() & DDPF_FOURCC != 0 && pf.four_cc.get() == FOURCC_DX10;
        let (dx10, format, srgb, array_size, cube, volume, data_offset) = if is_dx10 {
            let dx10: &RawDx10Header = bytes.read(DATA_OFFSET, "DDS_HEADER_DXT10")?;
            let code = dx10.dxgi_format.get();
            let format = TextureFormat::from_dxgi(code).map_err(unknown_format)?;
            let array_size = dx10.array_size.get();
            if array_size == 0 {
                return Err(Error::invalid(
                    u64_of(DATA_OFFSET + 12),
                    "DDS_HEADER_DXT10.arraySize",
                    0,
                    "a texture array holds at least one slice",
                ));
            }
            let cube = dx10.misc_flag.get() & DX10_MISC_TEXTURECUBE != 0;
            let volume = dx10.resource_dimension.get() == DIMENSION_TEXTURE3D;
            (
                Some(dx10),
                format,
                is_srgb_dxgi(code),
                array_size,
                cube,
                volume,
                DX10_DATA_OFFSET,
            )
        } else {
            let format = TextureFormat::from_pixel_format(pf).map_err(unknown_format)?;
            let caps2 = header.caps2.get();
            (
                None,
                format,
                false,
                1,
                caps2 & DDSCAPS2_CUBEMAP != 0,
                caps2 & DDSCAPS2_VOLUME != 0,
                DATA_OFFSET,
            )
        };
        let faces = match (cube, dx10) {
            (false, _) => 1,
            (true, Some(_)) => 6,
            (true, None) => {
                let faces = (header.caps2.get() & DDSCAPS2_CUBEMAP_FACES).count_ones();
                if faces == 0 {
                    return Err(Error::invalid(
                        112,
                        "DDS_HEADER.caps2",
                        u64::from(header.caps2.get()),
                        "a cube map stores at least one face",
                    ));
                }
                faces
            }
        };
        let slices = array_size.checked_mul(faces).ok_or(Error::invalid(
            u64_of(DATA_OFFSET + 12),
            "DDS_HEADER_DXT10.arraySize",
            u64::from(array_size),
            "more than 2^32 slices once cube faces are counted",
        ))?;
        let depth = if volume { header.depth.get().max(1) } else { 1 };
        let mips = header.mip_map_count.get().max(1);
        let largest = width.max(height).max(depth);
        let full_chain = 32 - largest.leading_zeros();
        if mips > full_chain {
            return Err(Error::invalid(
                28,
                "DDS_HEADER.mipMapCount",
                u64::from(mips),
                "more mip levels than halvings of the largest dimension down to 1",
            ));
        }
        let overflow = |what| {
            Error::invalid(
                u64_of(data_offset),
                what,
                u64::from(width.max(height)),
                "the texture's size in bytes overflows 64 bits",
            )
        };
        let mut slice_bytes = 0u64;
        for mip in 0..mips {
            let image = format
                .image_bytes(mip_size(width, mip), mip_size(height, mip))
                .ok_or(overflow("DDS level size"))?;
            let level = image
                .checked_mul(u64::from(mip_size(depth, mip)))
                .ok_or(overflow("DDS level size"))?;
            slice_bytes = slice_bytes
                .checked_add(level)
                .ok_or(overflow("DDS level size"))?;
        }
        let total = slice_bytes
            .checked_mul(u64::from(slices))
            .ok_or(overflow("DDS level data"))?;
        let available = u64_of(data.len().saturating_sub(data_offset));
        if levels_present && total > available {
            return Err(Error::truncated(
                u64_of(data_offset),
                "DDS level data",
                total,
                available,
            ));
        }
        Ok(DdsView {
            bytes,
            header,
            dx10,
            format,
            srgb,
            width,
            height,
            depth,
            mips,
            slices,
            cube,
            data_offset,
            slice_bytes,
        })
    }

    /// The header as stored.
    pub fn header(&self) -> &'a RawHeader {
        self.header
    }

    /// The DX10 header, when the FourCC is `DX10`.
    pub fn dx10(&self) -> Option<&'a RawDx10Header> {
        self.dx10
    }

    /// How the pixels are stored.
    pub fn format(&self) -> TextureFormat {
        self.format
    }

    /// Whether the DXGI format says the colours are sRGB encoded (legacy headers cannot say).
    pub fn is_srgb(&self) -> bool {
        self.srgb
    }

    /// Width of the top level in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height of the top level in pixels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Depth of the top level (1 unless a volume texture).
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Mip levels per slice (at least 1; a stored count of 0 means 1).
    pub fn mip_count(&self) -> u32 {
        self.mips
    }

    /// Array slices, every cube face counted (a cube map: 6).
    pub fn slice_count(&self) -> u32 {
        self.slices
    }

    /// Whether the slices are cube faces.
    pub fn is_cube(&self) -> bool {
        self.cube
    }

    /// Where the first level starts (128, or 148 after a DX10 header).
    pub fn data_offset(&self) -> usize {
        self.data_offset
    }

    /// Where the last level ends: bytes past it are not part of the texture.
    pub fn data_end(&self) -> usize {
        // Checked at open: the levels fit in the file.
        self.data_offset + (self.slice_bytes * u64::from(self.slices)) as usize
    }

    /// The whole file.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes.as_slice()
    }

    /// Mip level `mip` of array slice `slice`; `None` when the texture has no such level.
    pub fn level(&self, slice: u32, mip: u32) -> Option<Level<'a>> {
        if slice >= self.slices || mip >= self.mips {
            return None;
        }
        let mut offset = self.slice_bytes * u64::from(slice);
        let mut size = 0;
        for m in 0..=mip {
            offset += size;
            size = self.level_bytes(m);
        }
        // Checked at open: every level lies inside the file.
        let start = self.data_offset + offset as usize;
        let data = self.bytes.as_slice().get(start..start + size as usize)?;
        Some(Level {
            slice,
            mip,
            width: mip_size(self.width, mip),
            height: mip_size(self.height, mip),
            depth: mip_size(self.depth, mip),
            offset: start,
            data,
            format: self.format,
        })
    }

    /// Every level: slice by slice, each slice's mips from the largest, in file order.
    pub fn levels(&self) -> impl Iterator<Item = Level<'a>> + 'a {
        let view = *self;
        (0..self.slices)
            .flat_map(move |slice| (0..view.mips).filter_map(move |mip| view.level(slice, mip)))
    }

    /// Every level's place and size as the header describes them, in file order: (slice, mip,
    /// width, height, depth, bytes); the bytes need not be in the file.
    #[cfg(feature = "write")]
    pub(crate) fn described_levels(&self) -> impl Iterator<Item = [u64; 6]> + '_ {
        (0..self.slices).flat_map(move |slice| {
            (0..self.mips).map(move |mip| {
                [
                    u64::from(slice),
                    u64::from(mip),
                    u64::from(mip_size(self.width, mip)),
                    u64::from(mip_size(self.height, mip)),
                    u64::from(mip_size(self.depth, mip)),
                    self.level_bytes(mip),
                ]
            })
        })
    }

    /// The largest mip level of slice 0 whose width and height are both at most `max_size` (the
    /// smallest level when none is).
    pub fn mip_within(&self, max_size: u32) -> u32 {
        (0..self.mips)
            .find(|&mip| mip_size(self.width, mip).max(mip_size(self.height, mip)) <= max_size)
            .unwrap_or(self.mips - 1)
    }

    fn level_bytes(&self, mip: u32) -> u64 {
        // Checked at open for every mip of the chain.
        self.format
            .image_bytes(mip_size(self.width, mip), mip_size(self.height, mip))
            .unwrap_or(0)
            * u64::from(mip_size(self.depth, mip))
    }
}

impl<'a> View<'a> for DdsView<'a> {
    const NAME: &'static str = "dds";
    type Summary = DdsInfo;
    #[cfg(feature = "write")]
    type Model = super::model::DdsModel;

    /// The magic `DDS ` and a header size of 124.
    fn looks_like(data: &[u8]) -> bool {
        data.get(..8).is_some_and(|head| {
            head[..4] == MAGIC.to_le_bytes() && head[4..8] == 124u32.to_le_bytes()
        })
    }

    /// `.dds`, and the split mip tiers of a game install (`.dd0`, `.dd1`, `.dd2`).
    const NAMED: Option<NameHint> = Some(NameHint {
        extensions: &["dds", "dd0", "dd1", "dd2"],
        name: ".dds",
        unreadable: "named .dds but does not read as one",
    });

    /// `DDS `.
    const MAGIC: &'static [u8] = &MAGIC.to_le_bytes();

    fn from_bytes_in(data: &'a [u8], _: &'a mut Scratch) -> Result<Self> {
        DdsView::from_bytes(data)
    }

    /// Opening already places every level inside the file and every block decodes to something;
    /// the check reports what the reader tolerated.
    fn check(&self) -> CheckReport {
        let mut report = CheckReport::default();
        let stored = self.header().pixel_format.size.get();
        if stored != PIXEL_FORMAT_SIZE {
            let found = DdsFinding::PixelFormatSize { stored };
            report.warnings.push(view::Finding::new(
                "DDS_PIXELFORMAT.size",
                Some(0x4c),
                found,
            ));
        }
        let end = self.data_end();
        if end < self.bytes().len() {
            let found = DdsFinding::TrailingBytes {
                offset: end,
                count: self.bytes().len() - end,
            };
            report
                .warnings
                .push(view::Finding::new("", Some(end as u64), found));
        }
        report
    }

    fn summary(&self) -> core::result::Result<DdsInfo, ViewError> {
        Ok(DdsInfo {
            format: self.format().name(),
            srgb: self.is_srgb(),
            dx10: self.dx10().is_some(),
            width: self.width(),
            height: self.height(),
            depth: self.depth(),
            mips: self.mip_count(),
            slices: self.slice_count(),
            cube: self.is_cube(),
            data_bytes: (self.data_end() - self.data_offset()) as u64,
            trailing_bytes: (self.bytes().len() - self.data_end()) as u64,
        })
    }

    #[cfg(feature = "write")]
    fn to_model(&self) -> core::result::Result<Self::Model, ViewError> {
        Ok(super::model::DdsModel::from_view(self))
    }

    #[cfg(all(feature = "write", feature = "serde"))]
    fn diff(&self, other: &Self) -> core::result::Result<crate::diff::Report, ViewError> {
        Ok(super::diff::files(self, other))
    }
}

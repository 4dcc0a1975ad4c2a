//! Captain Claw / Gruntz `.wwd` levels (WAP32 engine): a 1524-byte header, then the main block —
//! plane headers, tile grids, image-set names, objects and tile properties — stored as is or as one
//! zlib stream — and, in levels saved by the community editor WapMap, its metadata block after the
//! main block ([`WapMapMeta`]).
//!
//! Where its parts are: `raw.rs` the on-disk structs; this file the view ([`WwdView`]) and the
//! reader beside it (`plane.rs`, `object.rs`, `tile_property.rs`, `wapmap_meta.rs`); `model`
//! the owned level (`model::WwdModel`, feature `write`), `write.rs` its writer (`to_bytes`,
//! the layout, compression and checksum, feature `write`); `export` its interchange forms: `tiled` the Tiled map
//! export and import, [`render`](export::render) the level pictures; `diff` the comparison by plane and object;
//! the fixtures in `synth::wwd`.
//!
//! All offsets in the format are absolute in the image `header ‖ main block` (for a compressed
//! level, counting in the *inflated* block). An uncompressed level is read in place: the image is
//! the file (up to WapMap's block, when there is one). A compressed one is inflated once into a buffer the caller owns, which then holds the
//! image; the view borrows it. Errors report offsets in the image (equal to file offsets for
//! uncompressed levels; offsets into the inflated block otherwise, except stream errors, which give
//! the file offset where the zlib stream failed, and errors in WapMap's block, which give file
//! offsets).
//!
//! Allocations: none to open and walk an uncompressed level. A compressed level needs its inflate
//! buffer and a zlib decompressor ([`Inflater`], about 47 KB of state): reuse both across levels
//! with [`WwdView::from_bytes_with`] and a compressed open allocates at most the buffer (nothing
//! once the buffer is large enough); [`WwdView::from_bytes`] makes a fresh decompressor per level.
//!
//! # Format notes
//!
//! - Compression is a zlib stream (RFC 1950), not raw deflate; `decompressed_mainblock_size` is 0
//!   in uncompressed levels. A bad header signature is an error unless
//!   [`Options::ignore_signature`] is set.
//! - Levels saved by WapMap (its older versions; the call that appends the block has been commented
//!   out since a May 2020 commit) end with its metadata block ([`WapMapMeta`]): `<wm_meta>`, blocks
//!   of (type byte, 4-byte length, data) — MetaInfo (the block's size), Header (WapMap build,
//!   WapMap version, map build, map version, map description), Guides (count, then orientation
//!   byte and position per guide), MetaEndInfo (the size again) — and `</wm_meta>` (Zax37/WapMap,
//!   `WapMap/io/cWWDx.h`, `cWWDx.cpp`, `shared/cWWD.cpp`). WapMap appends it after either kind of
//!   main block. After a zlib stream the reader knows where
//!   the block starts; after an uncompressed main block nothing marks its end, so the block is found
//!   from the end of the file as WapMap finds it (closing tag, size, opening tag), and bytes there
//!   that do not form those three stay part of the main block. `model::WwdModel::wapmap_meta`
//!   writes it back verbatim, after the checksummed bytes.
//! - To read many levels, keep one inflate buffer and one [`Inflater`] per thread and open each
//!   level with [`WwdView::from_bytes_with`] (`gamebin info DIR` does). The decompressor's state is
//!   allocated once and reset between levels; a reused buffer that is large enough is not cleared
//!   first (a sound stream overwrites every byte of it), and a new one comes zeroed from the
//!   allocator.
//!
//! ```
//! # #[cfg(feature = "write")]
//! # fn main() -> Result<(), gamebin::Error> {
//! # let file = gamebin::synth::wwd::example_file();
//! use gamebin::wwd::{Game, Tile, WwdView};
//!
//! let mut inflated = Vec::new(); // used only when the level is compressed; reusable across files
//! let level = WwdView::from_bytes(&file, &mut inflated)?;
//! assert_eq!(level.game(), Game::Claw);
//! let main = level.main_plane().expect("a main plane");
//! let tiles = main.tiles()?;
//! assert!(matches!(tiles.tile(0, 0), Some(Tile::Image { .. } | Tile::Filled | Tile::Invisible)));
//! for object in main.objects()? {
//!     let object = object?;
//!     println!("{} at {:?}", gamebin::wwd::text_lossy(object.logic()), object.location());
//! }
//! println!("checksum: {}", level.checksum().verdict.name());
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "write"))]
//! # fn main() {}
//! ```

mod checksum;
#[cfg(all(feature = "write", feature = "serde"))]
pub mod diff;
pub mod export;
mod field;
mod game;
mod inflate;
mod info;
#[cfg(feature = "write")]
pub mod model;
mod object;
mod plane;
pub mod raw;
mod text;
mod tile_property;
mod view;
mod wapmap_meta;
#[cfg(feature = "write")]
mod write;

pub use checksum::{ChecksumFacts, ChecksumReport, ChecksumVerdict, wapmap as wapmap_checksum};
pub use field::{Field, escape, unescape};
pub use game::Game;
pub use inflate::{Inflater, MAX_INFLATE_RATIO, MAX_MAIN_BLOCK};
pub use info::{WapMapMetaInfo, WwdInfo};
pub use object::{Object, Objects};
pub use plane::{ImageSets, Plane, PlaneFlags, Tile, Tiles};
pub use text::{fixed, text_lossy};
pub use tile_property::{Attribute, TileKind, TileProperties, TileProperty, TilePropertyIter};
#[cfg(feature = "write")]
pub(crate) use wapmap_meta::check_whole as check_wapmap_meta;
pub use wapmap_meta::{MetaBlock, MetaBlockKind, MetaBlocks, MetaHeader, WapMapMeta};

use crate::bytes::{Bytes, Table, u64_of};
use crate::error::{Error, ErrorKind, Result};
use crate::mmap::MappedFile;
use raw::{FLAG_COMPRESS, HEADER_SIZE, Header, PlaneHeader};

/// The header signature of every good level (it is also the header's size).
pub const SIGNATURE: u32 = HEADER_SIZE as u32;

/// How strictly to open a level.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// Read a level whose header signature is not 0x5F4 (by default that is an error). Everything
    /// else is read as usual.
    pub ignore_signature: bool,
}

/// A `.wwd` level, borrowed (from the file, or from the caller's inflate buffer). `Copy`, `Send`,
/// `Sync`; everything it hands out lives for `'a`.
#[derive(Clone, Copy)]
pub struct WwdView<'a> {
    file: &'a [u8],
    header: &'a Header,
    image: Bytes<'a>,
    /// The plane headers, at `offset_planes` of the image.
    planes: Table<'a, PlaneHeader>,
    /// File offset where the stored main block ends (the file's end, or WapMap's block).
    stored_end: usize,
    wapmap_meta: Option<WapMapMeta<'a>>,
}

// By hand: the derived `Debug` printed the whole file; [`Bytes`] shows its length and first bytes.
impl core::fmt::Debug for WwdView<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("WwdView")
            .field("file", &Bytes::new(self.file))
            .field("header", &self.header)
            .field("image", &self.image)
            .field("planes", &self.planes)
            .field("stored_end", &self.stored_end)
            .field("wapmap_meta", &self.wapmap_meta)
            .finish()
    }
}

impl<'a> WwdView<'a> {
    /// Opens a level held in memory. An uncompressed level is read in place and `inflated` is not
    /// touched. A compressed level is inflated into `inflated` (cleared first; it grows once, to
    /// 1524 bytes + the header's decompressed size, only when its capacity is too small), which
    /// then holds the image the view borrows.
    ///
    /// A convenience for one level: it makes a fresh decompressor for each compressed level, so a
    /// compressed open allocates twice (the buffer and the decompressor's state, about 47 KB), or
    /// once when `inflated` is reused. To open many levels, keep an [`Inflater`] and use
    /// [`from_bytes_with`](Self::from_bytes_with): then a compressed open allocates at most the
    /// buffer.
    ///
    /// ```
    /// # #[cfg(feature = "write")]
    /// # fn main() -> Result<(), gamebin::Error> {
    /// # let file = gamebin::synth::wwd::example_file();
    /// use gamebin::wwd::WwdView;
    ///
    /// let mut inflated = Vec::new(); // untouched for an uncompressed level
    /// let level = WwdView::from_bytes(&file, &mut inflated)?;
    /// let (x, y) = level.start(); // the player's start, in main-plane pixels
    /// println!("{} planes, start at ({x}, {y})", level.plane_count());
    /// assert!(level.is_compressed()); // the example level is; `inflated` holds its image
    /// assert!(level.main_plane().is_some());
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "write"))]
    /// # fn main() {}
    /// ```
    pub fn from_bytes(data: &'a [u8], inflated: &'a mut Vec<u8>) -> Result<Self> {
        Self::from_bytes_with(data, inflated, &mut Inflater::new(), Options::default())
    }

    /// Opens a level with a caller-kept [`Inflater`] and [`Options`]. Allocations: none for an
    /// uncompressed level; for a compressed one, the buffer when its capacity is too small, plus the
    /// inflater's state the first time it is used. With both warm (reused across levels), a
    /// compressed level opens with no allocation at all.
    ///
    /// ```
    /// # #[cfg(feature = "write")]
    /// # fn main() -> Result<(), gamebin::Error> {
    /// # let file = gamebin::synth::wwd::example_file();
    /// use gamebin::wwd::{Inflater, Options, WwdView};
    ///
    /// let (mut inflated, mut inflater) = (Vec::new(), Inflater::new());
    /// // A level whose header signature was damaged still reads with this option.
    /// let options = Options { ignore_signature: true };
    /// let level = WwdView::from_bytes_with(&file, &mut inflated, &mut inflater, options)?;
    /// assert!(level.signature_ok());
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "write"))]
    /// # fn main() {}
    /// ```
    pub fn from_bytes_with(
        data: &'a [u8],
        inflated: &'a mut Vec<u8>,
        inflater: &mut Inflater,
        options: Options,
    ) -> Result<Self> {
        let bytes = Bytes::new(data);
        let header: &Header = bytes.read(0, "WwdHeader")?;
        let signature = header.signature.get();
        if signature != SIGNATURE && !options.ignore_signature {
            return Err(Error::new(
                0,
                "WwdHeader.signature",
                ErrorKind::BadMagic {
                    expected: u64::from(SIGNATURE),
                    found: u64::from(signature),
                },
            ));
        }
        let (image, wapmap_meta): (&'a [u8], _) = if header.flags.get() & FLAG_COMPRESS != 0 {
            let (head, stored) = data.split_at(HEADER_SIZE.min(data.len()));
            let stream = inflate::inflate_into(
                head,
                stored,
                header.decompressed_mainblock_size.get(),
                inflated,
                inflater,
            )?;
            // The stream's end is known: what follows is WapMap's block or an error.
            let meta = wapmap_meta::after_stream(data, HEADER_SIZE + stream)?;
            (inflated.as_slice(), meta)
        } else {
            // Nothing marks the end of an uncompressed main block but the file's end: WapMap's
            // block is found from there, as WapMap finds it, and cut off the image.
            let meta = wapmap_meta::at_end(data)?;
            let end = meta.map_or(data.len(), |m| m.offset());
            (data.get(..end).unwrap_or(data), meta)
        };
        let stored_end = wapmap_meta.map_or(data.len(), |m| m.offset());
        let image = Bytes::new(image);
        let planes = image.table::<PlaneHeader>(
            header.offset_planes.get() as usize,
            header.num_planes.get() as usize,
            "WwdHeader.planes",
        )?;
        let view = WwdView {
            file: data,
            header,
            image,
            planes,
            stored_end,
            wapmap_meta,
        };
        view.check_planes_apart()?;
        Ok(view)
    }

    /// Refuses planes that share their regions. A writer gives each plane its own tile grid, names
    /// and objects, so together they cover at most the image; planes pointing at the same bytes
    /// would make a walk over every plane cost the image's length once per plane. Checked at open
    /// so that any walk a caller makes over a view stays within the image's length.
    fn check_planes_apart(&self) -> Result<()> {
        let mut covered = 0usize;
        for plane in self.planes() {
            covered = covered.saturating_add(plane.extent());
            if covered > self.image.len() {
                return Err(Error::invalid(
                    u64_of(plane.offset()),
                    "PlaneHeader",
                    u64_of(covered),
                    "the tile grids, image-set names and objects of the planes up to this one \
                     cover more bytes than the level's image holds: planes share their regions",
                ));
            }
        }
        Ok(())
    }

    /// Opens a mapped level (see [`from_bytes`](Self::from_bytes), which says what it allocates).
    /// The file must not change while mapped (see [`MappedFile`]).
    pub fn open(file: &'a MappedFile, inflated: &'a mut Vec<u8>) -> Result<Self> {
        Self::from_bytes(file.bytes(), inflated)
    }

    /// Opens a mapped level with a caller-kept [`Inflater`] and [`Options`] (see
    /// [`from_bytes_with`](Self::from_bytes_with)).
    pub fn open_with(
        file: &'a MappedFile,
        inflated: &'a mut Vec<u8>,
        inflater: &mut Inflater,
        options: Options,
    ) -> Result<Self> {
        Self::from_bytes_with(file.bytes(), inflated, inflater, options)
    }

    /// The stored header, every field.
    pub const fn header(&self) -> &'a Header {
        self.header
    }

    /// Whether the main block is stored as a zlib stream.
    pub fn is_compressed(&self) -> bool {
        self.header.flags.get() & FLAG_COMPRESS != 0
    }

    /// The main block's length after inflating (its stored length when uncompressed).
    pub fn main_block_len(&self) -> usize {
        self.image.len().saturating_sub(HEADER_SIZE)
    }

    /// The main block as stored in the file (the zlib stream when compressed), without WapMap's
    /// metadata block when one follows it.
    pub fn stored_main_block(&self) -> &'a [u8] {
        self.file.get(HEADER_SIZE..self.stored_end).unwrap_or(&[])
    }

    /// The metadata block WapMap appended after the stored main block, when there is one (see
    /// [`WapMapMeta`]). Opening the level found and checked it; this allocates nothing.
    pub const fn wapmap_meta(&self) -> Option<WapMapMeta<'a>> {
        self.wapmap_meta
    }

    /// The image `header ‖ main block` that the format's offsets index.
    pub fn image(&self) -> &'a [u8] {
        self.image.as_slice()
    }

    /// The file's bytes as given.
    pub const fn file(&self) -> &'a [u8] {
        self.file
    }

    /// Whether the header signature is the expected 0x5F4.
    pub fn signature_ok(&self) -> bool {
        self.header.signature.get() == SIGNATURE
    }

    /// The game the level is for.
    pub fn game(&self) -> Game {
        game::detect(self.header)
    }

    /// Compares the stored checksum with the known formulas over the stored main block (which
    /// excludes WapMap's metadata block: WapMap computes the checksum before appending it).
    /// Reported, never enforced (see [`ChecksumVerdict`]). O(n) over the stored bytes, no
    /// allocation.
    pub fn checksum(&self) -> ChecksumReport {
        checksum::report(self.header.checksum.get(), self.stored_main_block())
    }

    /// The level's name (header slot bytes up to the first NUL).
    pub fn name(&self) -> &'a [u8] {
        text::fixed(&self.header.name)
    }
    /// The author (header slot bytes up to the first NUL).
    pub fn author(&self) -> &'a [u8] {
        text::fixed(&self.header.author)
    }
    /// The `birth` text (header slot bytes up to the first NUL; the seed does not say what it
    /// holds).
    pub fn birth(&self) -> &'a [u8] {
        text::fixed(&self.header.birth)
    }
    /// Path of the `.REZ` resource archive (header slot bytes up to the first NUL).
    pub fn rez_file(&self) -> &'a [u8] {
        text::fixed(&self.header.rez_file)
    }
    /// The image directory in the resources (header slot bytes up to the first NUL).
    pub fn image_dir(&self) -> &'a [u8] {
        text::fixed(&self.header.image_dir)
    }
    /// Path of the palette in the resources (header slot bytes up to the first NUL).
    pub fn pal_rez(&self) -> &'a [u8] {
        text::fixed(&self.header.pal_rez)
    }
    /// The program the editor launches to test the level (header slot bytes up to the first NUL).
    pub fn launch_app(&self) -> &'a [u8] {
        text::fixed(&self.header.launch_app)
    }
    /// Header image set `i` (0..4).
    pub fn image_set(&self, i: usize) -> Option<&'a [u8]> {
        self.header.image_sets.get(i).map(|s| text::fixed(s))
    }
    /// Header prefix `i` (0..4).
    pub fn prefix(&self, i: usize) -> Option<&'a [u8]> {
        self.header.prefixes.get(i).map(|s| text::fixed(s))
    }
    /// Claw's start position.
    pub fn start(&self) -> (i32, i32) {
        (self.header.start_x.get(), self.header.start_y.get())
    }

    /// Number of planes.
    pub fn plane_count(&self) -> usize {
        self.planes.len()
    }

    /// Plane `i`.
    pub fn plane(&self, i: usize) -> Option<Plane<'a>> {
        let raw = self.planes.get(i)?;
        Some(Plane {
            image: self.image,
            raw,
        })
    }

    /// Every plane, in header order. When the level opened, the plane headers were checked to lie
    /// in the image, and the planes' tile grids, image-set names and objects to cover no more
    /// bytes together than the image holds; what they point to is read on request.
    ///
    /// ```
    /// # #[cfg(feature = "write")]
    /// # fn main() -> Result<(), gamebin::Error> {
    /// # let file = gamebin::synth::wwd::example_file();
    /// use gamebin::wwd::{WwdView, text_lossy};
    ///
    /// let mut inflated = Vec::new();
    /// let level = WwdView::from_bytes(&file, &mut inflated)?;
    /// for plane in level.planes() {
    ///     let tiles = plane.tiles()?;
    ///     println!(
    ///         "{} at {:#x}: {}x{} tiles, main: {}",
    ///         text_lossy(plane.name()),
    ///         plane.offset(),
    ///         tiles.wide(),
    ///         tiles.high(),
    ///         plane.flags().is_main()
    ///     );
    /// }
    /// assert_eq!(level.planes().len(), level.plane_count());
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "write"))]
    /// # fn main() {}
    /// ```
    pub fn planes(&self) -> impl ExactSizeIterator<Item = Plane<'a>> + 'a {
        let image = self.image;
        self.planes.iter().map(move |raw| Plane { image, raw })
    }

    /// The first plane flagged main (exactly one in real levels), or `None`.
    pub fn main_plane(&self) -> Option<Plane<'a>> {
        self.planes().find(|p| p.flags().is_main())
    }

    /// The plane named `name` (compared as bytes, ASCII case-insensitively).
    pub fn plane_by_name(&self, name: &[u8]) -> Option<Plane<'a>> {
        self.planes().find(|p| p.name().eq_ignore_ascii_case(name))
    }

    /// The tile-property table: what each tile id of the level's tile sets is (solid, ground,
    /// climbable, ...), by type. Its records are variable-sized and read as the table is walked.
    ///
    /// ```
    /// # #[cfg(feature = "write")]
    /// # fn main() -> Result<(), gamebin::Error> {
    /// # let file = gamebin::synth::wwd::example_file();
    /// use gamebin::wwd::{TileKind, WwdView};
    ///
    /// let mut inflated = Vec::new();
    /// let level = WwdView::from_bytes(&file, &mut inflated)?;
    /// let table = level.tile_properties()?;
    /// let mut masks = 0;
    /// for property in table.iter() {
    ///     // Each item is a `Result`: a damaged record is reported, not skipped.
    ///     if let TileKind::Mask { .. } = property?.kind() {
    ///         masks += 1;
    ///     }
    /// }
    /// println!("{} tile properties, {masks} masks", table.len());
    /// assert_eq!(table.iter().count(), table.len() as usize);
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "write"))]
    /// # fn main() {}
    /// ```
    pub fn tile_properties(&self) -> Result<TileProperties<'a>> {
        TileProperties::read(
            self.image,
            self.header.offset_tile_properties.get() as usize,
        )
    }

    /// Walks every structure the level has: tile grids, image-set names, objects and tile
    /// properties. For tools and tests; readers do not need it.
    ///
    /// ```
    /// # #[cfg(feature = "write")]
    /// # fn main() -> Result<(), gamebin::Error> {
    /// # let file = gamebin::synth::wwd::example_file();
    /// let mut inflated = Vec::new();
    /// let level = gamebin::wwd::WwdView::from_bytes(&file, &mut inflated)?;
    /// level.validate()?; // the first error, with its offset, if anything does not read
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "write"))]
    /// # fn main() {}
    /// ```
    pub fn validate(&self) -> Result<()> {
        for plane in self.planes() {
            plane.tiles()?;
            for name in plane.image_sets() {
                name?;
            }
            for object in plane.objects()? {
                object?;
            }
        }
        for property in self.tile_properties()?.iter() {
            property?;
        }
        Ok(())
    }
}

/// Whether `data` looks like a `.wwd` level: a whole header with the 0x5F4 signature and plane
/// headers at or after it.
pub(crate) fn looks_like(data: &[u8]) -> bool {
    let Ok(header) = Bytes::new(data).read::<Header>(0, "WwdHeader") else {
        return false;
    };
    header.signature.get() == SIGNATURE
        && header.offset_planes.get() as usize >= HEADER_SIZE
        && header.num_planes.get() <= 1024
}

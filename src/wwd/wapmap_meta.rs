//! WapMap's metadata block: what the community editor WapMap appends after the stored main block
//! when it saves a level (its "WWD extended meta", `WapMap/io/cWWDx.h` and `cWWDx.cpp` in
//! Zax37/WapMap; the call that appends it is in `shared/cWWD.cpp`, `CompileToStream`).
//!
//! Layout, as WapMap's source defines it (all integers little-endian `int`):
//!
//! ```text
//! "<wm_meta>"                      9 bytes, no NUL
//! blocks, each: type (1 byte), length (4 bytes), then `length` bytes of data
//!   0 MetaInfo     first; data: the whole block's size, tags included (4 bytes)
//!   2 Header       WapMap build (4), WapMap version (NUL-terminated), map build (4),
//!                  map version (NUL-terminated), map description (NUL-terminated)
//!   3 Guides       count (4), then per guide: orientation (1 byte, 1 horizontal, 0 vertical),
//!                  position (4)
//!   1 MetaEndInfo  last; data: the whole block's size again (4 bytes)
//! "</wm_meta>"                     10 bytes, no NUL
//! ```
//!
//! WapMap's notes say each type appears at most once and blocks between MetaInfo and MetaEndInfo
//! may come in any order; a reader skips a type it does not know by its length. WapMap itself
//! finds the block from the end of the file: the closing tag, the size just before it, the opening
//! tag that far back.
//!
//! WapMap computes the header checksum *before* appending the block, so the checksum covers the
//! stored main block only. It appends the block whether or not the main block is compressed (the
//! compress flag is a user option in WapMap), so the block can follow either kind. The version of
//! WapMap in the repository today has the append commented out; older versions wrote it, and levels
//! saved by them circulate.

use core::fmt;

use super::raw::{
    HEADER_SIZE, WM_BLOCK_GUIDES, WM_BLOCK_HEADER, WM_BLOCK_META_END_INFO, WM_BLOCK_META_INFO,
    WM_META_CLOSE, WM_META_OPEN, WmBlockHeader, WmGuide,
};
use crate::bytes::{Bytes, Cursor, Located, Place, Record, Records, u64_of};
use crate::error::{Error, Result};

/// The smallest block WapMap's reader accepts: two tags and the MetaInfo and MetaEndInfo blocks.
pub const MIN_LEN: usize = WM_META_OPEN.len() + 9 + 9 + WM_META_CLOSE.len();

/// WapMap's metadata block, borrowed from the file. Found and checked when the level is opened:
/// both tags, every block's length within the block, MetaInfo first, MetaEndInfo followed by the
/// closing tag at the end of the file, and both stored sizes equal to the block's length. The
/// contents of the Header and Guides blocks are decoded on request.
#[derive(Clone, Copy)]
pub struct WapMapMeta<'a> {
    /// The file up to the end of the block (the block ends the file).
    file: Bytes<'a>,
    /// File offset of `<wm_meta>`.
    at: usize,
}

impl fmt::Debug for WapMapMeta<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WapMapMeta")
            .field("offset", &self.at)
            .field("len", &self.len())
            .finish()
    }
}

/// What a block's type byte says (WapMap's `WWDx_BlockType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MetaBlockKind {
    /// `MetaInfo` (0).
    MetaInfo,
    /// `MetaEndInfo` (1): the last block.
    MetaEndInfo,
    /// `Header` (2).
    Header,
    /// `Guides` (3): the editor's guide lines ([`WmGuide`](super::raw::WmGuide) records).
    Guides,
    /// A type WapMap does not define; WapMap skips it by its length.
    Unknown(u8),
}

impl MetaBlockKind {
    /// The kind a stored type byte names.
    pub const fn from_raw(block_type: u8) -> MetaBlockKind {
        match block_type {
            WM_BLOCK_META_INFO => MetaBlockKind::MetaInfo,
            WM_BLOCK_META_END_INFO => MetaBlockKind::MetaEndInfo,
            WM_BLOCK_HEADER => MetaBlockKind::Header,
            WM_BLOCK_GUIDES => MetaBlockKind::Guides,
            other => MetaBlockKind::Unknown(other),
        }
    }

    /// WapMap's name for the type, or `unknown`.
    pub const fn name(self) -> &'static str {
        match self {
            MetaBlockKind::MetaInfo => "MetaInfo",
            MetaBlockKind::MetaEndInfo => "MetaEndInfo",
            MetaBlockKind::Header => "Header",
            MetaBlockKind::Guides => "Guides",
            MetaBlockKind::Unknown(_) => "unknown",
        }
    }
}

/// One block of the metadata, borrowed.
#[derive(Debug, Clone, Copy)]
pub struct MetaBlock<'a> {
    /// The file up to the end of this block's data, so that reads cannot leave the block.
    file: Bytes<'a>,
    /// The type and length, at the block's file offset.
    head: Located<'a, WmBlockHeader>,
}

impl<'a> MetaBlock<'a> {
    /// File offset of the block's type byte.
    pub const fn offset(&self) -> usize {
        self.head.offset()
    }
    /// The type byte as stored.
    pub const fn block_type(&self) -> u8 {
        self.head.get().block_type
    }
    /// What the type byte says.
    pub const fn kind(&self) -> MetaBlockKind {
        MetaBlockKind::from_raw(self.block_type())
    }
    /// The block's data (after its 5-byte type and length).
    pub fn data(&self) -> &'a [u8] {
        self.file.tail(self.data_offset(), "").unwrap_or_default()
    }
    /// File offset of the block's data.
    const fn data_offset(&self) -> usize {
        self.head
            .field_offset(core::mem::size_of::<WmBlockHeader>())
    }
    /// A cursor at the start of the block's data, which cannot read past the block.
    const fn cursor(&self) -> Cursor<'a> {
        Cursor::new(self.file, self.data_offset())
    }
    /// The 4-byte `int` the block's data starts with.
    fn first_i32(&self, what: &'static str) -> Result<i32> {
        self.cursor().i32_le(what)
    }
}

/// The blocks of the metadata in stored order, MetaInfo to MetaEndInfo (see [`Records`]). Opening
/// the level walked them already, so this yields no error on a level that opened; it still yields
/// `Result` and stops after the first error, like every iterator over file data.
pub type MetaBlocks<'a> = Records<'a, MetaBlock<'a>>;

impl<'a> Record<'a> for MetaBlock<'a> {
    type Context = ();
    const MIN_SIZE: usize = core::mem::size_of::<WmBlockHeader>();

    fn read(cur: &mut Cursor<'a>, (): (), _: Place) -> Result<Self> {
        let head: Located<'a, WmBlockHeader> = cur.located("WapMapMeta.block")?;
        cur.take(head.length.get() as usize, "WapMapMeta.block.data")?;
        let file = cur.bytes().as_slice();
        Ok(MetaBlock {
            file: Bytes::new(file.get(..cur.offset()).unwrap_or_default()),
            head,
        })
    }

    /// MetaEndInfo closes the run.
    fn ends_run(&self) -> bool {
        self.block_type() == WM_BLOCK_META_END_INFO
    }
}

/// The block at `at` and the offset after its data.
fn block_at(file: Bytes<'_>, at: usize) -> Result<(MetaBlock<'_>, usize)> {
    let mut cur = Cursor::new(file, at);
    let block = MetaBlock::read(
        &mut cur,
        (),
        Place {
            index: 0,
            last: false,
        },
    )?;
    Ok((block, cur.offset()))
}

/// WapMap's Header block: which WapMap saved the level, and the map's own version fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MetaHeader<'a> {
    /// WapMap's `iWapMapBuild`: the build of WapMap that saved the level (30 for WapMap 0.3.1).
    pub wapmap_build: i32,
    /// WapMap's `strWapMapVersion` (e.g. `0.3.1`), bytes without the NUL.
    pub wapmap_version: &'a [u8],
    /// WapMap's `iMapBuild`: a counter WapMap increments on each save.
    pub map_build: i32,
    /// WapMap's `strMapVersion`, a free text the author sets (WapMap's default is `1.0`).
    pub map_version: &'a [u8],
    /// WapMap's `strMapDescription`, a free text.
    pub map_description: &'a [u8],
}

impl<'a> WapMapMeta<'a> {
    /// File offset of `<wm_meta>`.
    pub const fn offset(&self) -> usize {
        self.at
    }

    /// The block's length, tags included.
    pub const fn len(&self) -> usize {
        self.file.len().saturating_sub(self.at)
    }

    /// Always false: a block has at least its tags.
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The whole block as stored, `<wm_meta>` to `</wm_meta>`.
    pub fn bytes(&self) -> &'a [u8] {
        self.file.as_slice().get(self.at..).unwrap_or(&[])
    }

    /// The blocks between the tags, in stored order.
    pub fn blocks(&self) -> MetaBlocks<'a> {
        Records::until_terminator(Cursor::new(self.file, self.at + WM_META_OPEN.len()))
    }

    /// The first block of a type.
    fn find(&self, block_type: u8) -> Result<Option<MetaBlock<'a>>> {
        for block in self.blocks() {
            let block = block?;
            if block.block_type() == block_type {
                return Ok(Some(block));
            }
        }
        Ok(None)
    }

    /// The size stored in MetaInfo (equal to [`len`](Self::len) in a level that opened).
    pub fn meta_info_size(&self) -> Result<u32> {
        self.size_in(WM_BLOCK_META_INFO, "WapMapMeta.MetaInfo.size")
    }

    /// The size stored in MetaEndInfo (equal to [`len`](Self::len) in a level that opened).
    pub fn meta_end_info_size(&self) -> Result<u32> {
        self.size_in(WM_BLOCK_META_END_INFO, "WapMapMeta.MetaEndInfo.size")
    }

    fn size_in(&self, block_type: u8, what: &'static str) -> Result<u32> {
        match self.find(block_type)? {
            Some(b) => b.first_i32(what).map(|v| v as u32),
            None => Err(Error::invalid(
                u64_of(self.at),
                what,
                u64::from(block_type),
                "the block has no block of this type",
            )),
        }
    }

    /// The Header block, decoded; `None` when the block has none.
    pub fn header(&self) -> Result<Option<MetaHeader<'a>>> {
        let Some(b) = self.find(WM_BLOCK_HEADER)? else {
            return Ok(None);
        };
        let mut cur = b.cursor();
        let wapmap_build = cur.i32_le("WapMapMeta.Header.wapmap_build")?;
        let wapmap_version = cur.zstring("WapMapMeta.Header.wapmap_version")?;
        let map_build = cur.i32_le("WapMapMeta.Header.map_build")?;
        let map_version = cur.zstring("WapMapMeta.Header.map_version")?;
        let map_description = cur.zstring("WapMapMeta.Header.map_description")?;
        Ok(Some(MetaHeader {
            wapmap_build,
            wapmap_version,
            map_build,
            map_version,
            map_description,
        }))
    }

    /// The guide lines of the Guides block (empty when the block has none), borrowed as stored.
    pub fn guides(&self) -> Result<&'a [WmGuide]> {
        let Some(b) = self.find(WM_BLOCK_GUIDES)? else {
            return Ok(&[]);
        };
        let mut cur = b.cursor();
        let at = cur.offset();
        let count = cur.i32_le("WapMapMeta.Guides.count")?;
        let count = usize::try_from(count).map_err(|_| {
            Error::invalid(
                u64_of(at),
                "WapMapMeta.Guides.count",
                u64::from(count as u32),
                "negative",
            )
        })?;
        cur.read_slice(count, "WapMapMeta.Guides.guides")
    }
}

/// After a zlib stream that ends at file offset `end`: nothing when the file ends there, the block
/// when the bytes there begin as `<wm_meta>` does (a block cut inside its opening tag is reported
/// as cut), and otherwise the error for bytes after the stream, with their offset and length.
pub(crate) fn after_stream(file: &[u8], end: usize) -> Result<Option<WapMapMeta<'_>>> {
    let rest = file.get(end..).unwrap_or(&[]);
    if rest.is_empty() {
        return Ok(None);
    }
    let head = rest.get(..WM_META_OPEN.len()).unwrap_or(rest);
    if !WM_META_OPEN.starts_with(head) {
        return Err(Error::invalid(
            u64_of(end),
            "WwdHeader.main_block(zlib)",
            u64_of(rest.len()),
            "bytes after the end of the zlib stream (not a WapMap <wm_meta> block)",
        ));
    }
    read(file, end).map(Some)
}

/// At the end of an uncompressed level, found as WapMap finds it: the file ends with
/// `</wm_meta>`, the 4 bytes before it give the block's size, and `<wm_meta>` starts that far back
/// (after the header). Without all three the bytes are the main block's, as before WapMap; with
/// them, the block must be whole.
pub(crate) fn at_end(file: &[u8]) -> Result<Option<WapMapMeta<'_>>> {
    let Some(tag_at) = file.len().checked_sub(WM_META_CLOSE.len()) else {
        return Ok(None);
    };
    if file.get(tag_at..) != Some(&WM_META_CLOSE[..]) {
        return Ok(None);
    }
    let Some(size) = tag_at.checked_sub(4).and_then(|at| {
        Bytes::new(file)
            .u32_le(at, "WapMapMeta.MetaEndInfo.size")
            .ok()
    }) else {
        return Ok(None);
    };
    let size = size as usize;
    let start = match file.len().checked_sub(size) {
        Some(start) if size >= MIN_LEN && start >= HEADER_SIZE => start,
        _ => return Ok(None),
    };
    if file.get(start..start + WM_META_OPEN.len()) != Some(&WM_META_OPEN[..]) {
        return Ok(None);
    }
    read(file, start).map(Some)
}

/// Checks that `block` is one whole WapMap block on its own, as a reader finds it after a level's
/// main block; an error's offset counts from the block's start. The writer refuses anything else
/// there, since other bytes after the main block make the level unreadable. (Only the writers
/// need it: the level writer and the Tiled import, which needs `write`.)
#[cfg(feature = "write")]
pub(crate) fn check_whole(block: &[u8]) -> Result<()> {
    read(block, 0).map(|_| ())
}

/// Reads and checks the block that starts at file offset `at` and must end the file.
fn read(data: &[u8], at: usize) -> Result<WapMapMeta<'_>> {
    let file = Bytes::new(data);
    let open = file.slice(at, WM_META_OPEN.len(), "WapMapMeta.open_tag")?;
    if open != WM_META_OPEN {
        return Err(Error::invalid(
            u64_of(at),
            "WapMapMeta.open_tag",
            u64::from(open.first().copied().unwrap_or(0)),
            "not <wm_meta>",
        ));
    }
    // Every pass moves at least 5 bytes forward and a block never reaches past the file, so the
    // walk ends on any input.
    let mut pos = at + WM_META_OPEN.len();
    let mut sizes = [(0usize, 0u32); 2];
    loop {
        let (block, next) = block_at(file, pos)?;
        let first = pos == at + WM_META_OPEN.len();
        if first != (block.block_type() == WM_BLOCK_META_INFO) {
            return Err(Error::invalid(
                u64_of(pos),
                "WapMapMeta.block",
                u64::from(block.block_type()),
                "MetaInfo (type 0) must be the first block, and only the first",
            ));
        }
        let end = block.block_type() == WM_BLOCK_META_END_INFO;
        if first || end {
            let what = if first {
                "WapMapMeta.MetaInfo.length"
            } else {
                "WapMapMeta.MetaEndInfo.length"
            };
            if block.data().len() != 4 {
                return Err(Error::invalid(
                    u64_of(pos + 1),
                    what,
                    u64_of(block.data().len()),
                    "MetaInfo and MetaEndInfo hold exactly 4 bytes",
                ));
            }
            sizes[usize::from(end)] = (block.data_offset(), block.first_i32(what)? as u32);
        }
        pos = next;
        if end {
            break;
        }
    }
    let close = file.slice(pos, WM_META_CLOSE.len(), "WapMapMeta.close_tag")?;
    if close != WM_META_CLOSE {
        return Err(Error::invalid(
            u64_of(pos),
            "WapMapMeta.close_tag",
            u64::from(close.first().copied().unwrap_or(0)),
            "not </wm_meta> after MetaEndInfo: the closing tag is missing",
        ));
    }
    let end = pos + WM_META_CLOSE.len();
    let len = end - at;
    for ((field_at, size), what) in sizes
        .into_iter()
        .zip(["WapMapMeta.MetaInfo.size", "WapMapMeta.MetaEndInfo.size"])
    {
        if size as usize != len {
            return Err(Error::invalid(
                u64_of(field_at),
                what,
                u64::from(size),
                "differs from the block's length, tags included",
            ));
        }
    }
    if end != data.len() {
        return Err(Error::invalid(
            u64_of(end),
            "WapMapMeta",
            u64_of(data.len() - end),
            "bytes after the end of the WapMap metadata block",
        ));
    }
    Ok(WapMapMeta {
        file: Bytes::new(data.get(..end).unwrap_or(&[])),
        at,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;

    /// The smallest block WapMap's reader accepts (its `19 + 9 + 9` bytes): tags, MetaInfo and
    /// MetaEndInfo, each holding the size 37.
    fn smallest() -> Vec<u8> {
        let mut b = WM_META_OPEN.to_vec();
        for block_type in [WM_BLOCK_META_INFO, WM_BLOCK_META_END_INFO] {
            b.push(block_type);
            b.extend_from_slice(&4u32.to_le_bytes());
            b.extend_from_slice(&37u32.to_le_bytes());
        }
        b.extend_from_slice(WM_META_CLOSE);
        b
    }

    #[test]
    fn the_smallest_block_reads_and_has_no_header_or_guides() {
        let block = smallest();
        assert_eq!(block.len(), MIN_LEN);
        let mut file = vec![0u8; HEADER_SIZE + 3];
        file.extend_from_slice(&block);
        for meta in [
            after_stream(&file, HEADER_SIZE + 3).unwrap().unwrap(),
            at_end(&file).unwrap().unwrap(),
        ] {
            assert_eq!((meta.offset(), meta.len()), (HEADER_SIZE + 3, 37));
            assert_eq!(meta.header().unwrap(), None);
            assert!(meta.guides().unwrap().is_empty());
            assert_eq!(meta.blocks().count(), 2);
        }
    }

    #[test]
    fn a_cut_opening_tag_is_a_cut_block_and_anything_else_is_trailing_bytes() {
        let mut file = vec![0u8; HEADER_SIZE];
        file.extend_from_slice(b"<wm_");
        let e = after_stream(&file, HEADER_SIZE).unwrap_err();
        assert_eq!(e.what(), "WapMapMeta.open_tag");
        assert_eq!(
            e.kind(),
            ErrorKind::Truncated {
                needed: 9,
                available: 4
            }
        );
        file.push(b'x');
        let e = after_stream(&file, HEADER_SIZE).unwrap_err();
        assert_eq!(e.what(), "WwdHeader.main_block(zlib)");
        assert_eq!(at_end(&file).unwrap().map(|m| m.offset()), None);
        assert_eq!(
            after_stream(&file, file.len()).unwrap().map(|m| m.len()),
            None
        );
    }
}

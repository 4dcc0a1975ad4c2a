//! The main block of a compressed level: one zlib stream (RFC 1950, never raw deflate) from the end
//! of the header to the end of the file (or to WapMap's metadata block), inflated once into a caller-owned buffer that then holds
//! the whole image `header ‖ inflated main block`, so that the format's absolute offsets index it
//! directly.
//!
//! Two allocations are involved, and the caller can own both: the buffer, and the decompressor's
//! state (zlib-rs allocates about 47 KB, window included, per decompressor). An [`Inflater`] keeps
//! that state and resets it between streams, so a tool opening thousands of levels allocates it
//! once, not once per level.

use flate2::Decompress;

use super::raw::{HEADER_DECOMPRESSED_SIZE, HEADER_SIZE};
use crate::bytes::inflate::{Inflate, inflate_exact, plausible};
use crate::bytes::u64_of;
use crate::error::{Error, Result};

/// The largest inflated main block gamebin accepts (the largest real one is 2.45 MB).
pub const MAX_MAIN_BLOCK: usize = 64 << 20;

/// The most deflate can expand its input (about 1032:1), with room for a stream's fixed overhead:
/// a declared length beyond it cannot be honest, so it is refused before anything is allocated.
pub const MAX_INFLATE_RATIO: usize = crate::bytes::inflate::MAX_INFLATE_RATIO;

const WHAT: &str = "WwdHeader.main_block(zlib)";

/// A zlib decompressor kept across levels.
///
/// Creating one allocates nothing; the first compressed level it inflates allocates its state
/// (one allocation, about 47 KB), which later levels reuse after a reset (no allocation). Make one
/// per thread and pass it to [`WwdView::from_bytes_with`](super::WwdView::from_bytes_with) for
/// every level:
///
/// ```
/// # #[cfg(feature = "write")]
/// # fn main() -> Result<(), gamebin::Error> {
/// # let files = [gamebin::synth::wwd::example_file(), gamebin::synth::wwd::example_file()];
/// use gamebin::wwd::{Inflater, Options, WwdView};
///
/// let (mut inflated, mut inflater) = (Vec::new(), Inflater::new());
/// for data in &files {
///     let level = WwdView::from_bytes_with(data, &mut inflated, &mut inflater, Options::default())?;
///     println!("{} planes", level.plane_count());
/// }
/// # Ok(())
/// # }
/// # #[cfg(not(feature = "write"))]
/// # fn main() {}
/// ```
#[derive(Debug, Default)]
pub struct Inflater {
    state: Option<Decompress>,
}

impl Inflater {
    /// An inflater with no state yet (allocates nothing).
    pub const fn new() -> Inflater {
        Inflater { state: None }
    }

    /// Whether the decompressor's state has been allocated (by a first compressed level).
    pub const fn is_warm(&self) -> bool {
        self.state.is_some()
    }

    /// The decompressor, fresh for a new zlib stream.
    fn fresh(&mut self) -> &mut Decompress {
        match &mut self.state {
            Some(z) => {
                z.reset(true);
                z
            }
            none => none.insert(Decompress::new(true)),
        }
    }
}

/// Inflates `stored` (the bytes after the header) into `buffer` as `header ‖ inflated`, checking
/// that the stream inflates to exactly `declared` bytes, and returns the stream's stored length
/// (the bytes after it are checked by the caller: WapMap appends a block there).
///
/// `buffer` grows (one allocation) only when its capacity is too small. Its old contents are not
/// cleared: a sound stream overwrites every byte after the header, so only bytes the buffer never
/// held are zeroed (by the allocator, for a new buffer), and a reused buffer costs nothing to
/// prepare. (flate2's `decompress_vec` would avoid zeroing in principle, but with the zlib-rs
/// backend it zeroes the whole spare capacity first, on every call.)
pub(crate) fn inflate_into(
    header: &[u8],
    stored: &[u8],
    declared: u32,
    buffer: &mut Vec<u8>,
    inflater: &mut Inflater,
) -> Result<usize> {
    let declared_len = declared as usize;
    let field = u64_of(HEADER_DECOMPRESSED_SIZE);
    if declared_len == 0 {
        return Err(Error::invalid(
            field,
            "WwdHeader.decompressed_mainblock_size",
            0,
            "a compressed level must declare its inflated main block's length",
        ));
    }
    if declared_len > MAX_MAIN_BLOCK {
        return Err(Error::invalid(
            field,
            "WwdHeader.decompressed_mainblock_size",
            u64::from(declared),
            "larger than the 64 MiB cap on an inflated main block",
        ));
    }
    if !plausible(stored.len(), declared_len) {
        return Err(Error::invalid(
            field,
            "WwdHeader.decompressed_mainblock_size",
            u64::from(declared),
            "more than the stored zlib stream can inflate to (truncated file?)",
        ));
    }
    prepare(buffer, header, HEADER_SIZE + declared_len);
    let out = buffer.get_mut(HEADER_SIZE..).unwrap_or(&mut []);
    let at = |input: u64| u64_of(HEADER_SIZE).saturating_add(input);
    // What follows the stream (nothing, or WapMap's metadata block) is the caller's to judge.
    inflate_exact(inflater.fresh(), stored, out).map_err(|e| match e {
        Inflate::Corrupt { input, produced } => {
            Error::invalid(at(input), WHAT, produced, "the zlib stream is corrupt")
        }
        Inflate::EndsEarly { input, produced } => Error::invalid(
            at(input),
            WHAT,
            produced,
            "the zlib stream ends early: it inflates to fewer bytes than decompressed_mainblock_size (truncated file?)",
        ),
        Inflate::Short { input, produced } => Error::invalid(
            at(input),
            WHAT,
            produced,
            "the zlib stream inflates to fewer bytes than decompressed_mainblock_size",
        ),
        Inflate::Long => Error::invalid(
            field,
            "WwdHeader.decompressed_mainblock_size",
            u64::from(declared),
            "the zlib stream inflates to more bytes than declared",
        ),
        Inflate::NoEnd { input, produced } => Error::invalid(
            at(input),
            WHAT,
            produced,
            "the zlib stream does not end (truncated file?)",
        ),
    })
}

/// Makes `buffer` exactly `total` bytes long, starting with `header`. A buffer too small is
/// replaced by a new zeroed one (one allocation, through the allocator's zeroed path, which for
/// large sizes usually maps pages that are already zero instead of writing them); a large enough
/// one keeps its bytes, and only those beyond its old length are zeroed.
fn prepare(buffer: &mut Vec<u8>, header: &[u8], total: usize) {
    if buffer.capacity() < total {
        *buffer = vec![0; total];
    } else {
        buffer.resize(total, 0);
    }
    if let Some(head) = buffer.get_mut(..header.len()) {
        head.copy_from_slice(header);
    }
}

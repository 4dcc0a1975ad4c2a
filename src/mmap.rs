//! [`MappedFile`]: the one owner of a file mapping, and the crate's only mapping `unsafe`.
//!
//! Views borrow from a `MappedFile` (through [`MappedFile::bytes`]) and so cannot outlive it.
//! [`MappedFile::open`] maps the file; [`MappedFile::read`] reads it into memory instead, for
//! files another process may change (see the contract on [`MappedFile::open`]).
#![allow(unsafe_code)]

use std::fs::File;
use std::io::{self, Read};
use std::ops::Deref;
use std::path::Path;

/// The bytes of a whole file: a read-only memory mapping ([`MappedFile::open`]) or a copy read into
/// memory ([`MappedFile::read`]); both are used the same way, through [`MappedFile::bytes`].
///
/// `Debug` shows the length, whether the bytes are mapped or read into memory, and the first
/// [`DEBUG_HEAD`](crate::bytes::DEBUG_HEAD) bytes, as [`Bytes`](crate::bytes::Bytes) does: a
/// derived `Debug` printed every byte of a file read into memory.
pub struct MappedFile {
    data: Data,
}

enum Data {
    // An empty file cannot be mapped on every platform; it is represented by no mapping.
    Empty,
    Mapped(memmap2::Mmap),
    Owned(Vec<u8>),
}

impl MappedFile {
    /// Maps the file at `path` read-only.
    ///
    /// # Contract: nobody changes the file while it is mapped
    ///
    /// A mapping shows the file itself, not a copy. If another process (or this one) truncates
    /// the file while it is mapped, reading the lost part kills the process with `SIGBUS` (on
    /// Unix; an access violation on Windows) — there is no error to catch. If another process
    /// writes to the file, the bytes behind a `&[u8]` change while it is borrowed. Rust cannot
    /// exclude either (memmap2 makes its mapping call `unsafe` for this reason); this function is
    /// safe only if you make sure the file is not truncated, written to or replaced in place for
    /// as long as the returned value lives (files written once and then only read, such as
    /// installed game data, are the usual case).
    ///
    /// When that cannot be ensured (a file being downloaded, patched or edited), use
    /// [`MappedFile::read`], which copies the file into memory, or read the bytes yourself and use
    /// the views' `from_bytes` constructors.
    pub fn open(path: impl AsRef<Path>) -> io::Result<Self> {
        let file = File::open(path)?;
        Self::from_file(&file)
    }

    /// Maps an open file read-only. The contract of [`MappedFile::open`] applies: the file must
    /// not be truncated or modified while it is mapped.
    pub fn from_file(file: &File) -> io::Result<Self> {
        if file.metadata()?.len() == 0 {
            return Ok(MappedFile { data: Data::Empty });
        }
        // SAFETY: the mapping is read-only and owned by this value; every view borrows from it, so
        // none outlives it. The remaining hazard, the file being truncated or modified while it is
        // mapped, cannot be excluded by Rust; it is the contract stated on `open` and `from_file`,
        // where the caller sees it, with `read` as the alternative that does not map.
        let map = unsafe { memmap2::Mmap::map(file)? };
        Ok(MappedFile {
            data: Data::Mapped(map),
        })
    }

    /// Reads the file at `path` into memory: no mapping, so no contract — another process
    /// truncating or writing to the file afterwards cannot affect the bytes read. Costs the
    /// file's size in memory and the time to read it.
    ///
    /// ```
    /// use gamebin::MappedFile;
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = std::env::temp_dir().join(format!("gamebin-doc-read-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// # let path = dir.join("not-game-data.bin");
    /// # std::fs::write(&path, b"plain text, no game format")?;
    /// // Read (not mapped): safe whatever happens to the file afterwards.
    /// let file = MappedFile::read(&path)?;
    /// assert!(!file.is_mapped());
    /// assert_eq!(file.bytes(), b"plain text, no game format");
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok(())
    /// # }
    /// ```
    pub fn read(path: impl AsRef<Path>) -> io::Result<Self> {
        Ok(Self::from_vec(std::fs::read(path)?))
    }

    /// Reads everything from `reader` (standard input, a pipe, a socket) into memory.
    pub fn read_from(mut reader: impl Read) -> io::Result<Self> {
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes)?;
        Ok(Self::from_vec(bytes))
    }

    /// Bytes already in memory.
    pub fn from_vec(bytes: Vec<u8>) -> Self {
        MappedFile {
            data: Data::Owned(bytes),
        }
    }

    /// Whether the bytes are a mapping of the file (`false` for an empty file and for bytes read
    /// into memory).
    pub fn is_mapped(&self) -> bool {
        matches!(self.data, Data::Mapped(_))
    }

    /// The file's bytes.
    pub fn bytes(&self) -> &[u8] {
        match &self.data {
            Data::Empty => &[],
            Data::Mapped(map) => map,
            Data::Owned(bytes) => bytes,
        }
    }
}

impl core::fmt::Debug for MappedFile {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let bytes = self.bytes();
        let head = bytes.get(..crate::bytes::DEBUG_HEAD).unwrap_or(bytes);
        f.debug_struct("MappedFile")
            .field("len", &bytes.len())
            .field("mapped", &self.is_mapped())
            .field("head", &format_args!("{head:02x?}"))
            .finish()
    }
}

impl Deref for MappedFile {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.bytes()
    }
}

impl AsRef<[u8]> for MappedFile {
    fn as_ref(&self) -> &[u8] {
        self.bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_files_and_empty_files() {
        let dir = std::env::temp_dir().join(format!("gamebin-mmap-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let full = dir.join("full");
        let empty = dir.join("empty");
        std::fs::write(&full, b"ENCD1234").unwrap();
        std::fs::write(&empty, b"").unwrap();
        let mapped = MappedFile::open(&full).unwrap();
        assert_eq!(mapped.bytes(), b"ENCD1234");
        assert!(mapped.is_mapped());
        assert!(MappedFile::open(&empty).unwrap().is_empty());
        assert!(MappedFile::open(dir.join("missing")).is_err());

        let read = MappedFile::read(&full).unwrap();
        assert_eq!(read.bytes(), b"ENCD1234");
        assert!(!read.is_mapped());
        // Read bytes are a copy: truncating the file afterwards does not touch them.
        std::fs::write(&full, b"").unwrap();
        assert_eq!(read.bytes(), b"ENCD1234");
        assert!(MappedFile::read(&empty).unwrap().is_empty());
        assert!(MappedFile::read(dir.join("missing")).is_err());
        assert_eq!(MappedFile::read_from(&b"abc"[..]).unwrap().bytes(), b"abc");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn debug_shows_the_length_and_the_first_bytes_only() {
        // 1 MB read into memory: a derived Debug printed every byte (about 5 MB of text).
        let mut bytes = vec![0xabu8; 1 << 20];
        bytes[..4].copy_from_slice(b"ENCD");
        let owned = MappedFile::from_vec(bytes);
        let text = format!("{owned:?}");
        assert!(text.len() < 200, "{} characters: {text}", text.len());
        assert!(text.contains("len: 1048576"), "{text}");
        assert!(text.contains("mapped: false"), "{text}");
        // The head is the first DEBUG_HEAD bytes: "ENCD" then 0xab.
        assert!(text.contains("[45, 4e, 43, 44, ab"), "{text}");
        assert_eq!(
            text.matches("ab").count(),
            crate::bytes::DEBUG_HEAD - 4,
            "{text}"
        );
        assert_eq!(
            format!("{:?}", MappedFile::from_vec(Vec::new())),
            "MappedFile { len: 0, mapped: false, head: [] }"
        );
    }
}

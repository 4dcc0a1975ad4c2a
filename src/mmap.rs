//! [`MappedFile`]: the one owner of a file mapping, and the crate's only mapping `unsafe`.
//!
//! Views borrow from a `MappedFile` (through [`MappedFile::bytes`]) and so cannot outlive it.
//!
//! **The file must not be modified, truncated or replaced in place while it is mapped.** The
//! operating system gives no protection against another process writing to a mapped file; if that
//! happens, reads through the mapping may see changing bytes or fault (SIGBUS on truncation). For
//! files that may change under you, read them into memory and use the views' `from_bytes`
//! constructors instead.
#![allow(unsafe_code)]

use std::fs::File;
use std::io;
use std::ops::Deref;
use std::path::Path;

/// A read-only memory mapping of a whole file.
#[derive(Debug)]
pub struct MappedFile {
    // An empty file cannot be mapped on every platform; it is represented by no mapping.
    map: Option<memmap2::Mmap>,
}

impl MappedFile {
    /// Maps the file at `path` read-only.
    pub fn open(path: impl AsRef<Path>) -> io::Result<Self> {
        let file = File::open(path)?;
        Self::from_file(&file)
    }

    /// Maps an open file read-only.
    pub fn from_file(file: &File) -> io::Result<Self> {
        if file.metadata()?.len() == 0 {
            return Ok(MappedFile { map: None });
        }
        // SAFETY: the mapping is read-only and owned by this value; every view borrows from it, so
        // none outlives it. The remaining hazard, another process modifying the file while it is
        // mapped, cannot be excluded by Rust; it is documented on this type and on every `open`.
        let map = unsafe { memmap2::Mmap::map(file)? };
        Ok(MappedFile { map: Some(map) })
    }

    /// The mapped bytes.
    pub fn bytes(&self) -> &[u8] {
        self.map.as_deref().unwrap_or(&[])
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
        assert_eq!(MappedFile::open(&full).unwrap().bytes(), b"ENCD1234");
        assert!(MappedFile::open(&empty).unwrap().is_empty());
        assert!(MappedFile::open(dir.join("missing")).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

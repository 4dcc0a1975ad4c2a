//! The writer of PFS indexes and volumes: files in, one `.idx` and its `.pkg` volumes out, in
//! either layout, deterministic. It makes the fixtures and synthetic installs; a tool repacking
//! files from another archive can hand it blobs already compressed ([`PfsWriter::add_blob`]).

use std::collections::{HashMap, HashSet};

use flate2::{Compress, FlushCompress, Status};

use super::entry::Compression;
use super::path::{ROOT_PARENT_ID, segments};
use super::{IdxLayout, MAGIC, raw};
use crate::hash::{city_hash_64, murmur3_32};
use crate::write_error::{WriteError, WriteResult};
use zerocopy::IntoBytes;

/// An index and its volumes, as bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Archive {
    /// The `.idx` file.
    pub idx: Vec<u8>,
    /// Each `.pkg` volume: its file name and bytes.
    pub volumes: Vec<(String, Vec<u8>)>,
}

/// One name record to write: a directory or a file.
#[derive(Debug)]
struct NameOut {
    name: String,
    id: u64,
    parent_id: u64,
}

/// One file record to write.
#[derive(Debug)]
struct FileOut {
    id: u64,
    volume: usize,
    offset: u64,
    compression: Compression,
    size: u32,
    crc32: u32,
    unpacked_size: u32,
}

/// One file record as it is written: its volume by id.
#[derive(Debug, Clone, Copy)]
pub(super) struct RecordOut {
    pub id: u64,
    pub volume_id: u64,
    pub offset: u64,
    pub method: u32,
    pub flag: u32,
    pub size: u32,
    pub crc32: u32,
    pub unpacked_size: u32,
}

/// One name record as it is written.
#[derive(Debug, Clone, Copy)]
pub(super) struct NameRecordOut<'n> {
    pub name: &'n str,
    pub id: u64,
    pub parent_id: u64,
}

/// Builds one index and its volumes.
///
/// Names are written in the order they are first met (a file's directories before it), each
/// directory once; the string pool follows the name table in the same order, the file table
/// follows the pool (unaligned, as in real indexes), and the volume table comes last with each
/// volume's name after the table. Each blob in a volume is followed by its 16-byte trailer.
#[derive(Debug)]
pub struct PfsWriter {
    layout: IdxLayout,
    names: Vec<NameOut>,
    name_ids: HashMap<u64, usize>,
    files: Vec<FileOut>,
    file_ids: HashSet<u64>,
    volumes: Vec<(String, Vec<u8>)>,
    level: flate2::Compression,
    /// The compressor, kept across files (its state is some hundred kilobytes).
    compressor: Option<Compress>,
}

impl PfsWriter {
    /// A writer of the current layout whose files go to one volume named `volume` (add more with
    /// [`PfsWriter::add_volume`]).
    pub fn new(volume: &str) -> PfsWriter {
        PfsWriter {
            layout: IdxLayout::Current,
            names: Vec::new(),
            name_ids: HashMap::new(),
            files: Vec::new(),
            file_ids: HashSet::new(),
            volumes: vec![(volume.to_owned(), Vec::new())],
            level: flate2::Compression::default(),
            compressor: None,
        }
    }

    /// Writes `layout` instead of the current one.
    pub fn with_layout(mut self, layout: IdxLayout) -> PfsWriter {
        self.layout = layout;
        self
    }

    /// Deflates at `level` (0–9) instead of zlib's default.
    pub fn with_level(mut self, level: u32) -> PfsWriter {
        self.level = flate2::Compression::new(level.min(9));
        self.compressor = None;
        self
    }

    /// Adds a volume named `name`; later files go to it. Returns its index.
    pub fn add_volume(&mut self, name: &str) -> usize {
        self.volumes.push((name.to_owned(), Vec::new()));
        self.volumes.len() - 1
    }

    /// Adds the file `path` (relative to `res/`) with `data`, stored or deflated, to the last
    /// volume added.
    pub fn add(&mut self, path: &str, data: &[u8], compression: Compression) -> WriteResult<()> {
        let (blob, compression) = match compression {
            Compression::Stored => (data.to_vec(), Compression::Stored),
            Compression::Deflate => {
                let z = self
                    .compressor
                    .get_or_insert_with(|| Compress::new(self.level, false));
                z.reset();
                (deflate(z, data)?, Compression::Deflate)
            }
            other => {
                return Err(WriteError::invalid(
                    "FileRecord.compression",
                    u64::from(other.words().0),
                    "the writer stores or deflates; give other blobs with add_blob",
                )
                .in_field(path));
            }
        };
        let unpacked =
            u32_of(data.len(), "FileRecord.unpackedSize").map_err(|e| e.in_field(path))?;
        self.add_blob(path, &blob, compression, crc32fast::hash(data), unpacked)
    }

    /// Adds the file `path` from a blob already in its stored form (`compression`, with the CRC-32
    /// and size of its unpacked bytes), to the last volume added. Nothing is checked against the
    /// blob: this is how a file is moved from one archive to another without inflating it.
    pub fn add_blob(
        &mut self,
        path: &str,
        blob: &[u8],
        compression: Compression,
        crc32: u32,
        unpacked_size: u32,
    ) -> WriteResult<()> {
        let id = self.add_names(path)?;
        if !self.file_ids.insert(id) {
            return Err(WriteError::invalid(
                "FileRecord.id",
                id,
                "the index already holds a file at this path",
            )
            .in_field(path));
        }
        let volume = self.volumes.len() - 1;
        let pkg = &mut self.volumes[volume].1;
        let offset = pkg.len() as u64;
        let size = u32_of(blob.len(), "FileRecord.size").map_err(|e| e.in_field(path))?;
        pkg.extend_from_slice(blob);
        let trailer = raw::BlobTrailer {
            reserved0: 0.into(),
            crc32: crc32.into(),
            unpacked_size: unpacked_size.into(),
            reserved1: 0.into(),
        };
        pkg.extend_from_slice(trailer.as_bytes());
        self.files.push(FileOut {
            id,
            volume,
            offset,
            compression,
            size,
            crc32,
            unpacked_size,
        });
        Ok(())
    }

    /// Adds the name records of `path` and its directories not yet added; returns the file's id.
    fn add_names(&mut self, path: &str) -> WriteResult<u64> {
        let mut full = String::with_capacity(path.len());
        let mut parent_id = ROOT_PARENT_ID;
        let mut last = None;
        for segment in segments(path) {
            if !full.is_empty() {
                full.push('/');
            }
            full.push_str(segment);
            let id = city_hash_64(full.as_bytes());
            if let Some(&i) = self.name_ids.get(&id) {
                if self.names[i].parent_id != parent_id || self.names[i].name != segment {
                    return Err(WriteError::invalid(
                        "NameRecord.id",
                        id,
                        "two paths of the archive have the same CityHash64",
                    )
                    .in_field(path));
                }
            } else {
                self.name_ids.insert(id, self.names.len());
                self.names.push(NameOut {
                    name: segment.to_owned(),
                    id,
                    parent_id,
                });
            }
            if self.file_ids.contains(&parent_id) {
                return Err(WriteError::invalid(
                    "NameRecord.parentId",
                    parent_id,
                    "a directory of the path is a file of the archive",
                )
                .in_field(path));
            }
            parent_id = id;
            last = Some(id);
        }
        last.ok_or_else(|| {
            WriteError::invalid("NameRecord.name", 0, "an empty path").in_field(path)
        })
    }

    /// The index and its volumes.
    pub fn finish(self) -> WriteResult<Archive> {
        let volume_ids: Vec<u64> = self
            .volumes
            .iter()
            .map(|(name, _)| city_hash_64(name.as_bytes()))
            .collect();
        let names: Vec<NameRecordOut<'_>> = self
            .names
            .iter()
            .map(|n| NameRecordOut {
                name: &n.name,
                id: n.id,
                parent_id: n.parent_id,
            })
            .collect();
        let files: Vec<RecordOut> = self
            .files
            .iter()
            .map(|f| {
                let (method, flag) = f.compression.words();
                RecordOut {
                    id: f.id,
                    volume_id: volume_ids[f.volume],
                    offset: f.offset,
                    method,
                    flag,
                    size: f.size,
                    crc32: f.crc32,
                    unpacked_size: f.unpacked_size,
                }
            })
            .collect();
        let volumes: Vec<(&str, u64)> = self
            .volumes
            .iter()
            .zip(&volume_ids)
            .map(|((name, _), &id)| (name.as_str(), id))
            .collect();
        let idx = write_idx(self.layout, &names, &files, &volumes)?;
        Ok(Archive {
            idx,
            volumes: self.volumes,
        })
    }
}

/// An index of `layout` holding these records, in this order; the checksum computed.
pub(super) fn write_idx(
    layout: IdxLayout,
    names: &[NameRecordOut<'_>],
    files: &[RecordOut],
    volumes: &[(&str, u64)],
) -> WriteResult<Vec<u8>> {
    match layout {
        IdxLayout::Current => current_idx(names, files, volumes),
        IdxLayout::Legacy => legacy_idx(names, files, volumes),
    }
}

fn current_idx(
    names: &[NameRecordOut<'_>],
    files: &[RecordOut],
    volumes: &[(&str, u64)],
) -> WriteResult<Vec<u8>> {
    const LAYOUT: IdxLayout = IdxLayout::Current;
    const NAMES_AT: usize = 0x38;
    let pool_at = NAMES_AT + names.len() * size_of::<raw::NameRecord>();
    let pool_len: usize = names.iter().map(|n| n.name.len() + 1).sum();
    let files_at = pool_at + pool_len;
    let volumes_at = files_at + files.len() * size_of::<raw::FileRecord>();
    let volume_names_at = volumes_at + volumes.len() * size_of::<raw::VolumeRecord>();

    let mut out = header(LAYOUT);
    let table = raw::TableHeader {
        name_count: count(names.len(), "IdxTableHeader.nameCount")?.into(),
        file_count: count(files.len(), "IdxTableHeader.fileCount")?.into(),
        volume_count: count(volumes.len(), "IdxTableHeader.volumeCount")?.into(),
        reserved: 0.into(),
        names_ptr: ((NAMES_AT - 0x10) as u64).into(),
        files_ptr: ((files_at - 0x10) as u64).into(),
        volumes_ptr: ((volumes_at - 0x10) as u64).into(),
    };
    out.extend_from_slice(table.as_bytes());
    let mut name_at = pool_at;
    for (i, name) in names.iter().enumerate() {
        let record_at = NAMES_AT + i * size_of::<raw::NameRecord>();
        let record = raw::NameRecord {
            name_len: ((name.name.len() + 1) as u64).into(),
            name_ptr: ((name_at - record_at) as u64).into(),
            id: name.id.into(),
            parent_id: name.parent_id.into(),
        };
        out.extend_from_slice(record.as_bytes());
        name_at += name.name.len() + 1;
    }
    pool(&mut out, names.iter().map(|n| n.name));
    for file in files {
        let (method, flag) = (file.method, file.flag);
        let record = raw::FileRecord {
            id: file.id.into(),
            volume_id: file.volume_id.into(),
            offset: file.offset.into(),
            compression: method.into(),
            compression_flag: flag.into(),
            size: file.size.into(),
            crc32: file.crc32.into(),
            unpacked_size: file.unpacked_size.into(),
            reserved: 0.into(),
        };
        out.extend_from_slice(record.as_bytes());
    }
    let mut name_at = volume_names_at;
    for (i, &(name, volume_id)) in volumes.iter().enumerate() {
        let record_at = volumes_at + i * size_of::<raw::VolumeRecord>();
        let record = raw::VolumeRecord {
            name_len: ((name.len() + 1) as u64).into(),
            name_ptr: ((name_at - record_at) as u64).into(),
            id: volume_id.into(),
        };
        out.extend_from_slice(record.as_bytes());
        name_at += name.len() + 1;
    }
    pool(&mut out, volumes.iter().map(|&(n, _)| n));
    seal(&mut out);
    Ok(out)
}

fn legacy_idx(
    names: &[NameRecordOut<'_>],
    files: &[RecordOut],
    volumes: &[(&str, u64)],
) -> WriteResult<Vec<u8>> {
    const LAYOUT: IdxLayout = IdxLayout::Legacy;
    const NAMES_AT: usize = 0x28;
    let pool_at = NAMES_AT + names.len() * size_of::<raw::LegacyNameRecord>();
    let pool_len: usize = names.iter().map(|n| n.name.len() + 1).sum();
    let files_at = pool_at + pool_len;
    let volumes_at = files_at + files.len() * size_of::<raw::LegacyFileRecord>();
    let volume_names_at = volumes_at + volumes.len() * size_of::<raw::LegacyVolumeRecord>();
    let pointer = |at: usize, what| u32_of(at - 0x10, what);

    let mut out = header(LAYOUT);
    let table = raw::LegacyTableHeader {
        name_count: count(names.len(), "IdxTableHeader.nameCount")?.into(),
        names_ptr: pointer(NAMES_AT, "IdxTableHeader.namesPtr")?.into(),
        file_count: count(files.len(), "IdxTableHeader.fileCount")?.into(),
        files_ptr: pointer(files_at, "IdxTableHeader.filesPtr")?.into(),
        volume_count: count(volumes.len(), "IdxTableHeader.volumeCount")?.into(),
        volumes_ptr: pointer(volumes_at, "IdxTableHeader.volumesPtr")?.into(),
    };
    out.extend_from_slice(table.as_bytes());
    let mut name_at = pool_at;
    for (i, name) in names.iter().enumerate() {
        let field_at = NAMES_AT + i * size_of::<raw::LegacyNameRecord>() + 16;
        let record = raw::LegacyNameRecord {
            id: name.id.into(),
            parent_id: name.parent_id.into(),
            name_len: u32_of(name.name.len() + 1, "NameRecord.nameLen")?.into(),
            name_ptr: u32_of(name_at - field_at, "NameRecord.namePtr")?.into(),
        };
        out.extend_from_slice(record.as_bytes());
        name_at += name.name.len() + 1;
    }
    pool(&mut out, names.iter().map(|n| n.name));
    for file in files {
        let (method, flag) = (file.method, file.flag);
        let record = raw::LegacyFileRecord {
            offset: file.offset.into(),
            reserved: 0.into(),
            size: file.size.into(),
            crc32: file.crc32.into(),
            unpacked_size: file.unpacked_size.into(),
            compression: (u64::from(method) | u64::from(flag) << 32).into(),
            id: file.id.into(),
            volume_id: file.volume_id.into(),
        };
        out.extend_from_slice(record.as_bytes());
    }
    let mut name_at = volume_names_at;
    for (i, &(name, volume_id)) in volumes.iter().enumerate() {
        let field_at = volumes_at + i * size_of::<raw::LegacyVolumeRecord>() + 8;
        let record = raw::LegacyVolumeRecord {
            id: volume_id.into(),
            name_len: u32_of(name.len() + 1, "VolumeRecord.nameLen")?.into(),
            name_ptr: u32_of(name_at - field_at, "VolumeRecord.namePtr")?.into(),
        };
        out.extend_from_slice(record.as_bytes());
        name_at += name.len() + 1;
    }
    pool(&mut out, volumes.iter().map(|&(n, _)| n));
    seal(&mut out);
    Ok(out)
}

/// The file header with the checksum still 0 ([`seal`] fills it).
fn header(layout: IdxLayout) -> Vec<u8> {
    let (version, pointer_size) = layout.version_and_pointer_size();
    let header = raw::Header {
        magic: MAGIC.into(),
        version: version.into(),
        checksum: 0.into(),
        architecture: pointer_size.into(),
        endianness: 0.into(),
    };
    header.as_bytes().to_vec()
}

/// Each name followed by its NUL.
fn pool<'n>(out: &mut Vec<u8>, names: impl Iterator<Item = &'n str>) {
    for name in names {
        out.extend_from_slice(name.as_bytes());
        out.push(0);
    }
}

/// Stores the checksum of everything after the header.
fn seal(out: &mut [u8]) {
    let checksum = murmur3_32(out.get(0x10..).unwrap_or(&[]), 0);
    if let Some(field) = out.get_mut(8..12) {
        field.copy_from_slice(&checksum.to_le_bytes());
    }
}

fn u32_of(n: usize, field: &'static str) -> WriteResult<u32> {
    u32::try_from(n).map_err(|_| WriteError::invalid(field, n as u64, "does not fit in 32 bits"))
}

fn count(n: usize, field: &'static str) -> WriteResult<u32> {
    u32_of(n, field)
}

/// `data` as raw deflate (no zlib header), with `z` fresh.
fn deflate(z: &mut Compress, data: &[u8]) -> WriteResult<Vec<u8>> {
    let mut out = Vec::with_capacity(data.len() / 2 + 64);
    loop {
        let input = data.get(z.total_in() as usize..).unwrap_or(&[]);
        if out.len() == out.capacity() {
            out.reserve(out.capacity().max(64));
        }
        let status = z
            .compress_vec(input, &mut out, FlushCompress::Finish)
            .map_err(|_| {
                WriteError::invalid("PkgBlob(deflate)", data.len() as u64, "deflate failed")
            })?;
        if status == Status::StreamEnd {
            return Ok(out);
        }
    }
}

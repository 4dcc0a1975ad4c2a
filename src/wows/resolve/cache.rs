//! [`GeometryCache`]: the `.geometry` files of a batch, each opened (read if small, mapped if
//! large) and decoded once, owned by the caller.

use std::collections::hash_map::{self, HashMap};

use super::error::{Missing, ResolveError};
use super::resolver::{ModelResolver, ResolvedModel, ResolvedRenderSet};
use crate::mmap::MappedFile;
use crate::wows::geometry::{DecodedGeometry, DrawData, GeometryView};

/// Where a cached file's bytes live.
#[derive(Debug)]
enum Storage {
    /// A file under the root: read into memory when small, mapped when large ([`open_geometry`]).
    File(MappedFile),
    /// Bytes handed to [`GeometryCache::insert`].
    Owned(Vec<u8>),
}

impl Storage {
    fn bytes(&self) -> &[u8] {
        match self {
            Storage::File(file) => file.bytes(),
            Storage::Owned(bytes) => bytes,
        }
    }
}

#[derive(Debug)]
struct Entry {
    /// Full path under the root (`content/…`).
    path: String,
    storage: Storage,
    decoded: DecodedGeometry,
}

/// The `.geometry` files models use, keyed by path id: each is opened once and its merged
/// buffers decoded once into a [`DecodedGeometry`]. Exporting a thousand models that share a
/// hundred files opens and decodes a hundred files. A file under 1 MiB (nearly every
/// `.geometry`) is read into memory: unmapping in a multi-threaded process interrupts every
/// other core running it to flush its TLB, and a batch over thousands of small files on several
/// threads would spend its time there. A larger file is mapped read-only (see [`MappedFile`] for
/// the contract: it must not change while mapped), where a copy would cost more than the mapping.
/// Owned by the caller; [`clear`](Self::clear) frees (or unmaps) everything.
#[derive(Debug, Default)]
pub struct GeometryCache {
    files: HashMap<u64, Entry>,
    loader: Loader,
}

/// What finding and reading a file needs, kept across files (apart from the files held, so that
/// a file is opened while its slot in the map is borrowed).
#[derive(Debug, Default)]
struct Loader {
    /// Scratch space for full paths.
    path: String,
    /// The decompressor of files read out of an install, kept across them.
    #[cfg(feature = "pfs")]
    reader: crate::wows::pfs::BlobReader,
}

/// A cached `.geometry`: its view, its decoded buffers and its path.
#[derive(Debug, Clone, Copy)]
pub struct LoadedGeometry<'c> {
    path: &'c str,
    view: GeometryView<'c>,
    decoded: &'c DecodedGeometry,
}

impl GeometryCache {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of files held.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether no file is held.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// Drops every file (freeing the bytes read, unmapping the files mapped) and its decoded
    /// buffers.
    pub fn clear(&mut self) {
        self.files.clear();
    }

    /// Holds `bytes` as the `.geometry` of path id `path_id` (named `path` in errors), instead of
    /// a file under the root: for files already in memory, tests and fuzzing. Fails, holding
    /// nothing, when the header does not read.
    pub fn insert(
        &mut self,
        path_id: u64,
        path: &str,
        bytes: Vec<u8>,
    ) -> Result<LoadedGeometry<'_>, crate::Error> {
        let mut decoded = DecodedGeometry::new();
        decoded.decode(&GeometryView::from_bytes(&bytes)?);
        let entry = Entry {
            path: path.to_owned(),
            storage: Storage::Owned(bytes),
            decoded,
        };
        loaded(self.files.entry(path_id).insert_entry(entry).into_mut())
    }

    /// The `.geometry` of `model`: from the cache, or found (path id → full path in the path tree
    /// → file under the resolver's root), read (under 1 MiB) or mapped, decoded, then kept. A
    /// file that cannot be found or read is not kept, and the error names the model, the path and
    /// why.
    pub fn load(
        &mut self,
        resolver: &ModelResolver<'_>,
        model: &ResolvedModel<'_>,
    ) -> Result<LoadedGeometry<'_>, ResolveError> {
        let id = model.geometry_path_id();
        let entry = match self.files.entry(id) {
            hash_map::Entry::Occupied(held) => held.into_mut(),
            hash_map::Entry::Vacant(slot) => slot.insert(self.loader.open(resolver, model, id)?),
        };
        let entry: &Entry = entry;
        loaded(entry).map_err(|error| {
            model.error(
                None,
                Missing::GeometryRead {
                    path: entry.path.clone(),
                    error,
                },
            )
        })
    }
}

impl Loader {
    fn open(
        &mut self,
        resolver: &ModelResolver<'_>,
        model: &ResolvedModel<'_>,
        id: u64,
    ) -> Result<Entry, ResolveError> {
        let fail = |missing| model.error(None, missing);
        match resolver.full_path(id, &mut self.path) {
            Ok(true) => {}
            Ok(false) => return Err(fail(Missing::GeometryPath { id })),
            Err(e) => return Err(fail(Missing::Assets(e))),
        }
        let path = self.path.as_str();
        if !crate::wows::is_safe_resource_path(path) {
            return Err(fail(Missing::UnsafePath {
                path: path.to_owned(),
            }));
        }
        #[cfg(feature = "pfs")]
        let in_install = resolver.install();
        #[cfg(not(feature = "pfs"))]
        let in_install: Option<std::convert::Infallible> = None;
        let storage = match in_install {
            #[cfg(feature = "pfs")]
            Some(install) => {
                Storage::Owned(read_from_install(install, path, &mut self.reader).map_err(
                    |(reason, volume)| {
                        fail(Missing::InstallFile {
                            path: path.to_owned(),
                            reason,
                            volume,
                        })
                    },
                )?)
            }
            #[cfg(not(feature = "pfs"))]
            Some(never) => match never {},
            None => Storage::File(open_geometry(&resolver.root().join(path)).map_err(|e| {
                fail(Missing::GeometryModel {
                    path: path.to_owned(),
                    error: e.kind(),
                })
            })?),
        };
        let mut decoded = DecodedGeometry::new();
        match GeometryView::from_bytes(storage.bytes()) {
            Ok(view) => decoded.decode(&view),
            Err(error) => {
                return Err(fail(Missing::GeometryRead {
                    path: path.to_owned(),
                    error,
                }));
            }
        }
        Ok(Entry {
            path: path.to_owned(),
            storage,
            decoded,
        })
    }
}

/// Files smaller than this are read into memory rather than mapped. Mapping costs system calls and
/// page faults that a small read does not, and unmapping in a multi-threaded process makes the
/// kernel interrupt every other core running it (a TLB shootdown): a batch over thousands of
/// small `.geometry` files on several threads spends its time there instead of scaling.
const READ_SMALLER_THAN: u64 = 1 << 20;

/// A `.geometry` file: read when small, mapped when large.
fn open_geometry(path: &std::path::Path) -> std::io::Result<MappedFile> {
    use std::io::Read;
    let mut file = std::fs::File::open(path)?;
    let len = file.metadata()?.len();
    if len >= READ_SMALLER_THAN {
        return MappedFile::from_file(&file);
    }
    // The length is a hint: a file that grew since is read whole all the same.
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    file.read_to_end(&mut bytes)?;
    Ok(MappedFile::from_vec(bytes))
}

/// The bytes of the `.geometry` at `path` in `install` (inflated, CRC-checked), or why not.
#[cfg(feature = "pfs")]
fn read_from_install(
    install: &crate::wows::pfs::GameInstall,
    path: &str,
    reader: &mut crate::wows::pfs::BlobReader,
) -> Result<Vec<u8>, (String, Option<String>)> {
    match install.read_to_vec(path, reader) {
        Ok(Some(bytes)) => Ok(bytes),
        Ok(None) => Err(("no such file in the install".to_owned(), None)),
        Err(e) => {
            let volume = e.unread_volume();
            // The install's message starts with the path, which the model's error says already.
            let text = e.to_string();
            let reason = text.strip_prefix(path).and_then(|t| t.strip_prefix(": "));
            Err((reason.unwrap_or(&text).to_owned(), volume))
        }
    }
}

fn loaded(entry: &Entry) -> Result<LoadedGeometry<'_>, crate::Error> {
    Ok(LoadedGeometry {
        path: &entry.path,
        view: GeometryView::from_bytes(entry.storage.bytes())?,
        decoded: &entry.decoded,
    })
}

impl<'c> LoadedGeometry<'c> {
    /// The file's full path under the root (`content/…`).
    pub fn path(&self) -> &'c str {
        self.path
    }

    /// The file's view.
    pub fn view(&self) -> GeometryView<'c> {
        self.view
    }

    /// The file's decoded buffers.
    pub fn decoded(&self) -> &'c DecodedGeometry {
        self.decoded
    }

    /// A render set's vertices and indices: [`GeometryView::draw_by_ids`] with its mapping ids,
    /// then [`DecodedGeometry::draw_data`] (checked ranges, whole triangles, indices below the
    /// vertex count). Errors name the model, the render set and the missing mapping.
    pub fn draw(
        &self,
        model: &ResolvedModel<'_>,
        set: &ResolvedRenderSet<'_>,
    ) -> Result<DrawData<'c>, ResolveError> {
        let fail = |missing| model.error(Some(&set.render_set), missing);
        let geometry = || self.path.to_owned();
        let (vertices, indices) = (set.vertices_mapping_id(), set.indices_mapping_id());
        if self.view.vertex_mappings().by_id(vertices).is_none() {
            return Err(fail(Missing::VerticesMapping {
                id: vertices,
                geometry: geometry(),
            }));
        }
        let draw = self.view.draw_by_ids(vertices, indices).ok_or_else(|| {
            fail(Missing::IndicesMapping {
                id: indices,
                geometry: geometry(),
            })
        })?;
        self.decoded.draw_data(&draw).map_err(|error| {
            fail(Missing::Draw {
                geometry: geometry(),
                error,
            })
        })
    }
}

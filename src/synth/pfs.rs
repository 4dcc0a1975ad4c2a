//! Synthetic installs: PFS indexes and volumes made by the writer, laid out as a game folder
//! (`bin/<build>/idx/*.idx`, `res_packages/*.pkg`).
//!
//! [`synth_install`] puts a model world (its `assets.bin` as `content/assets.bin`, deflated, and
//! every `.geometry` its visuals name) into indexes, and fills them with small files up to an
//! install's shape: at [`Scale::Full`] 228 indexes and about 421,000 names (directories and
//! files), as a real build has; the directories under `content/` repeat across indexes, as real
//! ones do.

use std::path::Path;

use super::assets_scale::Scale;
use crate::wows::pfs::{Archive, Compression, PfsWriter};
use crate::write_error::WriteResult;

/// The build number of the synthetic installs' `bin/` folder.
pub const BUILD: &str = "1000001";

/// An install: its indexes and volumes, each by file name.
#[derive(Debug, Clone, Default)]
pub struct SynthInstall {
    /// The `.idx` files.
    pub indexes: Vec<(String, Vec<u8>)>,
    /// The `.pkg` files.
    pub volumes: Vec<(String, Vec<u8>)>,
    /// The textures the world's materials name, all in the install ([`synth_install`]).
    pub textures: usize,
    /// The files that hold them (each texture's `.dds` and its tiers).
    pub texture_files: usize,
    /// Their bytes unpacked: the DDS a textured export of every texture at its largest decodes.
    pub texture_bytes: u64,
    /// Every file as it was given to the writer: (path, unpacked size, CRC-32 of the bytes), in
    /// the order added. What a test expects the indexes to say, taken from the inputs.
    pub manifest: Vec<(String, u32, u32)>,
}

impl SynthInstall {
    /// Writes the install as a game folder under `game`: `bin/<BUILD>/idx/` and `res_packages/`.
    pub fn write_to(&self, game: &Path) -> std::io::Result<()> {
        let idx = game.join("bin").join(BUILD).join("idx");
        let pkg = game.join("res_packages");
        std::fs::create_dir_all(&idx)?;
        std::fs::create_dir_all(&pkg)?;
        for (name, bytes) in &self.indexes {
            std::fs::write(idx.join(name), bytes)?;
        }
        for (name, bytes) in &self.volumes {
            std::fs::write(pkg.join(name), bytes)?;
        }
        Ok(())
    }

    fn push(&mut self, name: &str, archive: Archive) {
        self.indexes.push((format!("{name}.idx"), archive.idx));
        self.volumes.extend(archive.volumes);
    }

    /// Adds `bytes` at `path` to `writer` and to the manifest.
    fn add(
        &mut self,
        writer: &mut PfsWriter,
        path: &str,
        bytes: &[u8],
        compression: Compression,
    ) -> WriteResult<()> {
        writer.add(path, bytes, compression)?;
        self.record(path, bytes.len(), crc32fast::hash(bytes));
        Ok(())
    }

    fn record(&mut self, path: &str, size: usize, crc32: u32) {
        // The writer refuses files of 4 GB and more before this is reached.
        let size = u32::try_from(size).unwrap_or(u32::MAX);
        self.manifest.push((path.to_owned(), size, crc32));
    }
}

/// What [`synth_update`] does to the filler, folder by folder (folder `k` of every index), so
/// that a test can state the changes from the rule rather than from a tool's output:
/// - [`UPDATE_REMOVED`]: file 15 of each folder `k % 7 == 3` is gone;
/// - [`UPDATE_ADDED`]: a file 16 is new in each folder `k % 11 == 4`;
/// - [`UPDATE_SAME_SIZE`]: file 3 of each folder `k % 5 == 1` has its first byte changed (`<`
///   to `[`): the same size, so only the CRC-32 tells;
/// - [`UPDATE_RESIZED`]: file 6 of each folder `k % 13 == 2` has a byte more (a newline).
pub const UPDATE_REMOVED: (usize, usize, usize) = (7, 3, 15);
/// See [`UPDATE_REMOVED`]: (every, offset, file).
pub const UPDATE_ADDED: (usize, usize, usize) = (11, 4, 16);
/// See [`UPDATE_REMOVED`]: (every, offset, file).
pub const UPDATE_SAME_SIZE: (usize, usize, usize) = (5, 1, 3);
/// See [`UPDATE_REMOVED`]: (every, offset, file).
pub const UPDATE_RESIZED: (usize, usize, usize) = (13, 2, 6);

/// Whether `rule` ([`UPDATE_REMOVED`] and the others) touches folder `folder`.
pub const fn update_touches(rule: (usize, usize, usize), folder: usize) -> bool {
    folder % rule.0 == rule.1
}

/// (indexes, names) of an install at `scale`.
pub const fn shape(scale: Scale) -> (usize, usize) {
    match scale {
        Scale::Full => (228, 421_041),
        Scale::Small => (6, 2_000),
    }
}

/// An install of `indexes` indexes holding about `names` names, all small filler files (text
/// naming their path, every other one deflated), spread over shared directories. No model world:
/// the shape alone, for lookups and listings.
pub fn filler_install(indexes: usize, names: usize) -> WriteResult<SynthInstall> {
    filler_install_with(indexes, names, false)
}

/// [`filler_install`], with `update` as [`synth_update`] changes it.
fn filler_install_with(indexes: usize, names: usize, update: bool) -> WriteResult<SynthInstall> {
    let mut install = SynthInstall::default();
    let per_index = names.div_ceil(indexes.max(1));
    for i in 0..indexes {
        let name = format!("part_{i:03}");
        let mut writer = PfsWriter::new(&format!("{name}_0001.pkg")).with_level(1);
        for (path, bytes, compression) in filler_files(i, per_index, update) {
            install.add(&mut writer, &path, &bytes, compression)?;
        }
        install.push(&name, writer.finish()?);
    }
    Ok(install)
}

/// About `names` names of filler for index `index` of an install (with `update`, as
/// [`synth_update`] changes them: [`UPDATE_REMOVED`]): folders of 16 files, two levels under a
/// directory the indexes share. Each file: (path, bytes, compression).
pub fn filler_files(
    index: usize,
    names: usize,
    update: bool,
) -> impl Iterator<Item = (String, Vec<u8>, Compression)> {
    const SHARED: [&str; 4] = [
        "content/gameplay/common",
        "content/location/maps",
        "gui/flags",
        "spaces/shared",
    ];
    // Each folder of 16 files is 17 names (the folder itself); the shared directories above are
    // counted once per index.
    let folders = names.saturating_sub(8) / 17;
    (0..folders).flat_map(move |folder| {
        let top = SHARED[folder % SHARED.len()];
        (0..17).filter_map(move |file| {
            let rule = |rule: (usize, usize, usize)| {
                update && file == rule.2 && update_touches(rule, folder)
            };
            if (file == UPDATE_ADDED.2 && !rule(UPDATE_ADDED)) || rule(UPDATE_REMOVED) {
                return None;
            }
            let path = format!("{top}/i{index:03}_{folder:05}/f{file:02}.xml");
            let mut text = format!("<{path}/>").repeat(1 + file % 4).into_bytes();
            if rule(UPDATE_SAME_SIZE) {
                if let Some(first) = text.first_mut() {
                    *first = b'[';
                }
            }
            if rule(UPDATE_RESIZED) {
                text.push(b'\n');
            }
            let compression = if file % 2 == 0 {
                Compression::Deflate
            } else {
                Compression::Stored
            };
            Some((path, text, compression))
        })
    })
}

/// An install at `scale` holding the model world of that scale ([`crate::synth::model_world`]):
/// `content/assets.bin` and every `.geometry` in the first index (`basecontent.idx`, several
/// volumes of at most 256 MB); with the `dds` feature the world's materials name textures
/// ([`synth_world_textured`](super::assets_scale::synth_world_textured)) and the second index
/// (`ship_textures.idx`) holds them ([`crate::synth::ship_textures`]: 196 textures shared between
/// the ships, BC1, BC3, BC5 and BC7, 512 to 4096 pixels, split into `.dds` and tier files); filler
/// in the others up to the install's shape.
#[cfg(all(feature = "geometry", feature = "assets"))]
pub fn synth_install(scale: Scale) -> Result<SynthInstall, super::model_world::WorldError> {
    synth_install_with(scale, false)
}

/// The install of [`synth_install`] as a game update changes it: the second install of the
/// `diff` tests and benchmarks. Its `content/assets.bin` is the patched world's
/// ([`synth_patched`](super::assets_scale::synth_patched): in every 20th ship group a material's
/// sort order changes and a visual is new), its `.geometry` and texture files are the same, and
/// its filler changes by the rules of [`UPDATE_REMOVED`] (files removed, added, changed with and
/// without a change of size). Its `manifest` lists what it holds.
#[cfg(all(feature = "geometry", feature = "assets"))]
pub fn synth_update(scale: Scale) -> Result<SynthInstall, super::model_world::WorldError> {
    synth_install_with(scale, true)
}

#[cfg(all(feature = "geometry", feature = "assets"))]
fn synth_install_with(
    scale: Scale,
    update: bool,
) -> Result<SynthInstall, super::model_world::WorldError> {
    use super::model_world::synth_geometry;

    const VOLUME_BYTES: usize = 256 << 20;
    let world = super::assets_scale::synth_world_with(scale, update, cfg!(feature = "dds"))?;
    let (indexes, names) = shape(scale);
    let mut install = SynthInstall::default();
    let mut writer = PfsWriter::new("basecontent_0001.pkg").with_level(1);
    let mut volume_bytes = world.assets.len();
    install.add(
        &mut writer,
        "content/assets.bin",
        &world.assets,
        Compression::Deflate,
    )?;
    let mut world_names = 1;
    let mut volumes = 1;
    for model in &world.models {
        let Some(geometry) = synth_geometry(model)? else {
            continue;
        };
        if volume_bytes + geometry.len() > VOLUME_BYTES {
            volumes += 1;
            writer.add_volume(&format!("basecontent_{volumes:04}.pkg"));
            volume_bytes = 0;
        }
        volume_bytes += geometry.len();
        install.add(
            &mut writer,
            &model.geometry_path,
            &geometry,
            Compression::Deflate,
        )?;
        world_names += 1;
    }
    install.push("basecontent", writer.finish()?);
    #[cfg(feature = "dds")]
    if !world.textures.is_empty() {
        let (archive, files, bytes) = texture_archive(&world.textures, &mut install.manifest)?;
        install.push("ship_textures", archive);
        install.textures = world.textures.len();
        install.texture_files = files;
        install.texture_bytes = bytes;
        world_names += files;
    }
    let rest = names.saturating_sub(world_names * 2);
    let filler = filler_install_with(indexes.saturating_sub(install.indexes.len()), rest, update)?;
    install.indexes.extend(filler.indexes);
    install.volumes.extend(filler.volumes);
    install.manifest.extend(filler.manifest);
    Ok(install)
}

/// The index of `textures` (`ship_textures.idx`, one volume: deflated, the tiled patterns take
/// to a fortieth) with the number of files in it and their bytes unpacked. The textures are made
/// on every core, and added in path order.
#[cfg(all(feature = "geometry", feature = "assets", feature = "dds"))]
fn texture_archive(
    textures: &[super::ship_textures::ShipTexture],
    manifest: &mut Vec<(String, u32, u32)>,
) -> Result<(Archive, usize, u64), super::model_world::WorldError> {
    use super::ship_textures::texture_files;

    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let chunk = textures.len().div_ceil(threads).max(1);
    // Each worker makes its textures' files and deflates them; the writer only appends blobs.
    type Made = Vec<(String, Vec<u8>, u32, u32)>;
    let made: Vec<Made> = std::thread::scope(|scope| {
        let workers: Vec<_> = textures
            .chunks(chunk)
            .map(|textures| {
                scope.spawn(move || -> Result<Made, super::model_world::WorldError> {
                    let mut made = Vec::new();
                    for texture in textures {
                        for (path, bytes) in texture_files(texture)? {
                            let unpacked = u32::try_from(bytes.len())?;
                            let blob = deflate_fast(&bytes)?;
                            made.push((path, blob, crc32fast::hash(&bytes), unpacked));
                        }
                    }
                    Ok(made)
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|worker| {
                worker.join().map_err(|_| {
                    super::model_world::WorldError::from("a texture thread panicked")
                })?
            })
            .collect::<Result<_, _>>()
    })?;
    let mut writer = PfsWriter::new("ship_textures_0001.pkg");
    let (mut files, mut bytes) = (0, 0);
    for (path, blob, crc, unpacked) in made.iter().flatten() {
        writer.add_blob(path, blob, Compression::Deflate, *crc, *unpacked)?;
        manifest.push((path.clone(), *unpacked, *crc));
        files += 1;
        bytes += u64::from(*unpacked);
    }
    Ok((writer.finish()?, files, bytes))
}

/// `bytes` as a raw deflate stream at the fastest level.
#[cfg(all(feature = "geometry", feature = "assets", feature = "dds"))]
fn deflate_fast(bytes: &[u8]) -> std::io::Result<Vec<u8>> {
    use std::io::Write;
    let mut z = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
    z.write_all(bytes)?;
    z.finish()
}

/// Small archives for the fuzz target and the corruption tests, each an index followed by its
/// volume in one input (a `u32` LE length of the index, the index, the volume): the current and
/// the legacy layout, stored and deflated files in shared directories, and a file of the
/// real `system_data.idx`'s name.
pub fn fuzz_seeds() -> WriteResult<Vec<(&'static str, Vec<u8>)>> {
    use crate::wows::pfs::IdxLayout;
    let mut seeds = Vec::new();
    for (name, layout) in [
        ("current.pfs", IdxLayout::Current),
        ("legacy.pfs", IdxLayout::Legacy),
    ] {
        let mut writer = PfsWriter::new("system_data_0001.pkg").with_layout(layout);
        writer.add("KDStorage.bin", b"KDStorage", Compression::Deflate)?;
        writer.add("content/gameplay/a.xml", b"<a/>", Compression::Stored)?;
        writer.add("content/gameplay/b.xml", &[b'b'; 300], Compression::Deflate)?;
        writer.add("gui/flags/c.png", b"\x89PNG", Compression::Stored)?;
        let archive = writer.finish()?;
        let mut input = (archive.idx.len() as u32).to_le_bytes().to_vec();
        input.extend_from_slice(&archive.idx);
        for (_, pkg) in &archive.volumes {
            input.extend_from_slice(pkg);
        }
        seeds.push((name, input));
    }
    Ok(seeds)
}

/// What the `.idx` fixtures hold, as the writer is given it: (index, [(volume, [(path, bytes,
/// compression)])]), so that tests can check what the reader says against what was written.
#[allow(clippy::type_complexity)]
pub fn fixture_contents() -> Vec<(
    &'static str,
    crate::wows::pfs::IdxLayout,
    Vec<(&'static str, Vec<(&'static str, Vec<u8>, Compression)>)>,
)> {
    use crate::wows::pfs::IdxLayout;
    vec![
        (
            "system_data.idx",
            IdxLayout::Current,
            vec![
                (
                    "system_data_0001.pkg",
                    vec![
                        ("KDStorage.bin", b"KDStorage".to_vec(), Compression::Deflate),
                        (
                            "content/gameplay/a.xml",
                            b"<a/>".to_vec(),
                            Compression::Stored,
                        ),
                        (
                            "content/gameplay/b.xml",
                            vec![b'b'; 300],
                            Compression::Deflate,
                        ),
                    ],
                ),
                (
                    "system_data_0002.pkg",
                    vec![("gui/flags/c.png", b"\x89PNG".to_vec(), Compression::Stored)],
                ),
            ],
        ),
        (
            "legacy_layout.idx",
            IdxLayout::Legacy,
            vec![(
                "legacy_0001.pkg",
                vec![
                    ("content/assets.bin", vec![7; 1000], Compression::Deflate),
                    ("gui/readme.txt", b"hello".to_vec(), Compression::Stored),
                ],
            )],
        ),
    ]
}

/// The `.idx` fixtures (`fixtures/wows-pfs`): each index and its `.pkg` volumes, by file name
/// ([`fixture_contents`]: the current layout over two volumes, the legacy layout over one).
pub fn fixtures() -> WriteResult<Vec<(&'static str, Vec<u8>)>> {
    let mut out = Vec::new();
    for (idx, layout, volumes) in fixture_contents() {
        let mut writer: Option<PfsWriter> = None;
        for (volume, files) in &volumes {
            let w = match writer.as_mut() {
                Some(w) => {
                    w.add_volume(volume);
                    w
                }
                None => writer.insert(PfsWriter::new(volume).with_layout(layout)),
            };
            for (path, bytes, compression) in files {
                w.add(path, bytes, *compression)?;
            }
        }
        let Some(writer) = writer else { continue };
        let archive = writer.finish()?;
        out.push((idx, archive.idx));
        for ((name, bytes), (volume, _)) in archive.volumes.into_iter().zip(&volumes) {
            debug_assert_eq!(&name, volume);
            out.push((*volume, bytes));
        }
    }
    Ok(out)
}

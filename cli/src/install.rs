//! A World of Warships game install as every command opens it: from a game folder or from
//! `--idx DIR --pkg DIR`, once per run and shared (`GAME::PATH` arguments, `model --res GAME`),
//! a file read out of it, a game folder recognised among the paths of `info` and `check`, the
//! install's files listed with their full paths, and its errors turned into messages.
//!
//! Every command sits above this file and none below it: it uses no other CLI file (only std,
//! anyhow, rayon and the library), so that the files, the batches and the `pfs`, `check`, `info`
//! and `model` commands can all use it without importing one another in a circle.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use anyhow::{Result, bail};
use gamebin::wows::pfs::{
    BlobReader, GameInstall, InstallError, InstallFile, MAX_PATH_BYTES, Mapping, Selection,
};
use rayon::iter::ParallelIterator as _;
use rayon::slice::{ParallelSlice as _, ParallelSliceMut as _};

/// Where the install is: a game folder, or a folder of indexes with a folder of volumes.
#[derive(Debug, Clone, Copy)]
pub enum Source<'a> {
    /// A game folder: the newest `bin/<build>/idx/` and `res_packages/`.
    Game(&'a Path),
    /// `--idx DIR --pkg DIR`.
    Dirs { idx: &'a Path, pkg: &'a Path },
    /// `GAME@BUILD`: build BUILD of a game folder (`bin/BUILD/idx/`), whose indexes the game
    /// keeps after an update (its volumes are the newest build's `res_packages/`).
    Build { game: &'a Path, build: u64 },
}

impl Source<'_> {
    /// How messages name the install.
    pub fn label(&self) -> String {
        match self {
            Source::Game(dir) => dir.display().to_string(),
            Source::Dirs { idx, .. } => idx.display().to_string(),
            Source::Build { game, build } => format!("{}@{build}", game.display()),
        }
    }

    /// `GAME` or `GAME@BUILD` as the command line gives it: a game folder (`bin/` and
    /// `res_packages/`), or one followed by `@` and a build number. `None` for anything else
    /// (a folder that is no install is told so by [`open`]).
    pub fn game_operand<'a>(operand: &'a Path) -> Option<Source<'a>> {
        if is_game_folder(operand) {
            return Some(Source::Game(operand));
        }
        let text = operand.to_str()?;
        let (game, build) = text.rsplit_once('@')?;
        let build = build
            .bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| build.parse::<u64>().ok())??;
        Some(Source::Build {
            game: Path::new(game),
            build,
        })
    }
}

/// A failure to read an install's file, as text (its cause is in it), with the volume it could
/// not be read from when that was the reason (a batch counts the failures of one volume).
#[derive(Debug)]
pub struct InstallFailure {
    pub text: String,
    pub volume: Option<String>,
}

impl std::fmt::Display for InstallFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

impl std::error::Error for InstallFailure {}

/// An install's error for the command line, as one message: its `Display` already names the
/// path and says why, so the cause is not repeated after it (as anyhow's `{:#}` would). The
/// volume that could not be read, when that was why, is kept for a batch to count such failures.
pub fn install_error(e: InstallError) -> anyhow::Error {
    anyhow::Error::new(InstallFailure {
        volume: e.unread_volume(),
        text: e.to_string(),
    })
}

const EXPECTED: &str = "expected a game folder (holding bin/<build>/idx/*.idx and \
                        res_packages/), or --idx DIR --pkg DIR";

/// A folder the install needs, or an error saying what it is instead.
fn need_dir(dir: &Path, what: &str) -> Result<()> {
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => bail!("{}: not a folder: {what}", dir.display()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            bail!("{}: no such folder: {what}", dir.display())
        }
        Err(e) => bail!("{}: cannot open: {e}", dir.display()),
    }
}

/// Opens the install: mapped, or read into memory (`Mapping::Read`, as `--no-mmap` asks; the
/// caller says which, as the flag is kept with the files it also governs).
pub fn open(source: Source<'_>, mapping: Mapping) -> Result<GameInstall> {
    match source {
        Source::Game(dir) | Source::Build { game: dir, .. } => {
            need_dir(dir, EXPECTED)?;
            if !dir.join("bin").is_dir() {
                bail!("{}: no bin/ folder: {EXPECTED}", dir.display());
            }
            need_dir(&dir.join("res_packages"), EXPECTED)?;
            match source {
                Source::Build { build, .. } => GameInstall::open_build(dir, build, mapping),
                _ => GameInstall::open(dir, mapping),
            }
        }
        Source::Dirs { idx, pkg } => {
            need_dir(idx, "--idx names the folder holding the .idx files")?;
            need_dir(pkg, "--pkg names the folder holding the .pkg volumes")?;
            GameInstall::open_dirs(idx, pkg, mapping)
        }
    }
    .map_err(install_error)
}

/// How messages name an index left out because it does not read: where and why, and what that
/// costs (its files are unknown, so neither they nor their ids can be checked).
pub fn damaged(e: &InstallError) -> String {
    format!(
        "{e}; the index is left out: its files are unknown, and ids it may share with the other \
         indexes are not checked"
    )
}

/// Whether a damaged index was named on stderr in this run ([`report_damaged`]): the run then
/// exits 1, whatever the command made of the other indexes' files.
static DAMAGED_REPORTED: AtomicBool = AtomicBool::new(false);

/// Whether this run named a damaged index on stderr (`main` then exits 1).
pub fn damaged_reported() -> bool {
    DAMAGED_REPORTED.load(Ordering::Relaxed)
}

/// Names each damaged index of `install` on stderr, one line each; whether there was one.
pub fn report_damaged(install: &GameInstall) -> bool {
    for e in install.damaged() {
        eprintln!("gamebin: {}", damaged(e));
        DAMAGED_REPORTED.store(true, Ordering::Relaxed);
    }
    !install.damaged().is_empty()
}

/// What a lookup that found nothing adds when some indexes do not read: the file may be in one.
pub fn not_found_note(install: &GameInstall) -> String {
    match install.damaged().len() {
        0 => String::new(),
        1 => " (1 index does not read, named above: the file may be in it)".to_owned(),
        n => format!(" ({n} indexes do not read, named above: the file may be in one of them)"),
    }
}

/// Opens the install and warns on stderr of ids two indexes give to different records; names
/// each index that does not read (the others are read: [`report_damaged`]).
pub fn open_warned(source: Source<'_>, mapping: Mapping) -> Result<GameInstall> {
    let install = open(source, mapping)?;
    report_damaged(&install);
    if let Some(first) = install.conflicts().first() {
        // `output::count`'s wording, spelt out here so that this file uses no other CLI file.
        let ids = match install.conflicts().len() {
            1 => "1 id".to_owned(),
            n => format!("{n} ids"),
        };
        eprintln!(
            "gamebin: warning: {}: {} given to different records by two indexes, the first \
             index's kept (e.g. {})",
            source.label(),
            ids,
            conflict(first)
        );
    }
    Ok(install)
}

/// How messages name an id two indexes give to different records, and the record kept.
pub fn conflict(c: &gamebin::wows::pfs::Conflict) -> String {
    format!(
        "{:#018x}: {} kept, {} left out",
        c.id,
        c.kept.display(),
        c.dropped.display()
    )
}

/// The install of the game folder `dir`, opened once per run and shared: every `GAME::PATH`
/// argument and `model --res GAME` of one command read the same install.
///
/// `mapping` is used when this is the first time the folder is opened in the run.
pub fn shared(dir: &Path, mapping: Mapping) -> Result<Arc<GameInstall>> {
    static OPENED: Mutex<Vec<(PathBuf, Arc<GameInstall>)>> = Mutex::new(Vec::new());
    let mut opened = OPENED
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some((_, install)) = opened.iter().find(|(d, _)| d == dir) {
        return Ok(Arc::clone(install));
    }
    let install = Arc::new(open_warned(Source::Game(dir), mapping)?);
    opened.push((dir.to_path_buf(), Arc::clone(&install)));
    Ok(install)
}

/// The bytes of the file at `path` in the game folder `game` (`GAME::PATH` on the command line):
/// inflated and CRC-checked, owned.
pub fn read_in_install(game: &Path, path: &str, mapping: Mapping) -> Result<gamebin::MappedFile> {
    let install = shared(game, mapping)?;
    match install.read_to_vec(path, &mut BlobReader::new()) {
        Ok(Some(bytes)) => Ok(gamebin::MappedFile::from_vec(bytes)),
        Ok(None) if !install.damaged().is_empty() => bail!(
            "no file {path} in the install {}{}",
            game.display(),
            not_found_note(&install)
        ),
        Ok(None) => bail!(
            "no file {path} in the install {} (list its files with: gamebin pfs ls {} PREFIX)",
            game.display(),
            game.display()
        ),
        Err(e) => Err(install_error(e)),
    }
}

/// Whether `dir` is a game folder (it has `bin/` and `res_packages/`): `check` reads one as an
/// install.
pub fn is_game_folder(dir: &Path) -> bool {
    dir.join("bin").is_dir() && dir.join("res_packages").is_dir()
}

/// Whether `path` is selected: every path when there is no selection, else any selection's.
pub fn selected(selections: &[Selection], path: &str) -> bool {
    selections.is_empty() || selections.iter().any(|s| s.matches(path))
}

/// A run of the paths of `info` or `check`: game folders are read as installs, the other paths
/// (files, folders walked, standard input) as files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathGroup<'p> {
    /// Consecutive paths that are not game folders.
    Files(&'p [PathBuf]),
    /// A game folder (`bin/` and `res_packages/`).
    GameFolder(&'p Path),
}

/// `paths` split into game folders and runs of other paths between them, in command-line order
/// (so that lines come out in that order).
pub fn path_groups(paths: &[PathBuf]) -> Vec<PathGroup<'_>> {
    let mut groups = Vec::new();
    let mut run_start = 0;
    for (i, path) in paths.iter().enumerate() {
        // `-` is standard input (`files::is_stdin`), never a game folder, even if a folder of
        // that name holds bin/ and res_packages/.
        if path.as_os_str() == "-" || !is_game_folder(path) {
            continue;
        }
        if run_start < i {
            groups.push(PathGroup::Files(&paths[run_start..i]));
        }
        groups.push(PathGroup::GameFolder(path));
        run_start = i + 1;
    }
    if run_start < paths.len() {
        groups.push(PathGroup::Files(&paths[run_start..]));
    }
    groups
}

/// A file of the install to read (`pfs extract`, `check INSTALL`): its full path, and the file.
pub struct Item<'f, 'i> {
    pub path: String,
    pub file: &'f InstallFile<'i>,
}

/// Files whose paths one task builds.
const LIST_CHUNK: usize = 4096;

/// The files of the install whose records read; each record that does not is handed to
/// `unreadable`.
pub fn readable_files<'i>(
    install: &'i GameInstall,
    mut unreadable: impl FnMut(InstallError),
) -> Vec<InstallFile<'i>> {
    let mut files = Vec::new();
    for file in install.files() {
        match file {
            Ok(file) => files.push(file),
            Err(e) => unreadable(e),
        }
    }
    files
}

/// The selected `files` of the install with their full paths, a folder's files together (sorted
/// by folder, then name); each path that cannot be built is handed to `unreadable`.
///
/// The paths are built on every core, and a folder's path once: the next file of the same folder
/// gets its folder's path and its name, without the walk up the names (which, serial and a file
/// at a time, was the largest part of an extraction that cannot run in parallel). The files stay
/// where they are: a small key of each is sorted, and each item borrows its file (a file is 112
/// bytes: sorting the files and copying each into its item took a full-scale extraction's peak
/// memory from 184 to 225 MB).
pub fn selected_files<'f, 'i>(
    install: &'i GameInstall,
    files: &'f [InstallFile<'i>],
    wanted: &[Selection],
    mut unreadable: impl FnMut(InstallError),
) -> Vec<Item<'f, 'i>> {
    // Positions fit in u32: an install holds fewer than 2^31 files (GameInstall::open).
    let mut order: Vec<(u64, &[u8], u32)> = (files.iter().enumerate())
        .map(|(at, file)| (file.name.parent_id, file.name.name, at as u32))
        .collect();
    order.par_sort_unstable();
    let parts: Vec<(Vec<Item<'f, 'i>>, Vec<InstallError>)> = order
        .par_chunks(LIST_CHUNK)
        .map(|chunk| {
            let (mut items, mut errors) = (Vec::with_capacity(chunk.len()), Vec::new());
            // The last folder's parent id and path.
            let mut folder: Option<(u64, String)> = None;
            let mut path = String::new();
            for file in chunk
                .iter()
                .filter_map(|&(_, _, at)| files.get(at as usize))
            {
                let name = &file.name;
                let built = match (&folder, name.name_str()) {
                    (Some((id, above)), Ok(text))
                        if *id == name.parent_id
                            && above.len() + 1 + text.len() <= MAX_PATH_BYTES =>
                    {
                        path.clear();
                        path.push_str(above);
                        path.push('/');
                        path.push_str(text);
                        Ok(())
                    }
                    _ => install.full_path(name, &mut path).map(|()| {
                        folder = path
                            .rsplit_once('/')
                            .map(|(above, _)| (name.parent_id, above.to_owned()));
                    }),
                };
                match built {
                    Ok(()) if selected(wanted, &path) => items.push(Item {
                        path: path.clone(),
                        file,
                    }),
                    Ok(()) => {}
                    Err(e) => errors.push(e),
                }
            }
            (items, errors)
        })
        .collect();
    let mut items = Vec::with_capacity(files.len());
    for (part, errors) in parts {
        items.extend(part);
        errors.into_iter().for_each(&mut unreadable);
    }
    items
}

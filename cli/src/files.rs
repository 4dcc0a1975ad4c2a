//! Opening files and walking directories.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Context, Result, bail};
use gamebin::wows::pfs::Mapping;
use gamebin::{Format, MappedFile, Scratch};

use crate::install;

/// How leniently to read files: the reading flags of `info`, `dump` and `wwd render`.
#[derive(Debug, Clone, Copy, Default)]
pub struct ReadOptions {
    /// Read `.wwd` levels whose header signature is not 0x5F4.
    pub ignore_signature: bool,
}

impl ReadOptions {
    /// The `.wwd` reader's options.
    pub fn wwd(self) -> gamebin::wwd::Options {
        gamebin::wwd::Options {
            ignore_signature: self.ignore_signature,
        }
    }

    /// Scratch space for opening files with these options (one per worker thread, kept across
    /// files).
    pub fn scratch(self) -> Scratch {
        if self.ignore_signature {
            Scratch::ignoring_signatures()
        } else {
            Scratch::new()
        }
    }
}

/// A file to read and whether the user named it (then it must be recognised) or it was found in a
/// directory (then an unknown format is skipped).
pub struct Input {
    pub path: PathBuf,
    pub named: bool,
}

/// The files of no format that `info` and `check` pass over in a folder walk, counted and named
/// at the end of the run. `.pkg` volumes are counted apart: gamebin reads them, but through the
/// install that lists their files (a volume alone is blobs without names).
#[derive(Debug, Default)]
pub struct Skipped {
    others: usize,
    volumes: usize,
    sources: usize,
}

/// The extensions of BigWorld model sources: read by `gamebin model` (a `.model` names its
/// `.visual`, which names its `.mfm` materials), not one by one by `info` and `check`.
const MODEL_SOURCES: [&str; 3] = ["model", "visual", "mfm"];

impl Skipped {
    /// Counts `path`, passed over.
    pub fn add(&mut self, path: &Path) {
        let is = |extension: &str| {
            path.extension()
                .is_some_and(|e| e.eq_ignore_ascii_case(extension))
        };
        if is("pkg") {
            self.volumes += 1;
        } else if MODEL_SOURCES.into_iter().any(is) {
            self.sources += 1;
        } else {
            self.others += 1;
        }
    }

    /// The lines that say what was passed over, on standard error.
    pub fn report(&self) {
        if self.others > 0 {
            eprintln!(
                "gamebin: skipped {} file(s) of formats gamebin does not read",
                self.others
            );
        }
        if self.volumes > 0 {
            eprintln!(
                "gamebin: skipped {} .pkg volume(s): a volume is read through the install that \
                 lists its files (gamebin info GAME, gamebin pfs ls GAME)",
                self.volumes
            );
        }
        if self.sources > 0 {
            eprintln!(
                "gamebin: skipped {} model source(s) (.model, .visual, .mfm): read by gamebin \
                 model (gamebin model FOLDER --res ROOT -o OUTDIR)",
                self.sources
            );
        }
    }
}

/// Says on stderr which of the folders named in `paths` hold no file at all (`inputs` and
/// `failures` are what [`collect`] found under them; a folder it could not read is named there
/// already): a walk of such a folder reads nothing and would otherwise print nothing. Nothing
/// failed, as when every file of a folder is skipped: the exit status stays 0.
pub fn report_empty_folders(
    paths: &[PathBuf],
    inputs: &[Input],
    failures: &[(PathBuf, anyhow::Error)],
) {
    for path in paths {
        let walked = !is_stdin(path) && path.is_dir();
        let found = inputs.iter().any(|input| input.path.starts_with(path))
            || failures.iter().any(|(failed, _)| failed.starts_with(path));
        if walked && !found {
            eprintln!(
                "gamebin: {}: an empty folder (no files in it or below it)",
                path.display()
            );
        }
    }
}

/// The files under `paths`, directories walked recursively in name order. Unreadable directories
/// are reported as failed inputs. A path of `-` (standard input) is an input like a file.
pub fn collect(paths: &[PathBuf]) -> (Vec<Input>, Vec<(PathBuf, anyhow::Error)>) {
    let mut inputs = Vec::new();
    let mut failures = Vec::new();
    for path in paths {
        if !is_stdin(path) && path.is_dir() {
            walk(path, &mut inputs, &mut failures);
        } else {
            inputs.push(Input {
                path: path.clone(),
                named: true,
            });
        }
    }
    (inputs, failures)
}

fn walk(dir: &Path, inputs: &mut Vec<Input>, failures: &mut Vec<(PathBuf, anyhow::Error)>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => {
            failures.push((
                dir.to_path_buf(),
                anyhow::Error::new(e).context("cannot read directory"),
            ));
            return;
        }
    };
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        // Symlinked directories are not followed, so a link cycle cannot loop the walk.
        let is_link = path
            .symlink_metadata()
            .is_ok_and(|m| m.file_type().is_symlink());
        if path.is_dir() && !is_link {
            walk(&path, inputs, failures);
        } else if path.is_file() {
            inputs.push(Input { path, named: false });
        }
    }
}

/// `--no-mmap`: read files into memory instead of mapping them. Set once by `main` before any
/// file is opened.
static NO_MMAP: AtomicBool = AtomicBool::new(false);

/// Makes [`map`] read files into memory (`--no-mmap`) instead of mapping them.
pub fn set_no_mmap(no_mmap: bool) {
    NO_MMAP.store(no_mmap, Ordering::Relaxed);
}

/// Whether `--no-mmap` was given: files are read into memory instead of mapped.
pub fn no_mmap() -> bool {
    NO_MMAP.load(Ordering::Relaxed)
}

/// How a game install's indexes and volumes are opened: mapped, or read into memory with
/// `--no-mmap`, as files are.
pub fn install_mapping() -> Mapping {
    if no_mmap() {
        Mapping::Read
    } else {
        Mapping::Map
    }
}

/// Whether `path` is `-`, standard input.
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// The bytes of a file named on the command line or found in a directory: `-` reads standard input
/// into memory; a directory, FIFO, socket or device is refused before it is opened (opening a FIFO
/// would wait for a writer forever); a regular file is mapped, or read into memory with
/// `--no-mmap` (a mapped file truncated by another process while it is read kills the process
/// with SIGBUS; a file read into memory cannot).
pub fn map(path: &Path) -> Result<MappedFile> {
    if let Some((game, inner)) = in_install(path) {
        return install::read_in_install(game, inner, install_mapping());
    }
    if is_stdin(path) {
        return MappedFile::read_from(std::io::stdin().lock())
            .context("cannot read standard input");
    }
    let metadata = match std::fs::metadata(path) {
        Ok(metadata) => metadata,
        Err(e) => match path.to_str().and_then(|p| p.split_once("::")) {
            Some((game, _)) if e.kind() == std::io::ErrorKind::NotFound => {
                let game = if game.is_empty() { "." } else { game };
                if install::is_game_folder(Path::new(game)) {
                    bail!(
                        "no such file, and GAME::PATH names no path after the `::` (list the \
                         install's paths with: gamebin pfs ls {game})"
                    );
                }
                bail!(
                    "no such file, and not GAME::PATH: {game} is not a game folder (one holding \
                     bin/ and res_packages/)"
                )
            }
            _ => return Err(anyhow::Error::new(e).context("cannot open")),
        },
    };
    if let Some(kind) = not_a_file(&metadata) {
        bail!("{kind}");
    }
    if NO_MMAP.load(Ordering::Relaxed) {
        MappedFile::read(path).context("cannot read")
    } else {
        MappedFile::open(path).context("cannot open")
    }
}

/// `GAME::PATH`, a file inside the install of the game folder GAME (`PATH` relative to `res/`,
/// as `pfs ls` lists it): the game folder and the path. `None` for any other argument, and for
/// a file that exists under that very name.
pub fn in_install(path: &Path) -> Option<(&Path, &str)> {
    let (game, inner) = path.to_str()?.split_once("::")?;
    if inner.is_empty() || path.exists() {
        return None;
    }
    let game = Path::new(if game.is_empty() { "." } else { game });
    install::is_game_folder(game).then_some((game, inner))
}

/// Why a path that is not a regular file cannot be read, `None` for a regular file.
fn not_a_file(metadata: &std::fs::Metadata) -> Option<&'static str> {
    let kind = metadata.file_type();
    if kind.is_file() {
        return None;
    }
    if kind.is_dir() {
        return Some(
            "is a directory, and this command reads one file (info and check walk directories)",
        );
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return Some(
                "is a FIFO (named pipe), not a regular file: gamebin does not wait on pipes; \
                 to read a stream, pipe it to standard input and name the file -",
            );
        }
        if kind.is_socket() {
            return Some("is a socket, not a regular file");
        }
        if kind.is_char_device() || kind.is_block_device() {
            return Some(
                "is a device, not a regular file (copy it to a file, or pipe it to standard \
                 input and name the file -)",
            );
        }
    }
    Some("is not a regular file")
}

/// A value parser for paths gamebin writes or walks: `-` (standard input/output) is refused.
pub fn not_stdin(arg: &str) -> std::result::Result<PathBuf, String> {
    if arg == "-" {
        return Err("- (standard input/output) is not accepted here: name a file or folder".into());
    }
    Ok(PathBuf::from(arg))
}

/// An input mapped and its format detected ([`gamebin::detect_file`]: by content, the name only
/// choosing whose error to show when content says nothing); `None` for a file of an unknown
/// format found in a directory (one named on the command line must be recognised: an error
/// otherwise). `scratch` carries the `.wwd` options (`--ignore-signature`) and the space a level
/// named `.wwd` is tried in.
pub fn open_input(input: &Input, scratch: &mut Scratch) -> Result<Option<(MappedFile, Format)>> {
    let file = map(&input.path)?;
    let Some(format) = gamebin::detect_file(&input.path, &file, input.named, scratch)? else {
        // Standard input has no name to choose whose error to show: the reader that reads the
        // bytes furthest is shown instead, as a name would have chosen it.
        if is_stdin(&input.path)
            && let Some(nearest) = gamebin::nearest_reader(&file, scratch)
        {
            return Err(nearest.into());
        }
        if input.named {
            return Err(gamebin::ParseError::unrecognised(&file).into());
        }
        return Ok(None);
    };
    Ok(Some((file, format)))
}

/// Maps a file and detects its format, or says it is not one gamebin reads.
pub fn open_known(path: &Path, options: ReadOptions) -> Result<(MappedFile, Format)> {
    let input = Input {
        path: path.to_path_buf(),
        named: true,
    };
    match open_input(&input, &mut options.scratch())? {
        Some(known) => Ok(known),
        None => bail!("not a format gamebin reads (formats are detected by content)"),
    }
}

/// An output file that exists and was left as it was (no `--force`).
#[derive(Debug)]
pub struct Exists(pub PathBuf);

impl std::fmt::Display for Exists {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} exists; not overwritten (use --force to replace it)",
            self.0.display()
        )
    }
}

impl std::error::Error for Exists {}

/// An output path that names an existing folder where a file is to be written: no `--force`
/// would help (a folder is never replaced by a file), so the message says what is there instead.
#[derive(Debug)]
pub struct IsFolder(pub PathBuf);

impl std::fmt::Display for IsFolder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} is a folder; a file is written here: name the file to write",
            self.0.display()
        )
    }
}

impl std::error::Error for IsFolder {}

/// Whether `output` names a folder to write into: one that exists, or a path ending in `/` (the
/// folder is made when it does not exist yet).
pub fn names_folder(output: &Path) -> bool {
    output.is_dir()
        || output
            .as_os_str()
            .to_str()
            .is_some_and(|s| s.ends_with(std::path::is_separator))
}

/// Makes the output folder `folder` (and its parents) if it is not there yet.
pub fn make_folder(folder: &Path) -> Result<()> {
    std::fs::create_dir_all(folder).with_context(|| format!("cannot create {}", folder.display()))
}

/// Refuses an output path that exists unless `force`: gamebin never replaces a file silently.
/// A folder in the way is refused whatever `force` says.
pub fn refuse_existing(target: &Path, force: bool) -> Result<()> {
    if target.is_dir() {
        return Err(IsFolder(target.to_path_buf()).into());
    }
    if !force && target.exists() {
        return Err(Exists(target.to_path_buf()).into());
    }
    Ok(())
}

/// Writes `bytes` to `output`, refusing to replace an existing file unless `force` (checked when
/// the file is created, so a file appearing meanwhile is not replaced either).
pub fn write_new(output: &Path, bytes: &[u8], force: bool) -> Result<()> {
    use std::io::Write as _;
    create_new(output, force)?
        .write_all(bytes)
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", output.display()))
}

/// Creates `output` for writing, refusing to replace an existing file unless `force` (checked as
/// the file is created, so a file appearing meanwhile is not replaced either).
pub fn create_new(output: &Path, force: bool) -> Result<std::fs::File> {
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .create_new(!force)
        .open(output)
        .map_err(|e| {
            // Creating over a folder fails as "exists" without `force` and as "is a directory"
            // with it: either way, the folder is what is in the way.
            if output.is_dir() {
                IsFolder(output.to_path_buf()).into()
            } else if e.kind() == std::io::ErrorKind::AlreadyExists {
                Exists(output.to_path_buf()).into()
            } else {
                anyhow::anyhow!("cannot create {}: {e}", output.display())
            }
        })
}

/// The text of a file named on the command line (`-`: standard input), refused as [`map`]
/// refuses what is not a regular file (a FIFO would be waited on).
pub fn read_text(path: &Path) -> Result<String> {
    if is_stdin(path) {
        return std::io::read_to_string(std::io::stdin().lock())
            .context("cannot read standard input");
    }
    let metadata = std::fs::metadata(path).context("cannot read")?;
    if let Some(kind) = not_a_file(&metadata) {
        bail!("{kind}");
    }
    std::fs::read_to_string(path).context("cannot read")
}

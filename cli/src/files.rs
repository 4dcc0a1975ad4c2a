//! Opening files and walking directories.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Context, Result, bail};
use gamebin::{Format, MappedFile};

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
}

/// A file to read and whether the user named it (then it must be recognised) or it was found in a
/// directory (then an unknown format is skipped).
pub struct Input {
    pub path: PathBuf,
    pub named: bool,
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
    if is_stdin(path) {
        return MappedFile::read_from(std::io::stdin().lock())
            .context("cannot read standard input");
    }
    let metadata = std::fs::metadata(path).context("cannot open")?;
    if let Some(kind) = not_a_file(&metadata) {
        bail!("{kind}");
    }
    if NO_MMAP.load(Ordering::Relaxed) {
        MappedFile::read(path).context("cannot read")
    } else {
        MappedFile::open(path).context("cannot open")
    }
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

/// Detects the format of a mapped file. Content decides; the file name only chooses whose error to
/// show when content detection fails: a damaged `foo.geometry` is reported with the `.geometry`
/// reader's error (where and why it fails) instead of as an unknown file. `Ok(None)` means the
/// content is not recognised and the name suggests nothing. With `--ignore-signature`, a `.wwd`
/// whose signature is damaged (so content detection does not know it) is recognised by its name.
/// `named`: the user named the file (rather than it being found in a directory), which makes a
/// `Project.dat` a CraftStudio project to read (see below).
/// An input mapped and its format detected; `None` for a file of an unknown format found in a
/// directory (one named on the command line must be recognised: an error otherwise).
pub fn open_input(input: &Input, options: ReadOptions) -> Result<Option<(MappedFile, Format)>> {
    let file = map(&input.path)?;
    let Some(format) = detect(&input.path, &file, options, input.named)? else {
        if input.named {
            anyhow::bail!("not a format gamebin reads (formats are detected by content)");
        }
        return Ok(None);
    };
    Ok(Some((file, format)))
}

pub fn detect(
    path: &Path,
    file: &MappedFile,
    options: ReadOptions,
    named: bool,
) -> Result<Option<Format>> {
    if let Some(format) = gamebin::detect(file) {
        return Ok(Some(format));
    }
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match extension.as_deref() {
        Some("geometry") => {
            gamebin::wows::geometry::GeometryView::from_bytes(file)
                .context("named .geometry but does not read as one")?;
            // It opens, so it is one, however implausible its header looked to detection.
            return Ok(Some(Format::WowsGeometry));
        }
        Some("wdb") => {
            let view = gamebin::wdb::WdbView::from_bytes(file)
                .context("named .wdb but does not read as one")?;
            if view.type_list().is_none() {
                bail!("named .wdb but has neither !!strtypelist nor !!strtypelistb");
            }
            return Ok(Some(Format::Ff13Wdb));
        }
        Some("wwd") => {
            let mut buffer = Vec::new();
            let mut inflater = gamebin::wwd::Inflater::new();
            gamebin::wwd::WwdView::from_bytes_with(file, &mut buffer, &mut inflater, options.wwd())
                .context("named .wwd but does not read as one")?;
            return Ok(Some(Format::Wap32Wwd));
        }
        Some("wdata") => {
            gamebin::wdata::WdataView::from_bytes(file)
                .context("named .wdata but does not read as one")?;
            return Ok(Some(Format::RustyHeartsWdata));
        }
        Some("bin")
            if path
                .file_stem()
                .is_some_and(|s| s.to_string_lossy().contains("assets")) =>
        {
            gamebin::wows::assets::AssetsView::from_bytes(file)
                .context("named like an assets.bin but does not read as one")?;
            return Ok(Some(Format::WowsAssets));
        }
        _ => {}
    }
    // No magic and a shared name. A …Project.dat named on the command line gets the reader's
    // error (it cannot be read as anything else); one found in a directory does only when its
    // first bytes read like a CraftStudio header, so that other programs' Project.dat are skipped.
    let is_project_dat = path
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.to_ascii_lowercase().ends_with("project.dat"));
    if is_project_dat && (named || gamebin::craftstudio::header_looks_like(file)) {
        gamebin::craftstudio::ProjectView::from_bytes(file)
            .context("named Project.dat but does not read as a CraftStudio project")?;
        return Ok(Some(Format::CraftStudioProject));
    }
    Ok(None)
}

/// Maps a file and detects its format, or says it is not one gamebin reads.
pub fn open_known(path: &Path, options: ReadOptions) -> Result<(MappedFile, Format)> {
    let file = map(path)?;
    match detect(path, &file, options, true)? {
        Some(format) => Ok((file, format)),
        None => bail!("not a format gamebin reads (formats are detected by content)"),
    }
}

/// Refuses an output path that exists unless `force`: gamebin never replaces a file silently.
pub fn refuse_existing(target: &Path, force: bool) -> Result<()> {
    if !force && target.exists() {
        anyhow::bail!(
            "{} exists; not overwritten (use --force to replace it)",
            target.display()
        );
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
            if e.kind() == std::io::ErrorKind::AlreadyExists {
                anyhow::anyhow!(
                    "{} exists; not overwritten (use --force to replace it)",
                    output.display()
                )
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

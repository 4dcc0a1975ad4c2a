//! `gamebin params export|ls|get`: World of Warships `GameParams.data` queried and exported as
//! the JSON dataminers use (the library's `wows::params`), and its `dump` arm.

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use gamebin::MappedFile;
use gamebin::wows::params::export::json::{Layout, write_entries, write_str, write_value};
use gamebin::wows::params::{Entry, ParamsScratch, ParamsView};

use crate::files;
use crate::install;
use crate::output::{Out, Status, is_closed_pipe, report};

/// Where the file is inside a game folder.
const IN_INSTALL: &str = "content/GameParams.data";

/// The bytes of FILE: a file (`-` for standard input), `GAME::content/GameParams.data`, or a game
/// folder (its newest build's `content/GameParams.data`, read out of the archives).
fn read(path: &Path) -> Result<MappedFile> {
    if path.is_dir() && install::is_game_folder(path) {
        return install::read_in_install(path, IN_INSTALL, files::install_mapping());
    }
    files::map(path)
}

/// Opens FILE: a pickle damaged in the middle is an error naming the entry being read.
fn open<'s>(file: &[u8], scratch: &'s mut ParamsScratch) -> Result<ParamsView<'s>> {
    Ok(ParamsView::from_bytes_strict(file, scratch)?)
}

/// The entries to show: the base, or a region's view of them.
fn entries<'a>(
    view: &ParamsView<'a>,
    region: Option<&str>,
) -> Result<Box<dyn Iterator<Item = Entry<'a>> + 'a>> {
    Ok(match region {
        None => Box::new(view.entries()),
        Some(r) => match view.region(r) {
            Some(region) => Box::new(region.entries()),
            None => bail!(
                "no region {r:?} in the file (its regions: {})",
                region_names(view)
            ),
        },
    })
}

fn region_names(view: &ParamsView<'_>) -> String {
    let names: Vec<String> = view
        .regions()
        .filter_map(|r| r.name().map(|n| format!("{n:?}")))
        .collect();
    if names.is_empty() {
        "none".into()
    } else {
        names.join(", ")
    }
}

/// Ends a command over FILE: its error reported (exit 1), a closed stdout a success.
fn finish(path: &Path, result: Result<Status>) -> Result<Status> {
    match result {
        Ok(s) => Ok(s),
        Err(e) if is_closed_pipe(&e) => Ok(Status::Success),
        Err(e) => {
            report(path, &e);
            Ok(Status::SomeFailed)
        }
    }
}

/// What `params export` is asked for.
pub struct ExportArgs<'p> {
    pub output: Option<&'p Path>,
    pub split: Option<&'p Path>,
    pub region: Option<&'p str>,
    pub pretty: bool,
    pub force: bool,
}

/// `params export FILE -o OUT.json | --split DIR`.
pub fn export(path: &Path, args: &ExportArgs<'_>) -> Result<Status> {
    finish(path, export_inner(path, args))
}

fn export_inner(path: &Path, args: &ExportArgs<'_>) -> Result<Status> {
    let file = read(path)?;
    let mut scratch = ParamsScratch::default();
    let view = open(&file, &mut scratch)?;
    let layout = if args.pretty {
        Layout::Pretty
    } else {
        Layout::Compact
    };
    if let Some(dir) = args.split {
        return split(&view, args.region, dir, layout, args.force);
    }
    let mut budget = view.walk_budget();
    let items = entries(&view, args.region)?.map(|e| -> Result<_> {
        let v = e.value_within(&mut budget)?;
        Ok((e.name(), v))
    });
    match args.output {
        None => bail!("name the output: -o OUT.json (or -o - for standard output), or --split DIR"),
        Some(o) if files::is_stdin(o) => {
            let mut out = Out::new();
            write_entries(&mut out, items, layout)?;
            out.write_all(b"\n")?;
            out.flush()?;
        }
        Some(o) => {
            let mut w = BufWriter::new(files::create_new(o, args.force)?);
            write_entries(&mut w, items, layout)?;
            w.write_all(b"\n")?;
            w.flush()
                .with_context(|| format!("cannot write {}", o.display()))?;
        }
    }
    Ok(Status::Success)
}

/// A folder or file name from a string of the file: only letters, digits, `_`, `-` and `.`
/// kept (anything else `_`), never `.` or `..`, so that no entry can name a path outside DIR.
fn segment(text: Option<&str>) -> String {
    let text = text.unwrap_or("None");
    let s: String = text
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    match s.as_str() {
        "" => "_".into(),
        "." | ".." => s.replace('.', "_"),
        _ => s,
    }
}

/// `--split DIR`: one file per entry at `<type>/<nation>/<species>/<name>.json`.
fn split(
    view: &ParamsView<'_>,
    region: Option<&str>,
    dir: &Path,
    layout: Layout,
    force: bool,
) -> Result<Status> {
    let mut written = 0usize;
    let mut status = Status::Success;
    let mut budget = view.walk_budget();
    for e in entries(view, region)? {
        let folder: PathBuf = dir
            .join(segment(e.type_name().as_deref()))
            .join(segment(e.nation().as_deref()))
            .join(segment(e.species().as_deref()));
        let target = folder.join(format!("{}.json", segment(Some(&e.name()))));
        let value = match e.value_within(&mut budget) {
            Ok(v) => v,
            Err(err) => {
                eprintln!("gamebin: {err}");
                status = Status::SomeFailed;
                continue;
            }
        };
        std::fs::create_dir_all(&folder)
            .with_context(|| format!("cannot create {}", folder.display()))?;
        let mut w = BufWriter::new(files::create_new(&target, force)?);
        write_value(&mut w, &value, layout, 0)?;
        w.write_all(b"\n")?;
        w.flush()
            .with_context(|| format!("cannot write {}", target.display()))?;
        written += 1;
    }
    eprintln!("gamebin: wrote {written} entries under {}", dir.display());
    Ok(status)
}

/// What `params ls` filters on.
pub struct LsFilter<'p> {
    pub ty: Option<&'p str>,
    pub nation: Option<&'p str>,
    pub species: Option<&'p str>,
    pub region: Option<&'p str>,
}

fn matches(want: Option<&str>, have: Option<&str>) -> bool {
    match want {
        None => true,
        Some(w) => {
            have.is_some_and(|h| h.eq_ignore_ascii_case(w)) || (w == "None" && have.is_none())
        }
    }
}

/// `params ls FILE`: one line per entry, starting with its name.
pub fn ls(path: &Path, filter: &LsFilter<'_>, json: bool) -> Result<Status> {
    finish(path, ls_inner(path, filter, json))
}

fn ls_inner(path: &Path, filter: &LsFilter<'_>, json: bool) -> Result<Status> {
    let file = read(path)?;
    let mut scratch = ParamsScratch::default();
    let view = open(&file, &mut scratch)?;
    let mut out = Out::new();
    for e in entries(&view, filter.region)? {
        let (ty, nation, species) = (e.type_name(), e.nation(), e.species());
        if !(matches(filter.ty, ty.as_deref())
            && matches(filter.nation, nation.as_deref())
            && matches(filter.species, species.as_deref()))
        {
            continue;
        }
        if json {
            write_listing_json(&mut out, &e)?;
            out.write_all(b"\n")?;
        } else {
            let id = e.id().map_or_else(|| "-".to_string(), |i| i.to_string());
            let text = |t: Option<std::borrow::Cow<'_, str>>| {
                t.map_or_else(|| "-".to_string(), |t| t.into_owned())
            };
            out.line(&format!(
                "{}\t{id}\t{}\t{}\t{}\t{}",
                e.name(),
                text(e.index()),
                text(ty),
                text(nation),
                text(species)
            ))?;
        }
    }
    out.flush()?;
    Ok(Status::Success)
}

/// `{"name":…,"id":…,"index":…,"type":…,"nation":…,"species":…}` (`null` for what is missing).
fn write_listing_json(w: &mut impl Write, e: &Entry<'_>) -> io::Result<()> {
    let opt = |w: &mut dyn Write, t: Option<std::borrow::Cow<'_, str>>| -> io::Result<()> {
        match t {
            Some(t) => {
                let mut buf = Vec::new();
                write_str(&mut buf, &t)?;
                w.write_all(&buf)
            }
            None => w.write_all(b"null"),
        }
    };
    w.write_all(b"{\"name\":")?;
    write_str(w, &e.name())?;
    match e.id() {
        Some(id) => write!(w, ",\"id\":{id}")?,
        None => w.write_all(b",\"id\":null")?,
    }
    w.write_all(b",\"index\":")?;
    opt(w, e.index())?;
    w.write_all(b",\"type\":")?;
    opt(w, e.type_name())?;
    w.write_all(b",\"nation\":")?;
    opt(w, e.nation())?;
    w.write_all(b",\"species\":")?;
    opt(w, e.species())?;
    w.write_all(b"}")
}

/// `params get FILE KEY [PATH]`: the entry (or the value at PATH in it) as indented JSON.
pub fn get(path: &Path, key: &str, at: Option<&str>, region: Option<&str>) -> Result<Status> {
    finish(path, get_inner(path, key, at, region))
}

fn get_inner(path: &Path, key: &str, at: Option<&str>, region: Option<&str>) -> Result<Status> {
    let file = read(path)?;
    let mut scratch = ParamsScratch::default();
    let view = open(&file, &mut scratch)?;
    let entry = match region {
        None => view.find(key),
        Some(r) => match view.region(r) {
            Some(region) => region.find(key),
            None => bail!(
                "no region {r:?} in the file (its regions: {})",
                region_names(&view)
            ),
        },
    };
    let Some(entry) = entry else {
        bail!("no entry {key:?} (looked up as a name, an id and an index)");
    };
    let value = entry.value()?;
    let shown = match at {
        None => &value,
        Some(p) => match value.at_path(p) {
            Some(v) => v,
            None => bail!("entry {}: no value at {p:?}", entry.name()),
        },
    };
    let mut out = Out::new();
    write_value(&mut out, shown, Layout::Pretty, 0)?;
    out.write_all(b"\n")?;
    out.flush()?;
    Ok(Status::Success)
}

/// `gamebin dump` of a GameParams: `--json` the export of `params export` (base entries); text,
/// the summary and one line per entry as `params ls` prints it.
pub fn dump(path: &Path, view: &ParamsView<'_>, json: bool, out: &mut Out) -> Result<()> {
    if json {
        let mut budget = view.walk_budget();
        let items = view.entries().map(|e| -> Result<_> {
            let v = e.value_within(&mut budget)?;
            Ok((e.name(), v))
        });
        write_entries(out, items, Layout::Compact)?;
        out.write_all(b"\n")?;
        return Ok(());
    }
    if let Some(d) = view.damage() {
        bail!("{d}");
    }
    out.line(&format!("{}: {}", path.display(), view.info()))?;
    for e in view.entries() {
        let text = |t: Option<std::borrow::Cow<'_, str>>| {
            t.map_or_else(|| "-".to_string(), |t| t.into_owned())
        };
        out.line(&format!(
            "{}\t{}\t{}\t{}\t{}\t{}",
            e.name(),
            e.id().map_or_else(|| "-".to_string(), |i| i.to_string()),
            text(e.index()),
            text(e.type_name()),
            text(e.nation()),
            text(e.species())
        ))?;
    }
    Ok(())
}

/// `synth params`: a deterministic GameParams.data.
pub fn synth(
    full: bool,
    regional: bool,
    update: bool,
    output: &Path,
    force: bool,
) -> Result<Status> {
    files::refuse_existing(output, force)?;
    let mut model = if full {
        gamebin::synth::params::full_model()
    } else {
        gamebin::synth::params::model(300)
    };
    if update {
        model = gamebin::synth::params::update(&model);
    }
    if regional {
        gamebin::synth::params::lay_regions(&mut model);
    }
    let bytes = model
        .to_bytes()
        .map_err(|e| anyhow::anyhow!("cannot write the params: {e}"))?;
    files::write_new(output, &bytes, force)?;
    eprintln!(
        "gamebin: wrote {} ({} entries, {} bytes)",
        output.display(),
        model.entries.len(),
        bytes.len()
    );
    Ok(Status::Success)
}

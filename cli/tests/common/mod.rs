//! What every test of the command line needs: the repository root (cargo runs a package's tests
//! from its own folder, `cli/`, while the fixtures, the golden files and a relative
//! `GAMEBIN_SAMPLES` are relative to the root), the binary run from there, and scratch folders.

// Each test binary uses its own part of these.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The repository root.
pub fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// Moves the test process to the repository root, once.
pub fn at_repository_root() {
    static MOVED: std::sync::Once = std::sync::Once::new();
    MOVED.call_once(|| {
        std::env::set_current_dir(root()).expect("the repository root");
    });
}

/// Runs `gamebin ARGS` from the repository root, with no standard input.
pub fn gamebin(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gamebin"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::null())
        .output()
        .expect("run gamebin")
}

/// What a run wrote to standard error.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A fresh, empty folder under the system's temporary one, named for the test and this process.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gamebin-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}

/// What a run printed, as the golden files of command-line messages hold it: `$ gamebin ARGS`,
/// the exit status, stdout and stderr, with the scratch folder `tmp` written as `$TMP`.
pub fn transcript(args: &[&str], out: &Output, tmp: &str) -> String {
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).replace(tmp, "$TMP");
    format!(
        "$ gamebin {}\nexit: {}\n--- stdout\n{}--- stderr\n{}",
        args.join(" ").replace(tmp, "$TMP"),
        out.status
            .code()
            .map_or_else(|| "killed by a signal".to_string(), |c| c.to_string()),
        text(&out.stdout),
        text(&out.stderr),
    )
}

/// Compares `got` with the golden file `golden`, or writes it there when `GAMEBIN_BLESS` is set
/// (re-bless with `GAMEBIN_BLESS=1 cargo test --test TEST`). The difference, if any.
pub fn against_golden(golden: &Path, got: &str, test: &str) -> Option<String> {
    if std::env::var_os("GAMEBIN_BLESS").is_some() {
        std::fs::write(golden, got).expect("write the golden file");
        return None;
    }
    let want = std::fs::read_to_string(golden).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; run GAMEBIN_BLESS=1 cargo test --test {test}",
            golden.display()
        )
    });
    (got != want).then(|| format!("got\n{got}\nwant ({})\n{want}", golden.display()))
}

/// Spawns gamebin with stdout piped, reads one line, closes the pipe and returns how long the
/// process took to end afterwards, its exit code and stderr.
pub fn close_after_one_line(args: &[&str]) -> (Duration, Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamebin"))
        .args(args)
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run gamebin");
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    assert!(!line.is_empty(), "{args:?}: no output");
    drop(stdout);
    let closed = Instant::now();
    let out = child.wait_with_output().unwrap();
    (
        closed.elapsed(),
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs `gamebin FORMAT pack INPUT -o OUTPUT` (and `--force`).
pub fn run_pack(format: &str, input: &Path, output: &Path, force: bool) -> Output {
    let (input, output) = (input.to_str().unwrap(), output.to_str().unwrap());
    let mut args = vec![format, "pack", input, "-o", output];
    if force {
        args.push("--force");
    }
    gamebin(&args)
}

/// Writes `doc` to `dir/NAME.json` and packs it with `gamebin FORMAT pack` to `dir/NAME.EXTENSION`
/// (replacing it); the bytes written. Pack must succeed and say nothing.
pub fn pack_doc(
    format: &str,
    extension: &str,
    dir: &Path,
    name: &str,
    doc: &serde_json::Value,
) -> Vec<u8> {
    let input = dir.join(format!("{name}.json"));
    let output = dir.join(format!("{name}.{extension}"));
    std::fs::write(&input, serde_json::to_string_pretty(doc).unwrap()).unwrap();
    let out = run_pack(format, &input, &output, true);
    assert!(out.status.success(), "{name}: {}", stderr(&out));
    assert!(out.stderr.is_empty(), "{name}: {}", stderr(&out));
    std::fs::read(&output).unwrap()
}

/// Runs `gamebin ARGS` from the repository root with `input` on its standard input.
pub fn gamebin_with_stdin(args: &[&str], input: &[u8]) -> Output {
    use std::io::Write as _;
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamebin"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run gamebin");
    // The pipe closes when the handle drops, ending gamebin's input.
    let written = child.stdin.take().map(|mut stdin| stdin.write_all(input));
    let out = child.wait_with_output().expect("wait for gamebin");
    if let Some(Err(e)) = written {
        panic!("{args:?}: cannot write its standard input: {e}");
    }
    out
}

/// The real samples' folder, `GAMEBIN_SAMPLES` (relative to the repository root, where the
/// tests run): the tests that read it are `#[ignore]`d, and fail saying so when it is not set.
pub fn samples() -> PathBuf {
    let dir = std::env::var_os("GAMEBIN_SAMPLES").expect(
        "GAMEBIN_SAMPLES is not set: this test reads the real samples (run it with \
         GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored)",
    );
    PathBuf::from(dir)
}

/// The subcommand paths (`["wdb", "pack"]`, …) listed under "Commands:" in `gamebin ARGS --help`,
/// recursively: the leaves, the commands that do something.
pub fn leaf_commands(prefix: &[String], found: &mut Vec<Vec<String>>) {
    let mut args: Vec<&str> = prefix.iter().map(String::as_str).collect();
    args.push("--help");
    let help = String::from_utf8(gamebin(&args).stdout).unwrap();
    let mut children = Vec::new();
    let mut in_commands = false;
    for line in help.lines() {
        if line == "Commands:" {
            in_commands = true;
            continue;
        }
        if in_commands {
            // "  name  about…" under "Commands:", up to the next blank line.
            let Some(rest) = line.strip_prefix("  ") else {
                break;
            };
            if rest.starts_with(' ') {
                continue; // an about text wrapped onto the next line
            }
            let name = rest.split_whitespace().next().unwrap_or("");
            if !name.is_empty() && name != "help" {
                children.push(name.to_owned());
            }
        }
    }
    if children.is_empty() {
        found.push(prefix.to_vec());
        return;
    }
    for child in children {
        let mut path = prefix.to_vec();
        path.push(child);
        leaf_commands(&path, found);
    }
}

/// Writes a game folder holding `files` (path relative to res/, bytes, deflated or not) as a PFS
/// install: `dir/bin/<build>/idx/basecontent.idx` and its volume in `dir/res_packages/` (for
/// `gamebin pfs`). Files whose path starts with `gui/` go to a second volume.
pub fn write_install(dir: &Path, build: u32, files: &[(&str, &[u8], bool)]) {
    use gamebin::wows::pfs::{Compression, PfsWriter};
    let mut writer = PfsWriter::new("basecontent_0001.pkg");
    let mut second = false;
    let mut sorted: Vec<_> = files.to_vec();
    sorted.sort_by_key(|(path, _, _)| path.starts_with("gui/"));
    for (path, data, deflate) in sorted {
        if path.starts_with("gui/") && !second {
            writer.add_volume("gui_0001.pkg");
            second = true;
        }
        let compression = if deflate {
            Compression::Deflate
        } else {
            Compression::Stored
        };
        writer
            .add(path, data, compression)
            .expect("a file the writer takes");
    }
    let archive = writer.finish().expect("an archive");
    let idx = dir.join(format!("bin/{build}/idx"));
    std::fs::create_dir_all(&idx).unwrap();
    std::fs::write(idx.join("basecontent.idx"), &archive.idx).unwrap();
    let packages = dir.join("res_packages");
    std::fs::create_dir_all(&packages).unwrap();
    for (name, bytes) in &archive.volumes {
        std::fs::write(packages.join(name), bytes).unwrap();
    }
}

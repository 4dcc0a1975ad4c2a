//! What every test of the command line needs: the repository root (cargo runs a package's tests
//! from its own folder, `cli/`, while the fixtures, the golden files and a relative
//! `GAMEBIN_SAMPLES` are relative to the root), the binary run from there, and scratch folders.

// Each test binary uses its own part of these.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

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

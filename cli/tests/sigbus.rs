//! A mapped file truncated by another process while gamebin reads it: a message naming the file
//! and pointing at `--no-mmap`, exit status 1 (not a bare "Bus error", status 135); with
//! `--no-mmap` the run is not affected at all.
//!
//! Deterministic: `gamebin assets ls` streams a listing (about 210 KB for the small synthetic
//! file) far longer than a pipe holds (64 KiB), reading the file as it prints. The test reads the
//! first line (the file is mapped and being read), truncates the file while gamebin waits for the
//! pipe to drain, then drains it: whatever gamebin reads next is gone.
#![cfg(any(target_os = "linux", target_os = "android"))]

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Command, Output, Stdio};

mod common;
use common::{at_repository_root, gamebin, root, temp_dir};

/// Runs `gamebin [--no-mmap] assets ls FILE`, truncates FILE once the first line is out, and
/// returns the run and the number of lines it printed.
fn ls_truncated_midway(file: &Path, no_mmap: bool) -> (Output, usize) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_gamebin"));
    if no_mmap {
        command.arg("--no-mmap");
    }
    let mut child = command
        .args(["assets", "ls"])
        .arg(file)
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run gamebin");
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    assert!(!first.is_empty(), "no first line");
    std::fs::OpenOptions::new()
        .write(true)
        .open(file)
        .unwrap()
        .set_len(0)
        .unwrap();
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).unwrap();
    let out = child.wait_with_output().unwrap();
    (out, 1 + rest.lines().count())
}

#[test]
fn a_mapped_file_truncated_while_read_is_named_with_a_pointer_to_no_mmap() {
    at_repository_root();
    let dir = temp_dir("sigbus");
    let file = dir.join("shrinking.assets.bin");
    let synth = |force: bool| {
        let mut args = vec!["synth", "assets", "--scale", "small", "-o"];
        args.push(file.to_str().unwrap());
        if force {
            args.push("--force");
        }
        let out = gamebin(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    synth(false);
    let whole = gamebin(&["assets", "ls", file.to_str().unwrap()]);
    assert!(whole.status.success());
    let lines = whole.stdout.iter().filter(|&&b| b == b'\n').count();
    assert!(
        whole.stdout.len() > 3 * 65536,
        "{} bytes",
        whole.stdout.len()
    );

    let (out, printed) = ls_truncated_midway(&file, false);
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{said}");
    let path = std::fs::canonicalize(&file).unwrap();
    assert!(
        said.starts_with(&format!(
            "gamebin: {}: the file changed while gamebin read it",
            path.display()
        )),
        "{said}"
    );
    assert!(
        said.contains("SIGBUS") && said.contains("Use --no-mmap"),
        "{said}"
    );
    assert!(printed < lines, "it stopped where the file was gone");

    // Read into memory, the file is as it was when opened: every line, exit status 0.
    synth(true);
    let (out, printed) = ls_truncated_midway(&file, true);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stderr.is_empty());
    assert_eq!(printed, lines);
    std::fs::remove_dir_all(&dir).unwrap();
}

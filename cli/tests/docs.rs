//! The reference (`cli/README.md`) and `--help` agree: every command `gamebin --help` lists, and
//! every option each one takes, is in the reference; no command's examples repeat a line, and
//! `export`'s show both outputs (GLB and OBJ).

mod common;
use common::{at_repository_root, gamebin, leaf_commands, root};

fn help(command: &[String]) -> String {
    let mut args: Vec<&str> = command.iter().map(String::as_str).collect();
    args.push("--help");
    String::from_utf8(gamebin(&args).stdout).unwrap()
}

/// The options a help text lists, each as the spellings the reference may use (`-o` or
/// `--output`), without the global ones.
fn options(help: &str) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    for line in help.lines() {
        // Option lines are indented by 2 ("-o, --output <FILE>") or 6 ("--force"); their
        // descriptions by 10.
        let indent = line.len() - line.trim_start().len();
        let line = line.trim_start();
        if !(2..=6).contains(&indent) || !line.starts_with('-') {
            continue;
        }
        let spellings: Vec<String> = line
            .split_whitespace()
            .take_while(|w| w.starts_with('-'))
            .map(|w| w.trim_end_matches(',').to_owned())
            .collect();
        if spellings
            .iter()
            .any(|o| ["--help", "--version", "--no-mmap"].contains(&o.as_str()))
        {
            continue;
        }
        found.push(spellings);
    }
    found
}

#[test]
fn the_reference_names_every_command_and_option() {
    at_repository_root();
    let reference = std::fs::read_to_string(root().join("cli/README.md")).unwrap();
    let mut commands = Vec::new();
    leaf_commands(&[], &mut commands);
    assert!(commands.len() > 15, "{commands:?}");
    let mut missing = Vec::new();
    for command in &commands {
        let name = format!("gamebin {}", command.join(" "));
        if !reference.contains(&name) {
            missing.push(name.clone());
        }
        for spellings in options(&help(command)) {
            if !spellings.iter().any(|o| {
                reference.contains(&format!("{o} "))
                    || reference.contains(&format!("{o}`"))
                    || reference.contains(&format!("{o}]"))
            }) {
                missing.push(format!("{name} {}", spellings.join(", ")));
            }
        }
    }
    assert!(missing.is_empty(), "not in cli/README.md: {missing:#?}");
}

#[test]
fn examples_do_not_repeat_and_export_shows_obj() {
    at_repository_root();
    let mut commands = Vec::new();
    leaf_commands(&[], &mut commands);
    for command in &commands {
        let text = help(command);
        let Some((_, examples)) = text.split_once("Example") else {
            continue;
        };
        let lines: Vec<&str> = examples
            .lines()
            .skip(1)
            .map(str::trim)
            .filter(|l| l.starts_with("gamebin "))
            .collect();
        for (i, line) in lines.iter().enumerate() {
            assert!(
                !lines[..i].contains(line),
                "gamebin {} --help shows {line:?} twice",
                command.join(" ")
            );
        }
    }
    let export = help(&["export".to_owned()]);
    let (_, examples) = export.split_once("Examples:").unwrap();
    assert!(
        examples
            .lines()
            .any(|l| l.contains("gamebin export") && !l.contains(".glb")),
        "no OBJ example: {examples}"
    );
}

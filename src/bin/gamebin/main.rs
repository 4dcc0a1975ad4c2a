//! `gamebin`: read game data files in place from the command line.
//!
//! Exit status: 0 when every file was read, 1 when any file failed (each error on stderr, with its
//! file offset; the other files are still processed), 2 for usage errors.

mod dump;
mod export;
mod files;
mod geometry;
mod info;
mod output;
mod render;
mod wwd;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Read game data files in place: World of Warships .geometry, Claw / Gruntz .wwd levels (more
/// formats to come).
///
/// Formats are detected by content, never by file name.
#[derive(Debug, Parser)]
#[command(name = "gamebin", version, about, long_about = None, propagate_version = true)]
#[command(
    after_help = "Examples:\n  gamebin info fixtures\n  gamebin info --json ~/games/wows/res \
                        > inventory.jsonl\n  gamebin dump --json ship.geometry\n  gamebin export ship.geometry -o meshes/\n  gamebin wwd render RETAIL01.WWD -o level1.png"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// One summary line per file (counts of buffers, mappings, models, vertices, indices).
    ///
    /// Directories are walked recursively; files in them whose format is not recognised are
    /// skipped (and counted on stderr). A file named on the command line must be recognised.
    Info {
        /// Files or directories.
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
        /// One JSON object per line instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Everything the reader decodes from one file: buffers (with the bounds of their decoded
    /// positions), mappings, draws, collision and armor models.
    Dump {
        /// The file.
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// One JSON document instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Writes one Wavefront OBJ per draw of a .geometry (positions, normals, UVs, faces), named
    /// after its mapping ids, ready to open in Blender.
    ///
    /// Coordinates are converted from the game's left-handed, Y-up space to OBJ's right-handed,
    /// Y-up space (X is negated and faces are rewound), and UVs from the stored `uv - 0.5` to 0..1
    /// with V flipped.
    Export {
        /// The .geometry file.
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// Output directory (created if missing).
        #[arg(short, long, value_name = "DIR")]
        output: PathBuf,
    },
    /// Claw / Gruntz .wwd levels.
    Wwd {
        #[command(subcommand)]
        command: WwdCommand,
    },
}

#[derive(Debug, Subcommand)]
enum WwdCommand {
    /// Draws one plane of a level as a PNG: each tile coloured by its tile property's attribute
    /// (clear, solid, ground, climb, death, user attributes; double and mask tiles pixel by pixel),
    /// invisible and filled tiles distinct, objects marked as yellow squares, and a legend.
    ///
    /// Only the main plane has tile properties; other planes show their tiles in grey. By default
    /// the scale makes the picture about 4096 pixels wide (2 to 16 pixels per tile), so a whole
    /// Claw level fits.
    Render {
        /// The .wwd level.
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// The plane to draw (e.g. Action, Background, Front); default: the main plane.
        #[arg(long, value_name = "NAME")]
        plane: Option<String>,
        /// Pixels per tile (1 to 64); default: automatic.
        #[arg(long, value_name = "PX")]
        scale: Option<u32>,
        /// The PNG to write.
        #[arg(short, long, value_name = "PNG")]
        output: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Info { paths, json } => info::run(&paths, json),
        Command::Dump { file, json } => dump::run(&file, json),
        Command::Export { file, output } => export::run(&file, &output),
        Command::Wwd {
            command:
                WwdCommand::Render {
                    file,
                    plane,
                    scale,
                    output,
                },
        } => render::run(&file, plane.as_deref(), &output, scale),
    };
    match outcome {
        Ok(output::Status::Success) => ExitCode::SUCCESS,
        Ok(output::Status::SomeFailed) => ExitCode::from(1),
        Err(e) => {
            eprintln!("gamebin: {e:#}");
            ExitCode::from(1)
        }
    }
}

//! `gamebin`: read game data files in place from the command line.
//!
//! Exit status: 0 when every file was read, 1 when any file failed (each error on stderr, with its
//! file offset; the other files are still processed), 2 for usage errors.

mod assets;
mod assets_get;
mod assets_ls;
mod dump;
mod export;
mod files;
mod geometry;
mod info;
mod output;
mod synth;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Read game data files in place: World of Warships .geometry and assets.bin (more formats to come).
///
/// Formats are detected by content, never by file name.
#[derive(Debug, Parser)]
#[command(name = "gamebin", version, about, long_about = None, propagate_version = true)]
#[command(
    after_help = "Examples:\n  gamebin info fixtures\n  gamebin info --json ~/games/wows/res \
                        > inventory.jsonl\n  gamebin dump --json ship.geometry\n  gamebin export ship.geometry -o meshes/\n  gamebin assets ls assets.bin \
                        content/gameplay/japan\n  gamebin assets get assets.bin content/gameplay/japan/ship/destroyer/JSD011_Akizuki_1944/JSD011_Akizuki_1944.model"
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
    /// World of Warships assets.bin: look prototypes up and list paths.
    Assets {
        #[command(subcommand)]
        command: AssetsCommand,
    },
    /// Writes synthetic files for benchmarks and tests.
    Synth {
        #[command(subcommand)]
        command: SynthCommand,
    },
}

#[derive(Debug, Subcommand)]
enum AssetsCommand {
    /// One prototype as JSON, names resolved. KEY is a resource id (`0x…` or decimal) or a full
    /// path (`content/…`; a leading `res/` is dropped), looked up by its CityHash64 and, if the
    /// file's ids are not path hashes, by walking the path table.
    Get {
        #[arg(value_name = "FILE")]
        file: PathBuf,
        #[arg(value_name = "ID|PATH")]
        key: String,
    },
    /// Every full path with its id and prototype type, one per line (streamed), optionally only
    /// those starting with PREFIX.
    Ls {
        #[arg(value_name = "FILE")]
        file: PathBuf,
        #[arg(value_name = "PREFIX")]
        prefix: Option<String>,
    },
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum ScaleArg {
    /// The real file's table sizes (246,065 paths, about 170 MB).
    Full,
    /// About a hundredth of it, for quick tests.
    Small,
}

#[derive(Debug, Subcommand)]
enum SynthCommand {
    /// A deterministic assets.bin (the same bytes on every run).
    Assets {
        #[arg(long, value_enum, default_value = "full")]
        scale: ScaleArg,
        /// Output file.
        #[arg(short, long, value_name = "FILE")]
        output: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Info { paths, json } => info::run(&paths, json),
        Command::Dump { file, json } => dump::run(&file, json),
        Command::Export { file, output } => export::run(&file, &output),
        Command::Assets {
            command: AssetsCommand::Get { file, key },
        } => assets_get::run(&file, &key),
        Command::Assets {
            command: AssetsCommand::Ls { file, prefix },
        } => assets_ls::run(&file, prefix.as_deref()),
        Command::Synth {
            command: SynthCommand::Assets { scale, output },
        } => synth::run_assets(
            match scale {
                ScaleArg::Full => gamebin::write::assets_synth::Scale::Full,
                ScaleArg::Small => gamebin::write::assets_synth::Scale::Small,
            },
            &output,
        ),
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

//! `gamebin`: read game data files in place from the command line.
//!
//! Exit status: 0 when every file was read, 1 when any file failed (each error on stderr, with its
//! file offset; the other files are still processed), 2 for usage errors.
//!
//! This file parses the command line (its grammar, every clap type, is in `args.rs`) and hands
//! each command to the module that runs it; it holds no command's logic.
#![deny(unsafe_code)]

/// `std::eprintln!` panics when stderr cannot be written (a full disk behind `2>file`, a closed
/// pipe), and a panic would turn the exit status into 101 and hide the real outcome. Messages to a
/// stderr that cannot take them are lost instead; the exit status still says what happened. Defined
/// before the modules so that it shadows the standard macro in all of them.
macro_rules! eprintln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod args;
mod assets;
mod assets_get;
mod assets_ls;
mod assets_pack;
mod batch;
mod check;
mod craftstudio;
mod craftstudio_check;
mod diff;
mod diff_install;
mod dump;
mod export;
mod files;
mod geometry;
mod idx;
mod info;
mod install;
mod model;
mod model_source;
mod output;
mod parallel;
mod params;
mod pfs;
mod render;
mod sigbus;
mod synth;
mod texture;
mod wdata;
mod wdb;
mod wdb_pack;
mod wwd;

use std::process::ExitCode;

use clap::Parser as _;

use args::{
    AssetsCommand, Cli, Command, CraftStudioCommand, GeometryCommand, ParamsCommand, PfsCommand,
    SynthCommand, WdataCommand, WdbCommand, WwdCommand,
};

/// The reading flags of a command that has `--ignore-signature`.
fn read_options(ignore_signature: bool) -> files::ReadOptions {
    files::ReadOptions { ignore_signature }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    files::set_no_mmap(cli.no_mmap);
    if !cli.no_mmap {
        sigbus::install();
    }
    let outcome = match cli.command {
        Command::Diff {
            a,
            b,
            json,
            only,
            prefix,
        } => match diff_install::sources(&a, &b) {
            Some((old, new)) => diff_install::run(
                old,
                new,
                &diff_install::Settings {
                    only,
                    prefix: prefix.as_deref(),
                    json,
                },
            ),
            None if only.is_some() || prefix.is_some() => {
                eprintln!(
                    "gamebin diff: --only and --prefix compare two game installs; {} and {} are \
                     files",
                    a.display(),
                    b.display()
                );
                Ok(output::Status::Usage)
            }
            None => return ExitCode::from(diff::run(&a, &b, json).code()),
        },
        Command::Info {
            paths,
            json,
            ignore_signature,
        } => info::run(&paths, json, read_options(ignore_signature)),
        Command::Dump {
            file,
            json,
            complete,
            ignore_signature,
        } => dump::run(&file, json, complete, read_options(ignore_signature)),
        Command::Check {
            paths,
            json,
            ignore_signature,
        } => check::run(&paths, json, read_options(ignore_signature)),
        Command::Export {
            file,
            output,
            format,
            armor,
            force,
            partial,
        } => export::run(
            &file,
            &output,
            &export::Settings {
                format,
                armor,
                force,
                partial,
            },
        ),
        Command::Wdb(WdbCommand::Pack {
            input,
            output,
            force,
        }) => wdb_pack::run(&input, &output, force),
        Command::Wdb(WdbCommand::Json { file, fields }) => wdb::json(&file, &fields.source()),
        Command::Wdb(WdbCommand::Csv {
            file,
            output,
            fields,
            force,
        }) => wdb_pack::export(
            &file,
            &output,
            wdb_pack::Sheet::Csv,
            &fields.source(),
            force,
        ),
        Command::Wdb(WdbCommand::Xlsx {
            file,
            output,
            fields,
            force,
        }) => wdb_pack::export(
            &file,
            &output,
            wdb_pack::Sheet::Xlsx,
            &fields.source(),
            force,
        ),
        Command::Geometry {
            command:
                GeometryCommand::Pack {
                    json,
                    output,
                    force,
                },
        } => geometry::pack_run(&json, &output, force),
        Command::Wdata {
            command:
                WdataCommand::Pack {
                    json,
                    output,
                    force,
                },
        } => wdata::pack_run(&json, &output, force),
        Command::Craftstudio(CraftStudioCommand::Check { dir, json }) => {
            craftstudio_check::run(&dir, json)
        }
        Command::Wwd {
            command:
                WwdCommand::Render {
                    file,
                    plane,
                    scale,
                    output,
                    no_crop,
                    ignore_signature,
                    force,
                },
        } => render::run(
            &file,
            &render::Settings {
                plane: plane.as_deref(),
                scale,
                crop: !no_crop,
                read: read_options(ignore_signature),
                force,
            },
            &output,
        ),
        Command::Wwd {
            command:
                WwdCommand::Tiled {
                    file,
                    output,
                    force,
                    placeholders,
                    ignore_signature,
                },
        } => wwd::tiled(
            &file,
            &output,
            read_options(ignore_signature),
            force,
            placeholders,
        ),
        Command::Wwd {
            command:
                WwdCommand::FromTiled {
                    file,
                    output,
                    force,
                },
        } => wwd::from_tiled(&file, &output, force),
        Command::Assets {
            command:
                AssetsCommand::Get {
                    file,
                    key,
                    complete,
                },
        } => assets_get::run(&file, &key, complete),
        Command::Assets {
            command:
                AssetsCommand::Unpack {
                    file,
                    output,
                    force,
                },
        } => assets_pack::unpack_run(&file, output.as_deref(), force),
        Command::Assets {
            command:
                AssetsCommand::Pack {
                    json,
                    output,
                    force,
                },
        } => assets_pack::pack_run(&json, &output, force),
        Command::Assets {
            command: AssetsCommand::Ls { file, prefix },
        } => assets_ls::run(&file, prefix.as_deref()),
        Command::Model(args) => model::run(args),
        Command::Texture {
            file,
            output,
            mip,
            slice,
            max_size,
            force,
        } => texture::run(
            &file,
            &output,
            &texture::Settings {
                mip,
                slice,
                max_size,
                force,
                read: read_options(false),
            },
        ),
        Command::Pfs {
            command:
                PfsCommand::Ls {
                    install,
                    selections,
                    json,
                },
        } => {
            let (source, selections) = install.split(selections);
            pfs::ls(source, &selections, json)
        }
        Command::Pfs {
            command: PfsCommand::Cat { install, path },
        } => {
            let (source, operands) = install.split(path.into_iter().collect());
            match operands.as_slice() {
                [path] => pfs::cat(source, path),
                _ => {
                    use clap::CommandFactory as _;
                    let mut cli = Cli::command();
                    cli.build();
                    // The error's usage line is `pfs cat`'s, not the top level's.
                    let mut cat = cli
                        .find_subcommand_mut("pfs")
                        .and_then(|pfs| pfs.find_subcommand_mut("cat"))
                        .cloned()
                        .unwrap_or(cli);
                    cat.error(
                        clap::error::ErrorKind::WrongNumberOfValues,
                        "pfs cat takes one PATH (after INSTALL, or alone with --idx and --pkg)",
                    )
                    .exit()
                }
            }
        }
        Command::Pfs {
            command:
                PfsCommand::Extract {
                    install,
                    selections,
                    output,
                    force,
                    changed_since,
                },
        } => {
            let (source, selections) = install.split(selections);
            let since = changed_since.as_deref().map(|old| {
                install::Source::game_operand(old).unwrap_or(install::Source::Game(old))
            });
            pfs::extract(source, &selections, &output, force, since)
        }
        Command::Synth {
            command:
                SynthCommand::Assets {
                    scale,
                    output,
                    res,
                    patched,
                    force,
                },
        } => synth::run_assets(scale.into(), &output, res.as_deref(), patched, force),
        Command::Params {
            command:
                ParamsCommand::Export {
                    file,
                    output,
                    split,
                    region,
                    pretty,
                    force,
                },
        } => params::export(
            &file,
            &params::ExportArgs {
                output: output.as_deref(),
                split: split.as_deref(),
                region: region.as_deref(),
                pretty,
                force,
            },
        ),
        Command::Params {
            command:
                ParamsCommand::Ls {
                    file,
                    ty,
                    nation,
                    species,
                    region,
                    json,
                },
        } => params::ls(
            &file,
            &params::LsFilter {
                ty: ty.as_deref(),
                nation: nation.as_deref(),
                species: species.as_deref(),
                region: region.as_deref(),
            },
            json,
        ),
        Command::Params {
            command:
                ParamsCommand::Get {
                    file,
                    key,
                    path,
                    region,
                },
        } => params::get(&file, &key, path.as_deref(), region.as_deref()),
        Command::Synth {
            command:
                SynthCommand::Params {
                    scale,
                    output,
                    regional,
                    update,
                    force,
                },
        } => params::synth(
            matches!(scale, args::ScaleArg::Full),
            regional,
            update,
            &output,
            force,
        ),
        Command::Synth {
            command:
                SynthCommand::Install {
                    scale,
                    output,
                    update,
                    force,
                },
        } => synth::run_install(scale.into(), &output, update, force),
    };
    match outcome {
        // A damaged index of an install read in the run was named on stderr: the run fails.
        Ok(output::Status::Success) if install::damaged_reported() => ExitCode::from(1),
        Ok(output::Status::Success) => ExitCode::SUCCESS,
        Ok(output::Status::SomeFailed) => ExitCode::from(1),
        Ok(output::Status::Usage) => ExitCode::from(2),
        // Stdout's reader went away (`| head`): the run stopped there; nothing failed.
        Err(e) if output::is_closed_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gamebin: {e:#}");
            ExitCode::from(1)
        }
    }
}

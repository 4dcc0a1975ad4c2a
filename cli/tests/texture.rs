//! `gamebin texture`: a level decoded to PNG, the pixels the library decodes, and the CLI's
//! manners (no silent overwrite, a missing level named, another format refused).

mod common;

use common::{at_repository_root, gamebin, stderr, temp_dir};

/// The PNG's size and RGBA8 pixels.
fn read_png(path: &std::path::Path) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut pixels).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgba);
    pixels.truncate(info.buffer_size());
    (info.width, info.height, pixels)
}

#[test]
fn a_level_is_written_as_the_png_of_its_decoded_pixels() {
    at_repository_root();
    let dir = temp_dir("texture-png");
    let bytes = std::fs::read("fixtures/dds/bc7_dx10.dds").unwrap();
    let view = gamebin::dds::DdsView::from_bytes(&bytes).unwrap();
    for mip in [0u32, 2] {
        let out = dir.join(format!("mip{mip}.png"));
        let run = gamebin(&[
            "texture",
            "fixtures/dds/bc7_dx10.dds",
            "-o",
            out.to_str().unwrap(),
            "--mip",
            &mip.to_string(),
        ]);
        assert!(run.status.success(), "{}", stderr(&run));
        let level = view.level(0, mip).unwrap();
        let mut want = vec![0; level.rgba8_len().unwrap()];
        level.decode_rgba8(&mut want).unwrap();
        assert_eq!(read_png(&out), (16 >> mip, 8 >> mip, want));
    }
}

#[test]
fn max_size_picks_a_mip_and_a_cube_face_is_chosen_by_slice() {
    at_repository_root();
    let dir = temp_dir("texture-max-size");
    let out = dir.join("face.png");
    let run = gamebin(&[
        "texture",
        "fixtures/dds/bc1_cube.dds",
        "-o",
        out.to_str().unwrap(),
        "--slice",
        "5",
        "--max-size",
        "3",
    ]);
    assert!(run.status.success(), "{}", stderr(&run));
    assert!(
        stderr(&run).contains("slice 5 mip 2, 2x2"),
        "{}",
        stderr(&run)
    );
    assert_eq!(read_png(&out).0, 2);
}

#[test]
fn mistakes_are_named_and_nothing_is_overwritten() {
    at_repository_root();
    let dir = temp_dir("texture-mistakes");
    let out = dir.join("x.png");
    std::fs::write(&out, b"keep").unwrap();
    let run = gamebin(&[
        "texture",
        "fixtures/dds/l8.dds",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(1));
    assert!(stderr(&run).contains("use --force"), "{}", stderr(&run));
    assert_eq!(std::fs::read(&out).unwrap(), b"keep");

    let fresh = dir.join("y.png");
    let run = gamebin(&[
        "texture",
        "fixtures/dds/l8.dds",
        "-o",
        fresh.to_str().unwrap(),
        "--mip",
        "7",
    ]);
    assert_eq!(run.status.code(), Some(1));
    assert!(
        stderr(&run).contains("no slice 0 mip 7: the texture has 1 slice and 2 mip levels"),
        "{}",
        stderr(&run)
    );
    assert!(!fresh.exists());

    let run = gamebin(&[
        "texture",
        "fixtures/ff13-wdb/items.wdb",
        "-o",
        fresh.to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(1));
    assert!(
        stderr(&run).contains("texture reads .dds textures"),
        "{}",
        stderr(&run)
    );
    assert!(!fresh.exists());
}

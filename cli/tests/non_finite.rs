//! A `.geometry` whose texture coordinates store NaN and infinity (as a real hull section does):
//! `check`, `dump` and `export` each name the draw and the attribute as a warning, and the export
//! still succeeds with the values written as 0.

mod common;

use common::{gamebin, stderr, temp_dir};
use gamebin::synth::geometry::cube;
use gamebin::wows::geometry::model::GeometryBuilder;

#[test]
fn check_dump_and_export_warn_of_non_finite_attributes() {
    let (mut vertices, indices) = cube([0.0; 3], 1.0);
    vertices[3].uv = [f32::NAN, 0.0];
    let mut builder = GeometryBuilder::new();
    let vb = builder.vertex_buffer("set3/xyznuvtbpc", false);
    let ib = builder.index_buffer(2, false);
    builder
        .mesh("Hull", vb, ib, 0, &vertices, &indices)
        .unwrap();
    let dir = temp_dir("non-finite");
    let file = dir.join("hull.geometry");
    std::fs::write(&file, builder.to_bytes().unwrap()).unwrap();
    let file = file.to_str().unwrap();
    let glb = dir.join("hull.glb");
    let warning = "texture coordinates of 1 vertex(es) not finite (NaN or infinite; the first is vertex 3) (exported as 0)";
    for args in [
        vec!["check", file],
        vec!["dump", file],
        vec!["dump", "--json", file],
        vec!["export", file, "-o", glb.to_str().unwrap()],
    ] {
        let out = gamebin(&args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        let text = format!("{}{}", stderr(&out), String::from_utf8_lossy(&out.stdout));
        assert!(text.contains(warning), "{args:?}: {text}");
        assert!(text.contains("draw 0x"), "{args:?} names the draw: {text}");
    }
    assert!(glb.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

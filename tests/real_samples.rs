//! Real World of Warships files from `$GAMEBIN_SAMPLES/wows-geometry`, checked against the facts
//! their SOURCES.txt states and against each other (an ENCD file and its raw twin). Without
//! `GAMEBIN_SAMPLES` the tests say they skipped.

use std::path::PathBuf;

use gamebin::MappedFile;
use gamebin::wows::geometry::{GeometryView, Indices, MappingKind, Vertices};

fn samples() -> Option<PathBuf> {
    match std::env::var_os("GAMEBIN_SAMPLES") {
        Some(dir) => Some(PathBuf::from(dir).join("wows-geometry")),
        None => {
            eprintln!("skipped: GAMEBIN_SAMPLES is not set");
            None
        }
    }
}

fn open(name: &str) -> Option<MappedFile> {
    let path = samples()?.join(name);
    Some(MappedFile::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

/// Every buffer of a file, decoded: (vertex bytes, stride, format) per vertex buffer, indices per
/// index buffer.
struct Decoded {
    vertices: Vec<(Vec<u8>, usize, gamebin::wows::geometry::VertexFormat)>,
    indices: Vec<Vec<u32>>,
}

fn decode_all(view: &GeometryView<'_>) -> Decoded {
    let vertices = view
        .vertex_buffers()
        .map(|vb| {
            let mut out = vec![0u8; vb.decoded_len().unwrap()];
            let n = vb.decode_vertices_into(&mut out).unwrap();
            assert_eq!(n * vb.stride(), out.len());
            (out, vb.stride(), vb.format().unwrap())
        })
        .collect();
    let indices = view
        .index_buffers()
        .map(|ib| {
            let mut out = vec![0u32; ib.index_count().unwrap()];
            ib.decode_indices_into(&mut out).unwrap();
            out
        })
        .collect();
    Decoded { vertices, indices }
}

const ALL: [&str; 5] = [
    "CM001_0.11.5.geometry",
    "CM001_p2g_0.10.2.geometry",
    "CM001_p2g_0.11.5.geometry",
    "CPA003_Shell_CS_0.11.5.geometry",
    "FSD012_Kleber_1952_0.11.5.geometry",
];

#[test]
fn every_sample_is_detected_opens_validates_and_decodes() {
    let Some(dir) = samples() else { return };
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "geometry") {
            continue;
        }
        seen += 1;
        let file = MappedFile::open(&path).unwrap();
        assert_eq!(
            gamebin::detect(&file),
            Some(gamebin::Format::WowsGeometry),
            "{}",
            path.display()
        );
        let view = GeometryView::open(&file).unwrap();
        view.validate()
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let decoded = decode_all(&view);
        assert!(!decoded.vertices.is_empty() && !decoded.indices.is_empty());
        for vb in view.vertex_buffers() {
            assert_eq!(vb.format_name().unwrap(), "set3/xyznuvtbpc");
            assert_eq!(vb.stride(), 28);
        }
    }
    assert_eq!(seen, ALL.len(), "samples in {}", dir.display());
}

#[test]
fn sources_txt_facts() {
    let Some(_) = samples() else { return };
    // "ENCD-encoded (vertex codec v0, index codec v0)"
    let file = open("CM001_p2g_0.11.5.geometry").unwrap();
    let view = GeometryView::open(&file).unwrap();
    let vb = view
        .vertex_buffer(0)
        .unwrap()
        .encoded()
        .unwrap()
        .expect("ENCD vertices");
    let ib = view
        .index_buffer(0)
        .unwrap()
        .encoded()
        .unwrap()
        .expect("ENCD indices");
    assert_eq!(vb.codec_byte(), Some(0xa0));
    assert_eq!(ib.codec_byte(), Some(0xe0));
    // The others are raw.
    for name in [ALL[0], ALL[1], ALL[3], ALL[4]] {
        let file = open(name).unwrap();
        let view = GeometryView::open(&file).unwrap();
        assert!(
            view.vertex_buffers().all(|b| !b.is_encoded().unwrap()),
            "{name}"
        );
        assert!(
            view.index_buffers().all(|b| !b.is_encoded().unwrap()),
            "{name}"
        );
    }
    // "raw, 3 LOD mappings" and "raw, 1 vertex format, 3 mappings"
    for name in [ALL[0], ALL[3]] {
        let file = open(name).unwrap();
        let view = GeometryView::open(&file).unwrap();
        assert_eq!(view.vertex_mappings().len(), 3, "{name}");
        assert_eq!(view.index_mappings().len(), 3, "{name}");
        assert_eq!(view.draws().count(), 3, "{name}: every mapping pairs");
    }
    // "1 ArmorModelPrototype "CM_PA_united.armor" (2072 triangles)"
    let file = open("FSD012_Kleber_1952_0.11.5.geometry").unwrap();
    let view = GeometryView::open(&file).unwrap();
    assert_eq!(view.armor_models().len(), 1);
    assert_eq!(view.collision_models().len(), 0);
    let armor = view.armor_models().next().unwrap();
    assert_eq!(armor.name().unwrap(), "CM_PA_united.armor");
    let payload = armor.armor().unwrap();
    assert_eq!(payload.triangle_count().unwrap(), 2072);
    assert_eq!(payload.id(), 0x8000_0001);
    assert_eq!(
        payload.trailing_bytes().unwrap(),
        0,
        "the nodes fill the payload exactly"
    );
    for node in payload.nodes() {
        let node = node.unwrap();
        node.check().unwrap();
        for v in node.vertices() {
            let n = v.normal();
            let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
            assert!(
                (len - 1.0).abs() <= 0.02,
                "armor normal {n:?} has length {len}"
            );
        }
        assert!(node.layer_index() >= 1, "layers are 1-based");
        // Every triangle lies inside its node's bounds and the node inside the model's.
        let (b, all) = (node.bounds(), payload.bounds());
        for t in node.triangles() {
            for p in t {
                for (k, c) in p.into_iter().enumerate() {
                    assert!(c >= b.min[k] - 1e-3 && c <= b.max[k] + 1e-3);
                    assert!(c >= all.min[k] - 1e-3 && c <= all.max[k] + 1e-3);
                }
            }
        }
    }
}

#[test]
fn encd_decodes_to_the_raw_twin() {
    let (Some(encd), Some(raw)) = (
        open("CM001_p2g_0.11.5.geometry"),
        open("CM001_p2g_0.10.2.geometry"),
    ) else {
        return;
    };
    let (encd, raw) = (
        GeometryView::open(&encd).unwrap(),
        GeometryView::open(&raw).unwrap(),
    );
    let decoded = decode_all(&encd);
    let raw_vertices = raw.vertex_buffer(0).unwrap().raw_vertices().unwrap();
    assert_eq!(decoded.vertices[0].0.len(), 24 * 28);
    // The first vertex as the file stores it: (-0.5, -0.5, -0.5), normal 7f 7f 00 = (0, 0, -1),
    // tangent fe 7f 7f = (1, 0, 0), binormal 7f 00 7f = (0, -1, 0).
    assert_eq!(raw_vertices.position(0), Some([-0.5, -0.5, -0.5]));
    assert_eq!(raw_vertices.normal(0), Some([0.0, 0.0, -1.0]));
    assert_eq!(raw_vertices.tangent(0), Some([1.0, 0.0, 0.0]));
    assert_eq!(raw_vertices.binormal(0), Some([0.0, -1.0, 0.0]));
    assert!(
        decoded.vertices[0].0 == raw_vertices.bytes(),
        "decoded ENCD vertices equal the raw twin byte for byte"
    );

    // The same triangles, possibly rotated within a triangle.
    let canonical = |t: [u32; 3]| {
        let k = (0..3).min_by_key(|&k| t[k]).unwrap();
        [t[k], t[(k + 1) % 3], t[(k + 2) % 3]]
    };
    let ours: Vec<_> = Indices::from(decoded.indices[0].as_slice())
        .triangles()
        .map(canonical)
        .collect();
    let theirs: Vec<_> = raw
        .index_buffer(0)
        .unwrap()
        .raw_indices()
        .unwrap()
        .triangles()
        .map(canonical)
        .collect();
    assert_eq!(ours.len(), 12);
    assert_eq!(ours, theirs);

    // The typed variant gives the same bytes.
    let mut typed = vec![[0u8; 28]; 24];
    assert_eq!(
        encd.vertex_buffer(0)
            .unwrap()
            .decode_vertices_into_typed(&mut typed)
            .unwrap(),
        24
    );
    assert!(typed.concat() == raw_vertices.bytes());
    let mut narrow = vec![0u16; 36];
    encd.index_buffer(0)
        .unwrap()
        .decode_indices_into(&mut narrow)
        .unwrap();
    assert!(
        narrow
            .iter()
            .map(|&i| u32::from(i))
            .eq(decoded.indices[0].iter().copied())
    );
}

#[test]
fn indices_stay_within_their_draws_and_normals_are_unit() {
    let Some(_) = samples() else { return };
    for name in ALL {
        let file = open(name).unwrap();
        let view = GeometryView::open(&file).unwrap();
        let decoded = decode_all(&view);
        let mut draws = 0;
        for draw in view.draws() {
            draws += 1;
            let (bytes, stride, format) = &decoded.vertices[draw.vertices.buffer_index()];
            let merged = Vertices::new(bytes, *stride, *format).unwrap();
            let vertices = draw
                .vertices_in(&merged)
                .expect("vertex range inside the buffer");
            let indices = draw
                .indices_in(&Indices::from(
                    decoded.indices[draw.indices.buffer_index()].as_slice(),
                ))
                .expect("index range inside the buffer");
            assert_eq!(draw.vertices.texel_density(), draw.indices.texel_density());
            assert_eq!(indices.len() % 3, 0);
            let max = indices.max().unwrap();
            assert!(
                (max as usize) < vertices.len(),
                "{name}: draw {:#x} index {max} >= {} vertices",
                draw.vertices.id(),
                vertices.len()
            );
            for n in vertices.normals() {
                let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
                assert!(
                    (len - 1.0).abs() <= 0.02,
                    "{name}: normal {n:?} has length {len}"
                );
            }
            for uv in vertices.uvs() {
                assert!(
                    uv.iter().all(|c| c.is_finite() && c.abs() <= 8.0),
                    "{name}: uv {uv:?}"
                );
            }
        }
        assert_eq!(
            draws,
            view.vertex_mappings().len(),
            "{name}: every vertex mapping pairs"
        );
    }
}

#[test]
fn propeller_is_found_by_name_in_the_cm001_files() {
    let Some(_) = samples() else { return };
    assert_eq!(
        MappingKind::Vertices.id_of("Propeller_meshShape"),
        0xC301_017C
    );
    assert_eq!(
        MappingKind::Indices.id_of("Propeller_meshShape"),
        0xB3CE_F438
    );
    for name in [ALL[0], ALL[1], ALL[2]] {
        let file = open(name).unwrap();
        let view = GeometryView::open(&file).unwrap();
        let m = view
            .vertex_mappings()
            .by_name("Propeller_meshShape")
            .unwrap_or_else(|| panic!("{name}"));
        assert_eq!(m.id(), 0xC301_017C);
        let draw = view
            .draw_by_name("Propeller_meshShape")
            .unwrap_or_else(|| panic!("{name}"));
        // The name-based pair is the one the file's own pairing finds.
        let paired = view
            .draws()
            .find(|d| d.vertices.id() == 0xC301_017C)
            .unwrap();
        assert_eq!(paired.indices.id(), draw.indices.id(), "{name}");
    }
}

// ---------------------------------------------------------------------------------------------
// Claw / Gruntz `.wwd` levels from `$GAMEBIN_SAMPLES/wap32-wwd`, checked against EXPECTED.tsv.

mod wwd {
    use std::collections::BTreeMap;
    use std::path::PathBuf;

    use gamebin::wwd::{ChecksumVerdict, Game, Options, TileKind, WwdView};

    fn dir() -> Option<PathBuf> {
        match std::env::var_os("GAMEBIN_SAMPLES") {
            Some(dir) => Some(PathBuf::from(dir).join("wap32-wwd")),
            None => {
                eprintln!("skipped: GAMEBIN_SAMPLES is not set");
                None
            }
        }
    }

    /// One row of EXPECTED.tsv, by column name.
    struct Row(BTreeMap<String, String>);

    impl Row {
        fn get(&self, column: &str) -> &str {
            self.0
                .get(column)
                .unwrap_or_else(|| panic!("EXPECTED.tsv has no column {column}"))
        }
        fn num(&self, column: &str) -> i64 {
            let v = self.get(column);
            match v.strip_prefix("0x") {
                Some(hex) => i64::from_str_radix(hex, 16).unwrap(),
                None => v.parse().unwrap(),
            }
        }
        /// `{"1":816,"2":111,"3":1}` → counts by type.
        fn types(&self) -> BTreeMap<u32, usize> {
            let text = self.get("tile_prop_types");
            text.trim_matches(|c| c == '{' || c == '}')
                .split(',')
                .map(|pair| {
                    let (k, v) = pair.split_once(':').unwrap();
                    (k.trim_matches('"').parse().unwrap(), v.parse().unwrap())
                })
                .collect()
        }
    }

    fn expected(dir: &std::path::Path) -> Vec<Row> {
        let text = std::fs::read_to_string(dir.join("EXPECTED.tsv")).unwrap();
        let mut lines = text.lines();
        let columns: Vec<&str> = lines.next().unwrap().split('\t').collect();
        lines
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                Row(columns
                    .iter()
                    .zip(l.split('\t'))
                    .map(|(c, v)| (c.to_string(), v.to_string()))
                    .collect())
            })
            .collect()
    }

    #[test]
    fn every_sample_matches_expected_tsv() {
        let Some(dir) = dir() else { return };
        let rows = expected(&dir);
        assert!(rows.len() >= 6);
        for row in &rows {
            let name = row.get("file");
            let data = std::fs::read(dir.join(name)).unwrap();
            assert_eq!(data.len() as i64, row.num("size"), "{name}");
            let sig_ok = row.get("sig_ok") == "True";
            let mut buffer = Vec::new();
            if !sig_ok {
                let e = WwdView::from_bytes(&data, &mut buffer).unwrap_err();
                assert_eq!(e.offset(), 0);
                assert!(e.to_string().contains("signature"), "{e}");
                assert_eq!(gamebin::detect(&data), None, "{name}");
            } else {
                assert_eq!(
                    gamebin::detect(&data),
                    Some(gamebin::Format::Wap32Wwd),
                    "{name}"
                );
            }
            let options = Options {
                ignore_signature: !sig_ok,
            };
            let view = WwdView::from_bytes_with(&data, &mut buffer, options)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            view.validate().unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(view.signature_ok(), sig_ok, "{name}");
            let game = match row.get("game") {
                "Claw" => Game::Claw,
                "Gruntz" => Game::Gruntz,
                other => panic!("unknown game {other}"),
            };
            assert_eq!(view.game(), game, "{name}");
            assert_eq!(
                view.is_compressed(),
                row.get("compression") == "zlib",
                "{name}"
            );
            assert_eq!(
                format!(
                    "{:02x}{:02x}",
                    view.stored_main_block()[0],
                    view.stored_main_block()[1]
                ),
                row.get("bytes_1524_1525"),
                "{name}"
            );
            assert_eq!(view.plane_count() as i64, row.num("num_planes"), "{name}");
            assert_eq!(
                i64::from(view.header().decompressed_mainblock_size.get()),
                row.num("mainblock_len_field"),
                "{name}"
            );
            assert_eq!(
                view.main_block_len() as i64,
                row.num("main_block_len_actual"),
                "{name}"
            );
            let mut objects = 0;
            for plane in view.planes() {
                for o in plane.objects().unwrap() {
                    o.unwrap();
                    objects += 1;
                }
            }
            assert_eq!(objects, row.num("objects"), "{name}");
            let table = view.tile_properties().unwrap();
            assert_eq!(i64::from(table.len()), row.num("tile_props"), "{name}");
            let mut types = BTreeMap::new();
            let mut end = 0;
            for p in table.iter() {
                let p = p.unwrap();
                *types.entry(p.tile_type()).or_insert(0usize) += 1;
                end = p.position() + p.size();
                if let TileKind::Mask { mask } = p.kind() {
                    assert_eq!(mask.len(), (p.width() * p.height()) as usize);
                }
            }
            assert_eq!(types, row.types(), "{name}");
            // The table ends exactly at the end of the image (notes: all 26 real files).
            assert_eq!(end, view.image().len(), "{name}");
            let checksum = view.checksum();
            assert_eq!(i64::from(checksum.stored), row.num("checksum"), "{name}");
            let residual = row.num("checksum_minus_brief_formula_on_stored_bytes");
            assert_eq!(i64::from(checksum.residual()), residual, "{name}");
            let verdict = match residual {
                0 => ChecksumVerdict::Seed,
                r @ 1..=255 => ChecksumVerdict::SeedPlusResidual(r as u8),
                _ => ChecksumVerdict::WapMap,
            };
            assert_eq!(checksum.verdict, verdict, "{name}");
        }
    }

    #[test]
    fn uncompressed_samples_round_trip_byte_for_byte() {
        let Some(dir) = dir() else { return };
        let data = std::fs::read(dir.join("claw_libwap32_RETAIL01_nocompress.WWD")).unwrap();
        let mut buffer = Vec::new();
        let view = WwdView::from_bytes(&data, &mut buffer).unwrap();
        let level = gamebin::write::wwd::Level::from_view(&view).unwrap();
        let written = level.to_uncompressed().unwrap();
        assert!(written == data, "rewritten level differs from the original");
    }

    #[test]
    fn compressed_and_uncompressed_retail_level_read_the_same() {
        let Some(dir) = dir() else { return };
        let packed = std::fs::read(dir.join("claw_libwap32_RETAIL01.WWD")).unwrap();
        let plain = std::fs::read(dir.join("claw_libwap32_RETAIL01_nocompress.WWD")).unwrap();
        let badsig = std::fs::read(dir.join("claw_libwap32_RETAIL01_badsig.WWD")).unwrap();
        let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
        let packed = WwdView::from_bytes(&packed, &mut a).unwrap();
        let plain = WwdView::from_bytes(&plain, &mut b).unwrap();
        let badsig = WwdView::from_bytes_with(
            &badsig,
            &mut c,
            Options {
                ignore_signature: true,
            },
        )
        .unwrap();
        // The re-saved copy has the same layout (its objects were edited by a later editor, so the
        // bytes differ); the badly signed copy reads exactly as the original.
        assert_eq!(packed.main_block_len(), plain.main_block_len());
        assert_eq!(packed.plane_count(), plain.plane_count());
        assert!(badsig.image()[1524..] == packed.image()[1524..]);
        assert_eq!(badsig.checksum(), packed.checksum());
        assert_eq!(badsig.header().signature.get(), 0xADBA);
        // Rewritten compressed, the level reads back to the same values.
        let level = gamebin::write::wwd::Level::from_view(&packed).unwrap();
        let again = level.to_compressed().unwrap();
        let mut d = Vec::new();
        let again = WwdView::from_bytes(&again, &mut d).unwrap();
        assert!(again.image()[1524..] == packed.image()[1524..]);
        assert_eq!(again.checksum().verdict, ChecksumVerdict::WapMap);
    }

    #[test]
    fn mask_tile_properties_read() {
        let Some(dir) = dir() else { return };
        let data = std::fs::read(dir.join("claw_libwap32_ParadiseCove.wwd")).unwrap();
        let mut buffer = Vec::new();
        let view = WwdView::from_bytes(&data, &mut buffer).unwrap();
        let masks: Vec<_> = view
            .tile_properties()
            .unwrap()
            .iter()
            .map(Result::unwrap)
            .filter(|p| matches!(p.kind(), TileKind::Mask { .. }))
            .collect();
        assert_eq!(masks.len(), 1);
        assert_eq!(view.main_plane().unwrap().name(), b"Action");
    }
}

//! Claw / Gruntz levels ↔ Tiled maps, in both directions: unedited level → map → level round
//! trips give the level back (byte-identical when uncompressed, the same main block once inflated
//! when compressed) and map → level → map ones the same map text, on every fixture and real
//! sample; the `tiled` crate reads the maps and sees what the level reader sees; edits made in the
//! map text come back as edited; bad edits are errors naming the layer, the cell or object and the
//! field.

use std::path::{Path, PathBuf};

use gamebin::wwd::export::tiled::{from_tmx, to_tmx};
use gamebin::wwd::model::{TileBody, WwdModel};
use gamebin::wwd::{Options, Tile, WwdView, text_lossy};

fn fixtures() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir("fixtures/wap32-wwd")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "wwd"))
        .collect();
    out.sort();
    out
}

fn samples() -> Option<Vec<PathBuf>> {
    let dir = std::env::var_os("GAMEBIN_SAMPLES")?;
    let mut out: Vec<PathBuf> = std::fs::read_dir(Path::new(&dir).join("wap32-wwd"))
        .ok()?
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("wwd")))
        .collect();
    out.sort();
    Some(out)
}

fn open<'a>(data: &'a [u8], buffer: &'a mut Vec<u8>) -> WwdView<'a> {
    let options = Options {
        ignore_signature: true,
    };
    WwdView::from_bytes_with(data, buffer, &mut gamebin::wwd::Inflater::new(), options).unwrap()
}

/// Level → TMX → level → bytes gives the file back (or, compressed, the same image, header fields
/// and WapMap block).
fn round_trip(path: &Path) {
    let file = std::fs::read(path).unwrap();
    let mut buffer = Vec::new();
    let view = open(&file, &mut buffer);
    let tmx = to_tmx(&WwdModel::from_view(&view).unwrap());
    let back = from_tmx(&tmx).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let written = back.to_bytes().unwrap();
    if !view.is_compressed() {
        assert!(written == file, "{path:?}: not byte-identical");
        return;
    }
    let mut buffer2 = Vec::new();
    let again = open(&written, &mut buffer2);
    assert!(again.is_compressed(), "{path:?}");
    // The inflated main blocks are equal; the header's fields too, but for the stored checksum,
    // which covers the (differently) compressed stream.
    assert!(again.image()[1524..] == view.image()[1524..], "{path:?}");
    let (mut h1, mut h2) = (*view.header(), *again.header());
    h1.checksum = 0.into();
    h2.checksum = 0.into();
    assert!(
        zerocopy::IntoBytes::as_bytes(&h1) == zerocopy::IntoBytes::as_bytes(&h2),
        "{path:?}"
    );
    assert_eq!(
        view.wapmap_meta().map(|m| m.bytes()),
        again.wapmap_meta().map(|m| m.bytes()),
        "{path:?}"
    );
}

#[test]
fn fixtures_round_trip_through_tiled() {
    for path in fixtures() {
        round_trip(&path);
    }
}

#[test]
#[ignore = "needs GAMEBIN_SAMPLES (the shared samples directory)"]
fn real_samples_round_trip_through_tiled() {
    let samples = samples().expect("GAMEBIN_SAMPLES");
    assert!(samples.len() >= 6, "{samples:?}");
    for path in samples {
        round_trip(&path);
    }
}

/// The reverse direction: a Tiled map → level → map gives the same map text (what a modder's
/// TMX goes through on each `from-tiled`, `tiled` cycle).
fn tmx_round_trip(path: &Path) {
    let file = std::fs::read(path).unwrap();
    let mut buffer = Vec::new();
    let tmx = to_tmx(&WwdModel::from_view(&open(&file, &mut buffer)).unwrap());
    let level = from_tmx(&tmx).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let again = to_tmx(&level);
    assert!(
        again == tmx,
        "{path:?}: the map changed on its way through a level"
    );
}

#[test]
fn fixtures_maps_round_trip_through_levels() {
    let fixtures = fixtures();
    assert!(!fixtures.is_empty());
    for path in fixtures {
        tmx_round_trip(&path);
    }
}

#[test]
#[ignore = "needs GAMEBIN_SAMPLES (the shared samples directory)"]
fn real_samples_maps_round_trip_through_levels() {
    let samples = samples().expect("GAMEBIN_SAMPLES");
    assert!(samples.len() >= 6, "{samples:?}");
    for path in samples {
        tmx_round_trip(&path);
    }
}

/// Replaces the `index`th cell of the tile layer `layer`'s CSV data, keeping the text around it.
fn replace_cell(tmx: &str, layer: &str, index: usize, gid: &str) -> String {
    let (start, end) = layer_data(tmx, layer);
    let data = &tmx[start..end];
    let mut cell = 0;
    let mut at = 0;
    loop {
        let begin = at + data[at..].find(|c: char| c.is_ascii_digit()).unwrap();
        let finish = begin
            + data[begin..]
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(data.len() - begin);
        if cell == index {
            return format!("{}{gid}{}", &tmx[..start + begin], &tmx[start + finish..]);
        }
        cell += 1;
        at = finish;
    }
}

/// A map edited the way Tiled writes an edit (an object moved to whole pixels, one of its
/// properties changed, a cell given another tile of its tileset, the map's name property
/// changed) comes back from a level as the same text.
#[test]
fn edited_maps_round_trip_through_levels() {
    let (level, tmx) = claw_small();
    let first = &level.planes[1].objects[0];
    let (x, y) = (first.fields.location_x.get(), first.fields.location_y.get());
    let edited = edit(
        &tmx,
        "<object id=\"1\"",
        &format!("x=\"{x}\" y=\"{y}\""),
        "x=\"640\" y=\"-32\"",
    );
    let edited = edit(
        &edited,
        "<object id=\"1\"",
        "name=\"score\" value=\"0\"",
        "name=\"score\" value=\"1234\"",
    );
    let edited = edit(
        &edited,
        "<properties>",
        "value=\"Claw - Level 1\"",
        "value=\"Level 2\"",
    );
    let first_gid = {
        let at = edited.find("name=\"ACTION\"").unwrap();
        let fg = edited[..at].rfind("firstgid=\"").unwrap() + "firstgid=\"".len();
        edited[fg..fg + edited[fg..].find('"').unwrap()]
            .parse::<u32>()
            .unwrap()
    };
    let edited = replace_cell(&edited, "Action", 0, &(first_gid + 5).to_string());
    assert!(edited != tmx);
    let back = from_tmx(&edited).unwrap();
    assert_eq!(back.planes[1].tiles[0], 5);
    assert_eq!(back.planes[1].objects[0].fields.score.get(), 1234);
    assert!(
        to_tmx(&back) == edited,
        "the edited map changed on its way through a level"
    );
}

fn string(props: &tiled::Properties, name: &str) -> Option<String> {
    match props.get(name)? {
        tiled::PropertyValue::StringValue(s) => Some(s.clone()),
        _ => None,
    }
}

/// The `tiled` crate reads the map, and what it sees is what the level reader sees: each plane's
/// size and every tile (tileset plane/set and local id), every object's position, logic and id,
/// the level's name, and the tile properties.
fn tiled_reads(path: &Path, dir: &Path) {
    let file = std::fs::read(path).unwrap();
    let mut buffer = Vec::new();
    let view = open(&file, &mut buffer);
    let tmx_path = dir.join(format!(
        "{}.tmx",
        path.file_name().unwrap().to_string_lossy()
    ));
    std::fs::write(&tmx_path, to_tmx(&WwdModel::from_view(&view).unwrap())).unwrap();
    let map = tiled::Loader::new()
        .load_tmx_map(&tmx_path)
        .unwrap_or_else(|e| panic!("{path:?}: {e}"));
    assert_eq!(
        string(&map.properties, "name").as_deref(),
        Some(&*text_lossy(view.name())),
        "{path:?}"
    );
    let tile_layers: Vec<_> = map.layers().filter_map(|l| l.as_tile_layer()).collect();
    assert_eq!(tile_layers.len(), view.plane_count(), "{path:?}");
    for (p, (plane, layer)) in view.planes().zip(&tile_layers).enumerate() {
        let tiled::TileLayer::Finite(layer) = layer else {
            panic!("{path:?}: plane {p} is not a finite layer");
        };
        let tiles = plane.tiles().unwrap();
        assert_eq!(layer.width() as usize, tiles.wide(), "{path:?}");
        assert_eq!(layer.height() as usize, tiles.high(), "{path:?}");
        for y in 0..tiles.high() {
            for x in 0..tiles.wide() {
                let cell = layer.get_tile(x as i32, y as i32);
                match (tiles.tile(x, y).unwrap(), cell) {
                    (Tile::Invisible, None) => {}
                    (Tile::Filled, Some(t)) => {
                        assert_eq!(t.get_tileset().name, "filled", "{path:?} ({x}, {y})")
                    }
                    (Tile::Image { set, index }, Some(t)) => {
                        let ts = t.get_tileset();
                        assert_eq!(string(&ts.properties, "plane"), Some(p.to_string()));
                        assert_eq!(string(&ts.properties, "set"), Some(set.to_string()));
                        assert_eq!(t.id(), u32::from(index), "{path:?} ({x}, {y})");
                    }
                    (tile, cell) => panic!(
                        "{path:?} plane {p} ({x}, {y}): {tile:?} read as {:?}",
                        cell.map(|c| c.id())
                    ),
                }
            }
        }
    }
    let objects: Vec<_> = map
        .layers()
        .filter_map(|l| l.as_object_layer())
        .flat_map(|l| l.objects().collect::<Vec<_>>())
        .collect();
    let level_objects: Vec<_> = view
        .planes()
        .flat_map(|p| p.objects().unwrap().map(Result::unwrap).collect::<Vec<_>>())
        .collect();
    assert_eq!(objects.len(), level_objects.len(), "{path:?}");
    for (t, o) in objects.iter().zip(&level_objects) {
        let (x, y) = o.location();
        assert_eq!((t.x, t.y), (x as f32, y as f32), "{path:?}");
        assert_eq!(t.user_type, text_lossy(o.logic()), "{path:?}");
        assert_eq!(string(&t.properties, "id"), Some(o.id().to_string()));
    }
    // The tile properties, on the tileset marked as carrying them.
    let table = view.tile_properties().unwrap();
    if !table.is_empty() {
        let carrier = map
            .tilesets()
            .iter()
            .find(|t| string(&t.properties, "tile_properties").as_deref() == Some("true"))
            .expect("a tileset carries the tile properties");
        for p in table.iter() {
            let p = p.unwrap();
            let tile = carrier.get_tile(p.id()).expect("a tile per tile property");
            let kind = match p.kind() {
                gamebin::wwd::TileKind::Single { .. } => "single",
                gamebin::wwd::TileKind::Double { .. } => "double",
                gamebin::wwd::TileKind::Mask { .. } => "mask",
            };
            assert_eq!(string(&tile.properties, "type").as_deref(), Some(kind));
            assert_eq!(
                string(&tile.properties, "width"),
                Some(p.width().to_string())
            );
        }
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gamebin-wwd-tiled-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn the_tiled_crate_reads_the_fixtures_maps() {
    let dir = temp_dir("fixtures");
    for path in fixtures() {
        tiled_reads(&path, &dir);
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
#[ignore = "needs GAMEBIN_SAMPLES (the shared samples directory)"]
fn the_tiled_crate_reads_the_real_samples_maps() {
    let dir = temp_dir("samples");
    for path in samples().expect("GAMEBIN_SAMPLES") {
        tiled_reads(&path, &dir);
    }
    let _ = std::fs::remove_dir_all(dir);
}

fn claw_small() -> (WwdModel, String) {
    let file = std::fs::read("fixtures/wap32-wwd/claw_small_nocompress.wwd").unwrap();
    let mut buffer = Vec::new();
    let level = WwdModel::from_view(&open(&file, &mut buffer)).unwrap();
    let tmx = to_tmx(&level);
    (level, tmx)
}

/// Replaces the first occurrence of `from` after `after` in `text`.
fn edit(text: &str, after: &str, from: &str, to: &str) -> String {
    let start = text.find(after).unwrap_or_else(|| panic!("no {after:?}"));
    let at = start
        + text[start..]
            .find(from)
            .unwrap_or_else(|| panic!("no {from:?}"));
    format!("{}{}{}", &text[..at], to, &text[at + from.len()..])
}

/// The CSV data of the tile layer named `layer`: (start, end) of its text.
fn layer_data(tmx: &str, layer: &str) -> (usize, usize) {
    let l = tmx.find("<layer id=").unwrap();
    let l = l + tmx[l..].find(&format!("name=\"{layer}\"")).unwrap();
    let start =
        l + tmx[l..].find("<data encoding=\"csv\">").unwrap() + "<data encoding=\"csv\">".len();
    let end = start + tmx[start..].find("</data>").unwrap();
    (start, end)
}

fn set_cell(tmx: &str, layer: &str, index: usize, gid: &str) -> String {
    let (start, end) = layer_data(tmx, layer);
    let mut cells: Vec<String> = tmx[start..end]
        .split(',')
        .map(|c| c.trim().to_string())
        .collect();
    cells[index] = gid.to_string();
    format!("{}\n{}\n{}", &tmx[..start], cells.join(","), &tmx[end..])
}

#[test]
fn edits_come_back_as_edited() {
    let (level, tmx) = claw_small();
    let first = &level.planes[1].objects[0];
    let (x, y) = (first.fields.location_x.get(), first.fields.location_y.get());
    // Moved object, changed property, changed tile, renamed level.
    let tmx = edit(
        &tmx,
        "<object id=\"1\"",
        &format!("x=\"{x}\" y=\"{y}\""),
        "x=\"640.4\" y=\"-32\"",
    );
    let tmx = edit(
        &tmx,
        "<object id=\"1\"",
        "name=\"score\" value=\"0\"",
        "name=\"score\" value=\"1234\"",
    );
    let tmx = edit(
        &tmx,
        "<properties>",
        "value=\"Claw - Level 1\"",
        "value=\"Tło 2\"",
    );
    // Cell 0 of the Action layer becomes tile 5 of ACTION (tileset plane 1 set 0).
    let first_gid = {
        let at = tmx.find("name=\"ACTION\"").unwrap();
        let fg = tmx[..at].rfind("firstgid=\"").unwrap() + "firstgid=\"".len();
        tmx[fg..fg + tmx[fg..].find('"').unwrap()]
            .parse::<u32>()
            .unwrap()
    };
    let tmx = set_cell(&tmx, "Action", 0, &(first_gid + 5).to_string());
    let tmx = set_cell(&tmx, "Action", 1, "0");
    let back = from_tmx(&tmx).unwrap();
    let o = &back.planes[1].objects[0];
    assert_eq!(
        (o.fields.location_x.get(), o.fields.location_y.get()),
        (640, -32)
    );
    assert_eq!(o.fields.score.get(), 1234);
    assert_eq!(back.planes[1].tiles[0], 5);
    assert_eq!(back.planes[1].tiles[1], Tile::INVISIBLE);
    assert_eq!(&back.header.name[..6], b"T\xb3o 2\0");
    // Nothing else changed: put the edited values back and the level is the same bytes.
    let mut restored = back.clone();
    restored.planes[1].objects[0] = first.clone();
    restored.planes[1].tiles[..2].copy_from_slice(&level.planes[1].tiles[..2]);
    restored.header.name = level.header.name;
    assert!(restored.to_bytes().unwrap() == level.to_bytes().unwrap());
}

/// A tileset's tile count is the highest tile id the level uses in its image set + 1; a larger
/// count (raised to place a tile the level does not use yet) is accepted, and the tile comes back
/// with its id. The last image set's tileset (FRONT, plane 2) is raised so that no other
/// tileset's gids move.
#[test]
fn a_raised_tile_count_places_new_tile_ids() {
    let (_, tmx) = claw_small();
    let front = "name=\"FRONT\" tilewidth=\"64\" tileheight=\"64\" ";
    let first_gid: u32 = {
        let at = tmx.find(front).unwrap();
        let fg = tmx[..at].rfind("firstgid=\"").unwrap() + "firstgid=\"".len();
        tmx[fg..fg + tmx[fg..].find('"').unwrap()].parse().unwrap()
    };
    assert!(tmx.contains(&format!("{front}tilecount=\"3\"")));
    let gid = (first_gid + 8).to_string();
    // Tile 8 of FRONT is beyond the tileset as written (3 tiles: the level uses ids 0 to 2).
    let e = error(&set_cell(&tmx, "Tło", 0, &gid));
    assert!(
        e.contains(&format!("unknown gid {gid}: it is beyond every tileset")),
        "{e}"
    );
    let raised = edit(&tmx, front, "tilecount=\"3\"", "tilecount=\"10\"");
    let back = from_tmx(&set_cell(&raised, "Tło", 0, &gid)).unwrap();
    assert_eq!(back.planes[2].tiles[0], 8);
    // Written again, the count is what the level now uses: tile 8 is the highest, so 9.
    assert!(to_tmx(&back).contains(&format!("{front}tilecount=\"9\"")));
}

#[track_caller]
fn error(tmx: &str) -> String {
    from_tmx(tmx).map(|_| ()).unwrap_err().to_string()
}

#[test]
fn bad_edits_name_the_layer_the_place_and_the_field() {
    let (_, tmx) = claw_small();
    // A tile id beyond every image set.
    let e = error(&set_cell(&tmx, "Action", 25, "99999"));
    assert!(
        e.contains("layer \"Action\" (plane 1), tile (1, 1)") && e.contains("gid 99999"),
        "{e}"
    );
    // A tile of another plane's image set (BACK, plane 0: gid 2).
    let e = error(&set_cell(&tmx, "Action", 2, "2"));
    assert!(
        e.contains("tile (2, 0)")
            && e.contains("0 (the plane of its image set) is not the layer's plane 1"),
        "{e}"
    );
    // A flipped tile.
    let e = error(&set_cell(
        &tmx,
        "Tło",
        0,
        &(0x8000_0000u32 + 20).to_string(),
    ));
    assert!(
        e.contains("layer \"Tło\" (plane 2), tile (0, 0)") && e.contains("flipped"),
        "{e}"
    );
    // A property that does not fit its field.
    let e = error(&edit(
        &tmx,
        "<object id=\"3\"",
        "name=\"score\" value=\"0\"",
        "name=\"score\" value=\"4294967296\"",
    ));
    assert!(
        e.contains("object 3") && e.contains("property \"score\"") && e.contains("32-bit"),
        "{e}"
    );
    let long = "x".repeat(65);
    let e = error(&edit(
        &tmx,
        "<properties>",
        "value=\"Claw - Level 1\"",
        &format!("value=\"{long}\""),
    ));
    assert!(
        e.contains("map property \"name\"") && e.contains("longer than its slot"),
        "{e}"
    );
    let e = error(&edit(
        &tmx,
        "name=\"Background\"",
        "name=\"z_coord\" value=\"-999\"",
        "name=\"z_coord\" value=\"deep\"",
    ));
    assert!(
        e.contains("layer \"Background\" (plane 0), property \"z_coord\""),
        "{e}"
    );
    // A field the level does not have.
    let e = error(&edit(
        &tmx,
        "<object id=\"2\"",
        "name=\"score\"",
        "name=\"scroe\"",
    ));
    assert!(
        e.contains("object 2") && e.contains("\"scroe\"") && e.contains("no such field"),
        "{e}"
    );
    // A tile property that does not fit: a mask of the wrong size, an unknown type.
    let e = error(&edit(
        &tmx,
        "<tile id=\"7\">",
        "name=\"mask\" value=\"",
        "name=\"mask\" value=\"00",
    ));
    assert!(
        e.contains("tile 7, property \"mask\"") && e.contains("mask"),
        "{e}"
    );
    let e = error(&edit(
        &tmx,
        "<tile id=\"5\">",
        "value=\"double\"",
        "value=\"triple\"",
    ));
    assert!(e.contains("tile 5, property \"type\""), "{e}");
    // A layer whose data no longer fills its grid.
    let e = error(&edit(&tmx, "name=\"Tło\"", "height=\"6\"", "height=\"7\""));
    assert!(
        e.contains("layer \"Tło\" (plane 2), a 4×7 layer")
            && e.contains("24 tiles for a layer of 28 cells"),
        "{e}"
    );
    // A WapMap block that is not one whole block ("Lwm_meta>" instead of "<wm_meta>").
    let e = error(&tmx.replacen(
        "<properties>",
        "<properties>\n  <property name=\"wapmap_meta\" value=\"4c776d5f6d6574613e\"/>",
        1,
    ));
    assert!(
        e.contains("map property \"wapmap_meta\"") && e.contains("WapMapMeta.open_tag"),
        "{e}"
    );
    // Not a map at all.
    assert!(error("<level/>").contains("not <map>"));
    assert!(error("<map><layer").contains("XML"));
    // An edited level still writes: its derived fields are recomputed.
    let level = from_tmx(&set_cell(&tmx, "Tło", 0, "0")).unwrap();
    assert!(matches!(level.tile_properties[7].body, TileBody::Mask(_)));
    level.to_bytes().unwrap();
}

/// Any prefix of a map, and maps with bytes changed, give a level or an error: never a panic.
#[test]
fn damaged_maps_are_errors_not_panics() {
    let (_, tmx) = claw_small();
    let bytes = tmx.as_bytes();
    for len in (0..bytes.len()).step_by(53) {
        if let Ok(text) = std::str::from_utf8(&bytes[..len]) {
            let _ = from_tmx(text);
        }
    }
    let mut state = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..120 {
        let mut damaged = bytes.to_vec();
        for _ in 0..4 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let at = (state % damaged.len() as u64) as usize;
            damaged[at] = b"0123456789,\"<>/=x-"[(state >> 40) as usize % 18];
        }
        if let Ok(text) = std::str::from_utf8(&damaged) {
            let _ = from_tmx(text);
        }
    }
    // A grid too large for any level is refused before its data is decoded.
    let huge = "<map><tileset firstgid=\"1\" tilecount=\"1\"><properties><property name=\"filled\" value=\"true\"/></properties></tileset><layer name=\"L\" width=\"100000\" height=\"100000\"><data encoding=\"base64\" compression=\"zlib\">eJw=</data></layer></map>";
    assert!(
        error(huge).contains("larger than any level"),
        "{}",
        error(huge)
    );
}

/// The colour `wwd render` gives a tile attribute (0 clear … 4 death, others user-defined).
fn attribute_colour(a: i32) -> [u8; 3] {
    match a {
        0 => [214, 232, 246],
        1 => [70, 70, 80],
        2 => [60, 170, 70],
        3 => [200, 130, 40],
        4 => [215, 30, 40],
        _ => [150, 90, 210],
    }
}

/// Placeholder images: the map names one per tileset (the `tiled` crate reads them with their
/// sizes), each picture is the tileset's grid of tiles, a tile whose property is a single
/// attribute shows that attribute's colour below its label, and the map still makes the same
/// level.
fn placeholders_fit(path: &Path, dir: &Path) {
    let file = std::fs::read(path).unwrap();
    let mut buffer = Vec::new();
    let view = open(&file, &mut buffer);
    let level = WwdModel::from_view(&view).unwrap();
    let (tmx, images) =
        gamebin::wwd::export::tiled::to_tmx_with_placeholders(&level, "tiles").unwrap();
    assert_eq!(
        from_tmx(&tmx).unwrap().to_bytes().unwrap(),
        from_tmx(&to_tmx(&level)).unwrap().to_bytes().unwrap(),
        "{path:?}: the images change the level"
    );
    let tmx_path = dir.join("placeholders.tmx");
    std::fs::write(&tmx_path, &tmx).unwrap();
    let map = tiled::Loader::new().load_tmx_map(&tmx_path).unwrap();
    let tilesets = map.tilesets();
    assert_eq!(
        tilesets.len(),
        images.len(),
        "{path:?}: an image per tileset"
    );
    let mut checked = 0;
    for (tileset, image) in tilesets.iter().zip(&images) {
        let source = tileset.image.as_ref().expect("an image").source.clone();
        assert_eq!(source, dir.join(&image.file), "{path:?}");
        let (tw, th) = (tileset.tile_width as usize, tileset.tile_height as usize);
        let columns = tileset.columns as usize;
        let rows = (tileset.tilecount as usize).div_ceil(columns);
        let picture = &image.picture;
        assert_eq!((picture.width, picture.height), (columns * tw, rows * th));
        let properties = tileset.properties.contains_key("plane");
        if !properties || tw < 16 || th < 16 {
            continue;
        }
        for id in 0..tileset.tilecount as usize {
            let Some(TileBody::Single(a)) = level.tile_properties.get(id).map(|p| &p.body) else {
                continue;
            };
            // A point in the tile's lower half, clear of the id written at its top left.
            let (x, y) = (
                (id % columns) * tw + tw / 2,
                (id / columns) * th + th * 7 / 8,
            );
            let at = (y * picture.width + x) * 3;
            assert_eq!(
                picture.pixels[at..at + 3],
                attribute_colour(*a),
                "{path:?}: tile {id} of {}",
                tileset.name
            );
            checked += 1;
        }
    }
    if !level.tile_properties.is_empty() && images.len() > 1 {
        assert!(checked > 0, "{path:?}: no tile checked");
    }
}

#[test]
fn placeholder_images_of_the_fixtures() {
    let dir = temp_dir("placeholders");
    for path in fixtures() {
        placeholders_fit(&path, &dir);
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
#[ignore = "needs GAMEBIN_SAMPLES (the shared samples directory)"]
fn placeholder_images_of_the_real_samples() {
    let dir = temp_dir("placeholders-samples");
    for path in samples().expect("GAMEBIN_SAMPLES") {
        placeholders_fit(&path, &dir);
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// The map's `signature` property is the level's, a damaged one too (as `wwd tiled
/// --ignore-signature` writes it): the level made from the map keeps it, and so opens only with
/// the option that reads a damaged signature (the interchange fuzz target's find: it had taken
/// such a level for one the writer broke).
#[test]
fn a_damaged_signature_comes_back_as_it_was() {
    let (_, tmx) = claw_small();
    let tmx = edit(
        &tmx,
        "<property name=\"signature\"",
        "value=\"1524\"",
        "value=\"1523\"",
    );
    let level = from_tmx(&tmx).unwrap();
    assert_eq!(level.header.signature.get(), 1523);
    let bytes = level.to_bytes().unwrap();
    let mut buffer = Vec::new();
    let e = WwdView::from_bytes(&bytes, &mut buffer).unwrap_err();
    assert_eq!(e.what(), "WwdHeader.signature");
    let view = open(&bytes, &mut buffer);
    assert!(!view.signature_ok());
    assert_eq!(view.header().signature.get(), 1523);
}

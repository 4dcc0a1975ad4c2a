//! The levels of the committed fixtures (`fixtures/wap32-wwd/`) and of the docs' examples, made
//! through the owned model [`WwdModel`].

use crate::write_error::WriteResult as Result;
use crate::wwd::model::{
    ObjectData, PlaneData, TileBody, TilePropertyData, WapMapMetaData, WwdModel, slot, tile,
};
use crate::wwd::raw::Rect;
use crate::wwd::{PlaneFlags, Tile};

/// A small Claw-layout level: three 64×64-tile planes (Background wrapping X and Y, Action main,
/// Front wrapping X), filled and invisible tiles, objects with all four strings, single, double and
/// mask tile properties, and a Windows-1250 plane name.
pub fn claw_level(wide: i32, high: i32, objects: usize) -> WwdModel {
    let mut level = WwdModel::new("Claw - Level 1", "gamebin");
    level.header.birth = slot("21.11.2026");
    level.header.rez_file = slot("..\\CLAW.REZ");
    level.header.image_dir = slot("\\LEVEL1\\TILES");
    level.header.pal_rez = slot("\\LEVEL1\\PALETTES\\MAIN.PAL");
    level.header.launch_app = slot("..\\CLAW.EXE");
    level.header.image_sets[0] = slot("LEVEL1\\IMAGES");
    level.header.image_sets[1] = slot("GAME\\IMAGES");
    level.header.prefixes[0] = slot("LEVEL");
    level.header.prefixes[1] = slot("GAME");
    level.header.start_x = 689.into();
    level.header.start_y = 4723.into();
    // A reserved field that one real level sets: kept as given.
    level.header.unknown3 = 2.into();

    let mut back = PlaneData::new(
        "Background",
        PlaneFlags::WRAP_X | PlaneFlags::WRAP_Y,
        64,
        8,
        8,
        Tile::FILLED,
    );
    back.header.movement_x_percent = 50.into();
    back.header.movement_y_percent = 50.into();
    back.header.fill_color = 50.into();
    back.header.z_coord = (-999).into();
    back.image_sets.push(b"BACK".to_vec());
    back.set(1, 1, tile(0, 3));

    let mut action = PlaneData::new("Action", PlaneFlags::MAIN, 64, wide, high, Tile::INVISIBLE);
    action.image_sets.push(b"ACTION".to_vec());
    for y in 0..high.max(0) as usize {
        for x in 0..wide.max(0) as usize {
            let id = match (x + 3 * y) % 11 {
                0 | 1 => tile(0, 12),
                2 => tile(0, 1),
                3 => tile(0, 5),
                4 => tile(0, 6),
                5 => tile(0, 7),
                6 => Tile::FILLED,
                _ => Tile::INVISIBLE,
            };
            if y + 1 == high as usize || id != Tile::INVISIBLE {
                action.set(
                    x,
                    y,
                    if y + 1 == high as usize {
                        tile(0, 1)
                    } else {
                        id
                    },
                );
            }
        }
    }
    for i in 0..objects {
        let mut o = ObjectData::new(
            i as i32 + 1,
            ["TreasurePowerup", "Officer", "Checkpoint", "AniCycle"][i % 4],
            (i as i32 * 97) % (wide * 64).max(1),
            (i as i32 * 53) % (high * 64).max(1),
        );
        o.name = format!("obj{i}").into_bytes();
        o.image_set = b"GAME_TREASURE_COINS".to_vec();
        o.animation = if i % 2 == 0 {
            b"CYCLE100".to_vec()
        } else {
            Vec::new()
        };
        o.fields.location_z = 1000.into();
        o.fields.rect_move = Rect::new([1, 2, 3, 4]);
        o.fields.rect_user2 = Rect::new([-5, -6, 7, 8]);
        o.fields.user[7] = (-1).into();
        o.fields.flags_hit_type = u32::MAX.into();
        o.fields.object_type = 0x300.into();
        action.objects.push(o);
    }

    let mut front = PlaneData::new("Front", PlaneFlags::WRAP_X, 64, 4, 6, Tile::INVISIBLE);
    // "Tło": a Windows-1250 name, as in one real level.
    front.header.name = [0; 64];
    front.header.name[..3].copy_from_slice(b"T\xb3o");
    front.header.movement_x_percent = 150.into();
    front.header.z_coord = 9000.into();
    front.image_sets.push(b"FRONT".to_vec());
    front.set(0, 5, tile(0, 2));

    level.planes = vec![back, action, front];
    // Every tile but the mask is 64×64, and both double tiles are outside attribute 0 around an
    // inside rectangle: only what differs is written per tile.
    let square = |body| TilePropertyData::new(64, 64, body);
    let double = |inside, rect| {
        square(TileBody::Double {
            outside: 0,
            inside,
            rect,
        })
    };
    level.tile_properties = (0..14u32)
        .map(|id| match id {
            5 => double(1, [0, 0, 63, 31]),
            6 => double(2, [0, 0, 63, 2]),
            7 => TilePropertyData::new(
                4,
                3,
                TileBody::Mask(vec![0, 1, 1, 0, 2, 2, 2, 2, 3, 4, 4, 3]),
            ),
            1 | 12 => square(TileBody::Single(1)),
            2 => square(TileBody::Single(3)),
            3 => square(TileBody::Single(4)),
            _ => square(TileBody::Single(0)),
        })
        .collect();
    level
}

/// A Gruntz-layout level: one 32×32-tile main plane, `AREA1` image sets, single tile properties
/// with user attributes.
pub fn gruntz_level() -> WwdModel {
    let mut level = WwdModel::new("Gruntz - Level 2", "gamebin");
    level.header.image_dir = slot("\\AREA1\\TILEZ");
    level.header.image_sets[0] = slot("AREA1\\IMAGEZ");
    level.header.image_sets[1] = slot("GAME\\IMAGEZ");
    level.header.prefixes[0] = slot("LEVEL");
    level.header.prefixes[1] = slot("GAME");
    let mut action = PlaneData::new("Action", PlaneFlags::MAIN, 32, 12, 10, tile(0, 0));
    action.header.fill_color = 128.into();
    action.image_sets.push(b"ACTION".to_vec());
    for i in 0..10 {
        action.set(i, i, tile(0, (i % 6) as u16));
        action.set(11 - i, i, tile(0, 40));
    }
    action
        .objects
        .push(ObjectData::new(1, "GruntStartingPoint", 48, 48));
    action.objects.push(ObjectData::new(2, "Exit", 300, 280));
    level.planes = vec![action];
    level.tile_properties = (0..41)
        .map(|id| TilePropertyData::new(32, 32, TileBody::Single([0, 1, 2, 3, 4, 17][id % 6])))
        .collect();
    level
}

/// A level whose planes are empty: no tiles, no image sets, no objects, no tile properties.
pub fn empty_planes_level() -> WwdModel {
    let mut level = WwdModel::new("Empty", "gamebin");
    level.header.image_sets[0] = slot("LEVEL2\\IMAGES");
    level.planes = vec![
        PlaneData::new("Action", PlaneFlags::MAIN, 64, 0, 0, 0),
        PlaneData::new("Front", PlaneFlags::NO_DRAW, 64, 0, 5, 0),
    ];
    level
}

/// The fields WapMap 0.3.1 (build 30) writes for a level it saved twice, with two guide lines.
pub fn wapmap_meta_data() -> WapMapMetaData {
    WapMapMetaData {
        wapmap_build: 30,
        wapmap_version: b"0.3.1".to_vec(),
        map_build: 2,
        map_version: b"1.0".to_vec(),
        map_description: b"Saved by WapMap".to_vec(),
        guides: vec![(1, 640), (0, -64)],
    }
}

/// The small Claw level with WapMap's metadata block after its main block.
pub fn wapmap_level() -> Result<WwdModel> {
    let mut level = claw_level(24, 12, 9);
    level.wapmap_meta = Some(wapmap_meta_data().to_bytes()?);
    Ok(level)
}

/// The committed fixtures (`fixtures/wap32-wwd/`).
pub fn fixtures() -> Result<Vec<(&'static str, Vec<u8>)>> {
    Ok(vec![
        ("claw_small.wwd", claw_level(24, 12, 9).to_compressed()?),
        (
            "claw_small_nocompress.wwd",
            claw_level(24, 12, 9).to_uncompressed()?,
        ),
        ("gruntz_small.wwd", gruntz_level().to_compressed()?),
        ("empty_planes.wwd", empty_planes_level().to_uncompressed()?),
        ("claw_small_wapmap.wwd", wapmap_level()?.to_compressed()?),
        (
            "claw_small_nocompress_wapmap.wwd",
            wapmap_level()?.to_uncompressed()?,
        ),
    ])
}

/// A small compressed Claw level, for examples.
pub fn example_file() -> Vec<u8> {
    claw_level(24, 12, 9).to_compressed().unwrap_or_default()
}

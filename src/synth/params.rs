//! Synthetic `GameParams.data` files made with the params writer: ships with nested hull and
//! artillery dicts, guns, projectiles, aircraft, exteriors and the rest, each a
//! `GameParams.GPData` with a `typeinfo`, their strings shared through the memo, int and tuple
//! keys, ids past i32, a long, a set, a unicode string and a byte string that is not UTF-8 —
//! the shapes the game's files have, at a chosen number of entries.
//!
//! [`example_file`] is small (the committed fixture); [`full`] has about 14,000 entries (about
//! 30 MB of pickle, the benchmarks' input, `gamebin synth params --scale full`).

use crate::wows::params::RootKind;
use crate::wows::params::model::{EntryModel, ParamsModel, PyValue};

const NATIONS: [&str; 12] = [
    "Japan",
    "USA",
    "Germany",
    "USSR",
    "United_Kingdom",
    "France",
    "Italy",
    "Pan_Asia",
    "Europe",
    "Netherlands",
    "Commonwealth",
    "Pan_America",
];
const SPECIES: [&str; 4] = ["Destroyer", "Cruiser", "Battleship", "AirCarrier"];

/// The long tail of tuning values real entries have (about 2 KB of pickle an entry in the game's
/// file): `n` named floats, ints and flags.
fn tuning_values(rng: &mut Rng, n: usize) -> PyValue {
    const NAMES: [&str; 32] = [
        "accuracy",
        "aimingTime",
        "armorCoeff",
        "burnProb",
        "caliber",
        "critProb",
        "deadZone",
        "delay",
        "drag",
        "explosionRadius",
        "fireChance",
        "floodChance",
        "fuse",
        "gravity",
        "hp",
        "krupp",
        "lifeTime",
        "mass",
        "maxAngle",
        "minDist",
        "penetration",
        "power",
        "radius",
        "reload",
        "ricochet",
        "scatter",
        "sigma",
        "speed",
        "threshold",
        "torque",
        "velocity",
        "yaw",
    ];
    PyValue::Dict(
        (0..n)
            .map(|k| {
                let v = match k % 5 {
                    0 => PyValue::Int(rng.below(10_000) as i64),
                    1 => PyValue::Bool(rng.below(2) == 0),
                    _ => PyValue::Float(rng.float(100.0)),
                };
                let name = NAMES[k % NAMES.len()];
                let key = if k < NAMES.len() {
                    name.to_string()
                } else {
                    format!("{name}{}", k / NAMES.len())
                };
                (s(&key), v)
            })
            .collect(),
    )
}

/// A small deterministic generator (xorshift), so that files are the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn float(&mut self, scale: f64) -> f64 {
        // Values with few digits, as designers type them.
        (self.below(100_000) as f64 / 100.0) * scale / 1000.0
    }
}

fn s(t: &str) -> PyValue {
    PyValue::s(t)
}

fn typeinfo(ty: &str, nation: &str, species: Option<&str>) -> PyValue {
    PyValue::object(
        "TypeInfo",
        vec![
            (s("type"), s(ty)),
            (s("nation"), s(nation)),
            (s("species"), species.map_or(PyValue::None, s)),
        ],
    )
}

fn gpdata(
    name: &str,
    index: &str,
    id: u32,
    info: PyValue,
    mut fields: Vec<(PyValue, PyValue)>,
) -> PyValue {
    let mut all = vec![
        (s("name"), s(name)),
        (s("index"), s(index)),
        (s("id"), PyValue::Int(i64::from(id))),
        (s("typeinfo"), info),
    ];
    all.append(&mut fields);
    PyValue::object("GPData", all)
}

fn ship(
    rng: &mut Rng,
    i: usize,
    nation: &str,
    species: &str,
    prefix: &str,
    tuning: usize,
) -> EntryModel {
    let tier = 1 + (i % 11) as i64;
    let index = format!("P{prefix}S{}{:03}", &species[..1], i % 1000);
    let name = format!("{index}_Ship_{i}");
    let guns: Vec<(PyValue, PyValue)> = (0..4)
        .map(|g| {
            (
                s(&format!("HP_AGM_{}", g + 1)),
                PyValue::Dict(vec![
                    (
                        s("ammoList"),
                        if g % 2 == 0 {
                            PyValue::Tuple(vec![
                                s(&format!("P{prefix}PA{i:03}_HE")),
                                s(&format!("P{prefix}PA{i:03}_AP")),
                            ])
                        } else {
                            PyValue::List(vec![
                                s(&format!("P{prefix}PA{i:03}_HE")),
                                s(&format!("P{prefix}PA{i:03}_AP")),
                            ])
                        },
                    ),
                    (
                        s("barrelDiameter"),
                        PyValue::Float(0.001 * (100 + rng.below(360)) as f64),
                    ),
                    (
                        s("horizSector"),
                        PyValue::List(vec![PyValue::Float(-150.0), PyValue::Float(150.0)]),
                    ),
                    (s("numBarrels"), PyValue::Int(1 + rng.below(4) as i64)),
                    (
                        s("rotationSpeed"),
                        PyValue::List(vec![
                            PyValue::Float(rng.float(45.0)),
                            PyValue::Float(rng.float(45.0)),
                        ]),
                    ),
                    (
                        s("position"),
                        PyValue::Tuple(vec![
                            PyValue::Float(rng.float(10.0)),
                            PyValue::Float(0.0),
                            PyValue::Float(rng.float(-80.0)),
                        ]),
                    ),
                    (s("smokeBlast"), s("")),
                    (s("typeinfo"), typeinfo("Gun", nation, Some("Main"))),
                ]),
            )
        })
        .collect();
    let mut artillery = vec![
        (
            s("maxDist"),
            PyValue::Float(10000.0 + rng.below(10000) as f64),
        ),
        (s("sigmaCount"), PyValue::Float(2.0)),
        // Salvo params by number of guns: int keys, as the game has them.
        (
            s("salvoParams"),
            PyValue::Dict(
                (1..4)
                    .map(|k| {
                        (
                            PyValue::Int(k),
                            PyValue::Dict(vec![(s("dispersion"), PyValue::Float(rng.float(1.0)))]),
                        )
                    })
                    .collect(),
            ),
        ),
    ];
    artillery.extend(guns);
    let hull = PyValue::Dict(vec![
        (s("health"), PyValue::Int(10000 + rng.below(90000) as i64)),
        (s("maxSpeed"), PyValue::Float(20.0 + rng.float(20.0))),
        (
            s("turningRadius"),
            PyValue::Float(500.0 + rng.below(500) as f64),
        ),
        (s("visibilityFactor"), PyValue::Float(rng.float(15.0))),
        (
            s("armor"),
            PyValue::Dict(
                (0..24)
                    .map(|k| {
                        (
                            PyValue::Int(65_000 + k),
                            PyValue::Float(rng.below(400) as f64),
                        )
                    })
                    .collect(),
            ),
        ),
        (
            s("burnNodes"),
            PyValue::List(
                (0..4)
                    .map(|_| {
                        PyValue::List(vec![
                            PyValue::Float(0.5),
                            PyValue::Float(60.0),
                            PyValue::Int(1),
                        ])
                    })
                    .collect(),
            ),
        ),
        (s("typeinfo"), typeinfo("Unit", nation, Some("Hull"))),
    ]);
    let upgrades = PyValue::List(
        (0..6)
            .map(|u| s(&format!("PCM{:03}_Upgrade_{u}", 30 + u)))
            .collect(),
    );
    let fields = vec![
        (s("level"), PyValue::Int(tier)),
        (
            s("group"),
            s(if i.is_multiple_of(7) {
                "premium"
            } else {
                "upgradeable"
            }),
        ),
        (s("A_Hull"), hull),
        (s("A_Artillery"), PyValue::Dict(artillery)),
        (
            s("ShipUpgradeInfo"),
            PyValue::Dict(vec![
                (s("costCR"), PyValue::Int(1000 * tier)),
                (s("lockedConfig"), upgrades),
            ]),
        ),
        (s("isPaperShip"), PyValue::Bool(i.is_multiple_of(13))),
        (s("defaultCrew"), PyValue::None),
        // A tuple key (the game's `permoflages` by (camo, ship) pair do this).
        (
            s("camoOffsets"),
            PyValue::Dict(vec![(
                PyValue::Tuple(vec![s("camo"), PyValue::Int(i as i64 % 5)]),
                PyValue::Float(0.25),
            )]),
        ),
    ];
    let mut fields = fields;
    if tuning > 0 {
        // A ship's modules carry several times an item's tuning.
        fields.push((s("tuning"), tuning_values(rng, tuning * 4)));
    }
    let id = 4_000_000_000u32.wrapping_add((i as u32).wrapping_mul(7919));
    (
        name.clone(),
        gpdata(
            &name,
            &index,
            id,
            typeinfo("Ship", nation, Some(species)),
            fields,
        ),
    )
}

fn simple(
    rng: &mut Rng,
    i: usize,
    ty: &str,
    nation: &str,
    species: Option<&str>,
    tuning: usize,
) -> EntryModel {
    let code = match ty {
        "Gun" => "G",
        "Projectile" => "A",
        "Aircraft" => "B",
        "Exterior" => "E",
        "Unit" => "U",
        "Crew" => "W",
        "Modernization" => "M",
        _ => "X",
    };
    let index = format!("P{code}{}{:04}", &nation[..1], i % 10000);
    let name = format!("{index}_{ty}_{i}");
    let mut fields = vec![
        (s("costCR"), PyValue::Int(rng.below(5_000_000) as i64)),
        (s("costXP"), PyValue::Int(rng.below(300_000) as i64)),
        (s("ucType"), s(&format!("_{ty}"))),
    ];
    match ty {
        "Projectile" => {
            fields.push((
                s("bulletSpeed"),
                PyValue::Float(700.0 + rng.below(300) as f64),
            ));
            fields.push((
                s("alphaDamage"),
                PyValue::Float(1000.0 + rng.below(12000) as f64),
            ));
            fields.push((
                s("bulletKrupp"),
                PyValue::Float(2000.0 + rng.below(800) as f64),
            ));
            fields.push((
                s("ammoType"),
                s(if i.is_multiple_of(2) { "HE" } else { "AP" }),
            ));
        }
        "Gun" => {
            fields.push((
                s("horizSector"),
                PyValue::List(vec![PyValue::Float(-170.0), PyValue::Float(170.0)]),
            ));
            fields.push((
                s("HitLocationATBA"),
                PyValue::Dict(vec![
                    (s("maxHP"), PyValue::Float(1200.0)),
                    (
                        s("critProb"),
                        PyValue::List(vec![PyValue::Float(0.0), PyValue::Float(0.0)]),
                    ),
                ]),
            ));
        }
        "Exterior" => {
            fields.push((s("camouflage"), s(&format!("mat_camo_{}", i % 40))));
            fields.push((
                s("modifiers"),
                PyValue::Dict(vec![
                    (s("expFactor"), PyValue::Float(1.5)),
                    (s("visibilityFactor"), PyValue::Float(0.97)),
                ]),
            ));
        }
        _ => {
            fields.push((
                s("params"),
                PyValue::List(
                    (0..3)
                        .map(|k| PyValue::Float(rng.float(k as f64 + 1.0)))
                        .collect(),
                ),
            ));
        }
    }
    if tuning > 0 {
        fields.push((s("tuning"), tuning_values(rng, tuning)));
    }
    let id = 3_000_000_000u32.wrapping_add((i as u32).wrapping_mul(104_729));
    (
        name.clone(),
        gpdata(&name, &index, id, typeinfo(ty, nation, species), fields),
    )
}

/// The owned params of `entries` entries (at least the fixed ones), deterministic.
pub fn model(entries: usize) -> ParamsModel {
    model_with(entries, 0)
}

/// [`model`] with `tuning` more values in every entry but the ships (64 make the game's size:
/// about 2 KB of pickle an entry, 30 MB for 14,000 entries).
pub fn model_with(entries: usize, tuning: usize) -> ParamsModel {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut out: Vec<EntryModel> = Vec::with_capacity(entries + 4);
    // The entries tests name: a ship with the look-ups of the docs, and the odd values.
    let (_, mut shima) = ship(&mut rng, 12, "Japan", "Destroyer", "J", tuning);
    if let PyValue::Object(o) = &mut shima {
        if let Some(PyValue::Dict(fields)) = &mut o.state {
            for (k, v) in fields.iter_mut() {
                match k {
                    PyValue::Bytes(b) if b == b"name" => *v = s("PJSD012_Shimakaze_1943"),
                    PyValue::Bytes(b) if b == b"index" => *v = s("PJSD012"),
                    PyValue::Bytes(b) if b == b"id" => *v = PyValue::Int(4_282_101_744),
                    _ => {}
                }
            }
            fields.push((
                s("bigNumber"),
                PyValue::BigInt("123456789012345678901234567890".into()),
            ));
            fields.push((s("tags"), PyValue::Set(vec![s("fast"), s("torpedo")])));
            fields.push((
                s("title"),
                PyValue::Str("Shimakaze \u{5cf6}\u{98a8}".into()),
            ));
            // Text from an old build in cp1251 (not UTF-8): kept as latin-1 in JSON.
            fields.push((
                s("legacyName"),
                PyValue::Bytes(b"\xd8\xe8\xec\xe0".to_vec()),
            ));
            fields.push((PyValue::Float(1.5), PyValue::Bool(true)));
            fields.push((PyValue::None, PyValue::Int(-1)));
            fields.push((PyValue::Bool(true), s("yes")));
        }
    }
    out.push(("PJSD012_Shimakaze_1943".into(), shima));
    let mut i = 0usize;
    while out.len() < entries.max(8) {
        let nation = NATIONS[i % NATIONS.len()];
        let e = match i % 20 {
            0 | 1 => {
                let sp = SPECIES[(i / 20) % SPECIES.len()];
                ship(&mut rng, i, nation, sp, &nation[..1], tuning)
            }
            2..=5 => simple(&mut rng, i, "Projectile", nation, Some("Artillery"), tuning),
            6..=8 => simple(&mut rng, i, "Gun", nation, Some("Main"), tuning),
            9..=12 => simple(&mut rng, i, "Unit", nation, Some("Hull"), tuning),
            13..=14 => simple(
                &mut rng,
                i,
                "Exterior",
                "Common",
                Some("Camouflage"),
                tuning,
            ),
            15 => simple(&mut rng, i, "Aircraft", nation, Some("Fighter"), tuning),
            16 => simple(&mut rng, i, "Crew", nation, None, tuning),
            _ => simple(&mut rng, i, "Modernization", "Common", None, tuning),
        };
        out.push(e);
        i += 1;
    }
    ParamsModel {
        root: RootKind::List,
        entries: out,
        regions: Vec::new(),
    }
}

/// The same params by region: the base under `''` and `RU` overriding every 10th entry's level.
pub fn regional_model(entries: usize) -> ParamsModel {
    let mut m = model(entries);
    lay_regions(&mut m);
    m
}

/// Makes `m` a file by region: its entries the base under `''`, and `RU` overriding every 10th
/// entry's level (99).
pub fn lay_regions(m: &mut ParamsModel) {
    m.root = RootKind::Dict;
    let overrides: Vec<EntryModel> = m
        .entries
        .iter()
        .step_by(10)
        .map(|(n, v)| {
            let mut v = v.clone();
            if let PyValue::Object(o) = &mut v {
                if let Some(PyValue::Dict(fields)) = &mut o.state {
                    match fields.iter_mut().find(|(k, _)| *k == s("level")) {
                        Some((_, v)) => *v = PyValue::Int(99),
                        None => fields.push((s("level"), PyValue::Int(99))),
                    }
                }
            }
            (n.clone(), v)
        })
        .collect();
    m.regions = vec![("RU".into(), overrides)];
}

/// `m` as a game update changes it, deterministic: every 200th entry removed, 40 new entries
/// (copies of existing ones under new names and ids), and one whole number changed (+1) in the
/// state of every 25th entry (the first one that is not its `id`). The rest is as it was, so that
/// a diff of the two finds exactly those changes, most entries being the same.
pub fn update(m: &ParamsModel) -> ParamsModel {
    let mut out = m.clone();
    let removed: Vec<usize> = (0..out.entries.len()).step_by(200).skip(1).collect();
    for &i in removed.iter().rev() {
        out.entries.remove(i);
    }
    for (k, i) in (0..out.entries.len()).step_by(25).enumerate() {
        if k == 0 {
            continue;
        }
        if let PyValue::Object(o) = &mut out.entries[i].1 {
            if let Some(PyValue::Dict(fields)) = &mut o.state {
                if let Some((_, PyValue::Int(v))) = fields
                    .iter_mut()
                    .find(|(k, v)| matches!(v, PyValue::Int(_)) && *k != s("id"))
                {
                    *v += 1;
                }
            }
        }
    }
    let added: Vec<EntryModel> = (0..40)
        .filter_map(|k| {
            let (name, value) = m.entries.get(1 + k * 7)?;
            let mut value = value.clone();
            let new_name = format!("{name}_Update");
            if let PyValue::Object(o) = &mut value {
                if let Some(PyValue::Dict(fields)) = &mut o.state {
                    for (key, v) in fields.iter_mut() {
                        match (key, v) {
                            (PyValue::Bytes(b), v) if b == b"name" => *v = s(&new_name),
                            (PyValue::Bytes(b), PyValue::Int(id)) if b == b"id" => {
                                *id = 4_000_000_000 + k as i64
                            }
                            _ => {}
                        }
                    }
                }
            }
            Some((new_name, value))
        })
        .collect();
    out.entries.extend(added);
    out
}

/// A small file (60 entries): the committed fixture and the docs' example.
pub fn example_file() -> Vec<u8> {
    model(60).to_bytes().unwrap_or_default()
}

/// A small file by region (60 base entries, 6 `RU` overrides).
pub fn example_regional_file() -> Vec<u8> {
    regional_model(60).to_bytes().unwrap_or_default()
}

/// About 14,000 entries of the game's size (about 30 MB of pickle: the benchmarks' input).
pub fn full() -> Vec<u8> {
    full_model().to_bytes().unwrap_or_default()
}

/// The owned params of [`full`].
pub fn full_model() -> ParamsModel {
    model_with(14_000, FULL_TUNING)
}

/// The tuning values an entry has at full scale.
const FULL_TUNING: usize = 100;

/// The committed fixtures (`fixtures/wows-gameparams/`): the small file classic and by region.
pub fn fixtures() -> crate::WriteResult<Vec<(&'static str, Vec<u8>)>> {
    Ok(vec![
        ("GameParams.data", model(60).to_bytes()?),
        ("regional.GameParams.data", regional_model(60).to_bytes()?),
    ])
}

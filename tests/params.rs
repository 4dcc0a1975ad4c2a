//! GameParams.data: the samples against SOURCES.txt's expected values (from CPython's pickle),
//! the synthetic files through the writer and back, and the look-ups.

use std::collections::BTreeMap;
use std::path::PathBuf;

use gamebin::wows::params::export::json::{Layout, write_value};
use gamebin::wows::params::{ParamsScratch, ParamsView, RootKind, Value};

fn sample(kind: &str) -> Option<Vec<u8>> {
    let dir = std::env::var_os("GAMEBIN_SAMPLES")?;
    let path = PathBuf::from(dir)
        .join("wows-gameparams")
        .join(kind)
        .join("GameParams.data");
    Some(std::fs::read(path).expect("the sample named by GAMEBIN_SAMPLES"))
}

fn by_type(view: &ParamsView<'_>) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for e in view.entries() {
        *m.entry(e.type_name().map_or("None".into(), |t| t.into_owned()))
            .or_insert(0) += 1;
    }
    m
}

fn expect_sources(view: &ParamsView<'_>) {
    assert_eq!(view.len(), 300);
    let types = by_type(view);
    for (t, n) in [
        ("Unit", 100),
        ("Projectile", 39),
        ("Gun", 36),
        ("Exterior", 26),
        ("Collection", 14),
        ("Aircraft", 13),
        ("DogTag", 10),
        ("Director", 8),
    ] {
        assert_eq!(types.get(t), Some(&n), "{t}: {types:?}");
    }
    let mut ships: Vec<String> = view
        .entries()
        .filter(|e| e.type_name().as_deref() == Some("Ship"))
        .map(|e| e.name().into_owned())
        .collect();
    ships.sort();
    assert_eq!(ships, ["PHSC106_Kijkduin", "PZSC106_Rahmat"]);
    let k = view.by_name("PHSC106_Kijkduin").expect("Kijkduin");
    assert_eq!(k.id(), Some(4183734032));
    assert_eq!(k.index().as_deref(), Some("PHSC106"));
    assert_eq!(k.type_name().as_deref(), Some("Ship"));
    assert_eq!(k.species().as_deref(), Some("Cruiser"));
    assert_eq!(k.nation().as_deref(), Some("Netherlands"));
    let v = k.value().unwrap();
    assert_eq!(v.get("level"), Some(&Value::Int(6)));
    assert_eq!(v.get("id"), Some(&Value::Int(4183734032)));
    let ti = v.get("typeinfo").unwrap();
    assert_eq!(ti.get("species").and_then(Value::as_str), Some("Cruiser"));
    // The same entry by id (decimal and hex) and by index.
    assert_eq!(
        view.by_id(4183734032)
            .map(|e| e.name().into_owned())
            .as_deref(),
        Some("PHSC106_Kijkduin")
    );
    assert_eq!(
        view.find(&format!("{:#X}", 4183734032u32).replace("0X", "0x"))
            .map(|e| e.name().into_owned())
            .as_deref(),
        Some("PHSC106_Kijkduin")
    );
    assert_eq!(
        view.by_index("PHSC106")
            .map(|e| e.name().into_owned())
            .as_deref(),
        Some("PHSC106_Kijkduin")
    );
    assert!(view.by_name("PHSC106_Kijkduin_").is_none());
    // Every entry decodes and writes as JSON.
    for e in view.entries() {
        let v = e.value().unwrap_or_else(|err| panic!("{err}"));
        let mut out = Vec::new();
        write_value(&mut out, &v, Layout::Compact, 0).unwrap();
        assert!(out.starts_with(b"{"), "{}", e.name());
    }
    assert!(view.damage().is_none());
}

#[test]
fn classic_sample_matches_sources() {
    let Some(file) = sample("classic") else {
        eprintln!("skipped: GAMEBIN_SAMPLES is not set");
        return;
    };
    let mut scratch = ParamsScratch::default();
    let view = ParamsView::from_bytes(&file, &mut scratch).unwrap();
    assert_eq!(view.root_kind(), RootKind::List);
    assert_eq!(view.regions().count(), 0);
    expect_sources(&view);
}

#[test]
fn regional_sample_matches_sources() {
    let Some(file) = sample("regional") else {
        eprintln!("skipped: GAMEBIN_SAMPLES is not set");
        return;
    };
    let mut scratch = ParamsScratch::default();
    let view = ParamsView::from_bytes(&file, &mut scratch).unwrap();
    assert_eq!(view.root_kind(), RootKind::Dict);
    expect_sources(&view);
    let ru = view.region("RU").expect("the RU overrides");
    assert_eq!(ru.override_count(), 25);
    for e in ru.overrides() {
        let v = e.value().unwrap();
        assert_eq!(v.get("level"), Some(&Value::Int(99)), "{}", e.name());
        // The region's entry is what the region sees; the base keeps its own.
        let name = e.name();
        let seen = ru.by_name(&name).unwrap();
        assert_eq!(seen.region().as_deref(), Some("RU"));
        let base = view.by_name(&name).unwrap();
        assert!(base.region().is_none());
        assert_ne!(base.value().unwrap().get("level"), Some(&Value::Int(99)));
        // Its typeinfo facts come through the memo (shared with the base entry).
        assert_eq!(seen.type_name(), base.type_name());
        assert_eq!(seen.id(), base.id());
    }
    assert_eq!(ru.entries().count(), 300);
    assert_eq!(ru.entries().filter(|e| e.region().is_some()).count(), 25);
}

#[test]
fn synth_round_trips_through_the_writer() {
    use gamebin::synth::params::{model, regional_model};
    use gamebin::wows::params::model::ParamsModel;
    for m in [model(300), regional_model(300)] {
        let file = m.to_bytes().unwrap();
        let mut scratch = ParamsScratch::default();
        let view = ParamsView::from_bytes(&file, &mut scratch).unwrap();
        assert!(view.damage().is_none());
        assert_eq!(view.len(), m.entries.len());
        let back = ParamsModel::from_view(&view).unwrap();
        assert_eq!(back, m);
        // Every entry found by name, id and index, with the facts the writer was given.
        for e in view.entries() {
            let name = e.name();
            assert_eq!(view.by_name(&name).unwrap().name(), name);
            assert_eq!(view.by_id(e.id().unwrap()).unwrap().name(), name);
            assert_eq!(view.by_index(&e.index().unwrap()).unwrap().name(), name);
            let v = e.value().unwrap();
            let ti = v.get("typeinfo").unwrap();
            assert_eq!(
                ti.get("type").and_then(Value::as_str),
                e.type_name().as_deref()
            );
            assert_eq!(
                ti.get("nation").and_then(Value::as_str),
                e.nation().as_deref()
            );
        }
    }
    let m = regional_model(300);
    let file = m.to_bytes().unwrap();
    let mut scratch = ParamsScratch::default();
    let view = ParamsView::from_bytes(&file, &mut scratch).unwrap();
    let ru = view.region("RU").unwrap();
    assert_eq!(ru.override_count(), 30);
    let first = &m.entries[0].0;
    let v = ru.by_name(first).unwrap().value().unwrap();
    assert_eq!(v.get("level"), Some(&Value::Int(99)));
    assert_ne!(
        view.by_name(first).unwrap().value().unwrap().get("level"),
        Some(&Value::Int(99))
    );
}

#[test]
fn odd_values_decode_and_write_as_python_json_does() {
    let file = gamebin::synth::params::example_file();
    let mut scratch = ParamsScratch::default();
    let view = ParamsView::from_bytes(&file, &mut scratch).unwrap();
    let ship = view.by_name("PJSD012_Shimakaze_1943").unwrap();
    assert_eq!(ship.id(), Some(4_282_101_744));
    let v = ship.value().unwrap();
    assert_eq!(
        v.get("bigNumber"),
        Some(&Value::BigInt("123456789012345678901234567890".into()))
    );
    assert_eq!(
        v.get("title").and_then(Value::as_str),
        Some("Shimakaze \u{5cf6}\u{98a8}")
    );
    assert_eq!(v.non_utf8_strings(), 1);
    let mut out = Vec::new();
    write_value(&mut out, &v, Layout::Compact, 0).unwrap();
    let json = String::from_utf8(out).unwrap();
    // Keys as Python's json writes them, a tuple key by its repr, the cp1251 bytes as latin-1.
    for part in [
        r#""1.5":true"#,
        r#""null":-1"#,
        r#""true":"yes""#,
        r#""('camo', 2)":0.25"#,
        r#""legacyName":"Øèìà""#,
        r#""salvoParams":{"1":{"#,
        r#""tags":["fast","torpedo"]"#,
        r#""bigNumber":123456789012345678901234567890"#,
    ] {
        assert!(json.contains(part), "{part} in {json}");
    }
    assert_eq!(
        v.at_path("A_Hull.health").and_then(Value::as_int),
        v.get("A_Hull")
            .and_then(|h| h.get("health"))
            .and_then(Value::as_int)
    );
    assert!(v.at_path("A_Artillery.salvoParams.2.dispersion").is_some());
    let report = view.validate();
    assert!(report.errors.is_empty(), "{report:?}");
    assert_eq!(report.warnings.len(), 1, "{report:?}");
    assert!(
        report.warnings[0]
            .message
            .starts_with("1 byte string is not UTF-8")
    );
}

/// A regional root as CPython 3's `pickle.dumps` writes it (these bytes are its output, protocols
/// 0 and 2, for `{b'': {b'A': {b'id': 7}}, b'RU': {b'A': {b'id': 8}}}`): every byte string,
/// the regions' keys included, is a call of `_codecs.encode` (b'' of `bytes`), and the regions
/// are found behind them.
#[test]
fn regions_keyed_by_cpython_3_byte_strings_are_found() {
    let protocol_0 = b"(dp0\nc__builtin__\nbytes\np1\n(tRp2\n(dp3\nc_codecs\nencode\np4\n(VA\np5\n\
        Vlatin1\np6\ntp7\nRp8\n(dp9\ng4\n(Vid\np10\ng6\ntp11\nRp12\nI7\nsssg4\n(VRU\np13\ng6\n\
        tp14\nRp15\n(dp16\ng8\n(dp17\ng12\nI8\nsss.";
    let protocol_2 = b"\x80\x02}q\x00(c__builtin__\nbytes\nq\x01)Rq\x02}q\x03c_codecs\nencode\n\
        q\x04X\x01\x00\x00\x00Aq\x05X\x06\x00\x00\x00latin1q\x06\x86q\x07Rq\x08}q\th\x04\
        X\x02\x00\x00\x00idq\nh\x06\x86q\x0bRq\x0cK\x07ssh\x04X\x02\x00\x00\x00RUq\rh\x06\
        \x86q\x0eRq\x0f}q\x10h\x08}q\x11h\x0cK\x08ssu.";
    for pickle in [protocol_0.as_slice(), protocol_2.as_slice()] {
        let file = gamebin::wows::params::write::compress_reversed(pickle);
        let mut scratch = ParamsScratch::default();
        let view = ParamsView::from_bytes_strict(&file, &mut scratch).unwrap();
        assert_eq!(view.root_kind(), RootKind::Dict);
        assert_eq!(view.len(), 1);
        let base = view.by_name("A").unwrap();
        assert_eq!(base.id(), Some(7));
        let ru = view.region("RU").unwrap();
        assert_eq!(ru.override_count(), 1);
        let over = ru.by_name("A").unwrap();
        assert_eq!(over.id(), Some(8));
        assert_eq!(over.region().as_deref(), Some("RU"));
        let report = view.validate();
        assert!(report.is_clean(), "{report:?}");
    }
}

/// `diff`: entries added and removed, each changed value by its path.
#[cfg(feature = "serde")]
#[test]
fn diff_names_entries_and_values_by_path() {
    use gamebin::View;
    use gamebin::synth::params::model;
    use gamebin::wows::params::model::PyValue;
    let old = model(60);
    let mut new = old.clone();
    new.entries.remove(5);
    let removed = old.entries[5].0.clone();
    let PyValue::Object(ship) = &mut new.entries[0].1 else {
        panic!("an object")
    };
    let Some(PyValue::Dict(fields)) = &mut ship.state else {
        panic!("a state dict")
    };
    let hull = fields
        .iter_mut()
        .find(|(k, _)| *k == PyValue::s("A_Hull"))
        .unwrap();
    let PyValue::Dict(hull) = &mut hull.1 else {
        panic!("a dict")
    };
    let health = hull
        .iter_mut()
        .find(|(k, _)| *k == PyValue::s("health"))
        .unwrap();
    let PyValue::Int(before) = health.1 else {
        panic!("an int")
    };
    health.1 = PyValue::Int(before + 300);
    let (a, b) = (old.to_bytes().unwrap(), new.to_bytes().unwrap());
    let (mut sa, mut sb) = (ParamsScratch::default(), ParamsScratch::default());
    let (va, vb) = (
        ParamsView::from_bytes(&a, &mut sa).unwrap(),
        ParamsView::from_bytes(&b, &mut sb).unwrap(),
    );
    let report = va.diff(&vb).unwrap();
    let lines: Vec<String> = report.lines().collect();
    assert_eq!(
        lines,
        [
            format!(
                "~ PJSD012_Shimakaze_1943.A_Hull.health: {before} -> {}",
                before + 300
            ),
            format!("- {removed}: entry"),
        ]
    );
}

//! Synthetic BigWorld XML sources (`.model`, `.visual`, `.mfm`) in both generations, written as
//! the ModSDK writes them (tab-padded values, one element per line): the committed fixtures
//! (`fixtures/wows-sources/`) that the XML readers' golden outputs are made from.

/// `<tag>\tvalue\t</tag>` at `depth` tabs.
fn value(out: &mut String, depth: usize, tag: &str, value: &str) {
    out.push_str(&"\t".repeat(depth));
    out.push_str(&format!("<{tag}>\t{value}\t</{tag}>\n"));
}

fn open(out: &mut String, depth: usize, tag: &str) {
    out.push_str(&"\t".repeat(depth));
    out.push_str(&format!("<{tag}>\n"));
}

fn close(out: &mut String, depth: usize, tag: &str) {
    out.push_str(&"\t".repeat(depth));
    out.push_str(&format!("</{tag}>\n"));
}

fn node(
    out: &mut String,
    depth: usize,
    identifier: &str,
    translation: [f32; 3],
    rows: usize,
    children: &[(&str, [f32; 3])],
) {
    open(out, depth, "node");
    value(out, depth + 1, "identifier", identifier);
    open(out, depth + 1, "transform");
    for i in 0..4 {
        let mut row = [0.0f32; 4];
        if i < 3 {
            row[i] = 1.0;
        } else {
            row[..3].copy_from_slice(&translation);
            row[3] = 1.0;
        }
        let text: Vec<String> = row[..rows].iter().map(|v| format!("{v:.6}")).collect();
        value(out, depth + 2, &format!("row{i}"), &text.join(" "));
    }
    close(out, depth + 1, "transform");
    for (child, at) in children {
        node(out, depth + 1, child, *at, rows, &[]);
    }
    close(out, depth, "node");
}

/// A newer-form model: `gun.model` naming `gun.visual`, with two render sets over two LODs.
fn newer(folder: &str) -> Vec<(String, String)> {
    let mut model = String::from("<gun.model>\n");
    value(&mut model, 1, "visual", &format!("{folder}/gun.visual"));
    value(&mut model, 1, "metaData", "gamebin synthetic");
    model.push_str("</gun.model>\n");

    let mut visual = String::from("<gun.visual>\n");
    open(&mut visual, 1, "skeleton");
    node(
        &mut visual,
        2,
        "Scene Root",
        [0.0; 3],
        3,
        &[
            ("Turret", [0.0, 1.5, -2.0]),
            ("HP_gunFire1", [0.25, 0.5, 3.0]),
        ],
    );
    close(&mut visual, 1, "skeleton");
    open(&mut visual, 1, "boundingBox");
    value(&mut visual, 2, "min", "-1.000000 0.000000 -2.000000");
    value(&mut visual, 2, "max", "1.000000 2.000000 3.000000");
    close(&mut visual, 1, "boundingBox");
    open(&mut visual, 1, "renderSets");
    for name in ["TurretShape", "Turret_lod1Shape"] {
        open(&mut visual, 2, "renderSet");
        value(&mut visual, 3, "name", name);
        value(&mut visual, 3, "treatAsWorldSpaceObject", "false");
        open(&mut visual, 3, "nodes");
        value(&mut visual, 4, "node", "Turret");
        close(&mut visual, 3, "nodes");
        open(&mut visual, 3, "material");
        value(&mut visual, 4, "identifier", "SHIPMATX_PBS_Gun");
        value(&mut visual, 4, "mfm", &format!("{folder}/gun.mfm"));
        close(&mut visual, 3, "material");
        close(&mut visual, 2, "renderSet");
    }
    close(&mut visual, 1, "renderSets");
    open(&mut visual, 1, "lods");
    for (extent, name) in [
        ("2.000000", "TurretShape"),
        ("10.000000", "Turret_lod1Shape"),
    ] {
        open(&mut visual, 2, "lod");
        value(&mut visual, 3, "extent", extent);
        value(&mut visual, 3, "castsShadow", "true");
        open(&mut visual, 3, "renderSets");
        value(&mut visual, 4, "renderSet", name);
        close(&mut visual, 3, "renderSets");
        close(&mut visual, 2, "lod");
    }
    close(&mut visual, 1, "lods");
    visual.push_str("</gun.visual>\n");

    let mut mfm = String::from("<gun.mfm>\n");
    value(&mut mfm, 1, "collisionFlags", "0");
    value(&mut mfm, 1, "materialKind", "0");
    value(&mut mfm, 1, "fx", "shaders/std_effects/PBS_ship.fx");
    for (name, tag, v) in [
        ("doubleSided", "Bool", "false".to_owned()),
        ("alphaReference", "Int", "128".to_owned()),
        ("emissivePower", "Float", "0.500000".to_owned()),
        (
            "g_tint",
            "Vector4",
            "1.000000 0.500000 0.250000 1.000000".to_owned(),
        ),
        ("diffuseMap", "Texture", format!("{folder}/gun_a.tga")),
        ("normalMap", "Texture", format!("{folder}/gun_n.tga")),
    ] {
        mfm.push_str(&format!("\t<property>\t{name}\n"));
        value(&mut mfm, 2, tag, &v);
        mfm.push_str("\t</property>\n");
    }
    mfm.push_str("</gun.mfm>\n");
    vec![
        ("gun.model".into(), model),
        ("gun.visual".into(), visual),
        ("gun.mfm".into(), mfm),
    ]
}

/// A classic-form model: `finder.model` (`<nodefullVisual>`, a `<parent>` LOD chain through
/// `lods/finder_lod1.model`), with a `<geometry>` render set in a primitive group.
fn classic(folder: &str) -> Vec<(String, String)> {
    let mut files = Vec::new();
    for (stem, parent, extent, shape) in [
        ("finder", Some("lods/finder_lod1"), "2.0000", "AM001Shape"),
        ("lods/finder_lod1", None, "12.0000", "AM001_lod1Shape"),
    ] {
        let name = stem.rsplit('/').next().unwrap_or(stem);
        let mut model = format!("<{name}.model>\n");
        value(&mut model, 1, "castsShadow", "false");
        if let Some(parent) = parent {
            value(&mut model, 1, "parent", &format!("{folder}/{parent}"));
        }
        value(&mut model, 1, "extent", extent);
        value(&mut model, 1, "nodefullVisual", &format!("{folder}/{stem}"));
        model.push_str(&format!("</{name}.model>\n"));
        let mut visual = format!("<{name}.visual>\n");
        node(
            &mut visual,
            1,
            "Scene Root",
            [0.0; 3],
            4,
            &[("AM001", [0.0, 0.25, 0.0])],
        );
        open(&mut visual, 1, "renderSet");
        value(&mut visual, 2, "treatAsWorldSpaceObject", "false");
        value(&mut visual, 2, "node", "AM001");
        open(&mut visual, 2, "geometry");
        value(&mut visual, 3, "vertices", &format!("{shape}.vertices"));
        value(&mut visual, 3, "primitive", &format!("{shape}.indices"));
        visual.push_str("\t\t\t<primitiveGroup>\t0\n");
        open(&mut visual, 4, "material");
        value(&mut visual, 5, "identifier", "SHIPMATX_PBS_Director");
        value(&mut visual, 5, "mfm", &format!("{folder}/finder.mfm"));
        close(&mut visual, 4, "material");
        visual.push_str("\t\t\t</primitiveGroup>\n");
        close(&mut visual, 2, "geometry");
        close(&mut visual, 1, "renderSet");
        visual.push_str(&format!("</{name}.visual>\n"));
        files.push((format!("{stem}.model"), model));
        files.push((format!("{stem}.visual"), visual));
    }
    let mut mfm = String::from("<finder.mfm>\n");
    value(&mut mfm, 1, "fx", "shaders/std_effects/PBS_ship.fx");
    mfm.push_str("\t<property>\tdiffuseMap\n");
    value(&mut mfm, 2, "Texture", &format!("{folder}/finder_a.tga"));
    mfm.push_str("\t</property>\n</finder.mfm>\n");
    files.push(("finder.mfm".into(), mfm));
    files
}

/// The committed fixtures, as (path under `fixtures/wows-sources/`, text). Paths inside the files
/// are relative to that folder, as a mod's are to the res/ root.
pub fn fixtures() -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = newer("newer")
        .into_iter()
        .map(|(name, text)| (format!("newer/{name}"), text))
        .collect();
    files.extend(
        classic("classic")
            .into_iter()
            .map(|(name, text)| (format!("classic/{name}"), text)),
    );
    files
}

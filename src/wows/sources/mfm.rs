//! `.mfm`: a material, its shader (`<fx>`) and typed `<property>` values.

use super::SourceError;
use super::xml::Element;

/// One typed property value.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum PropertyValue {
    /// `<Bool>`.
    Bool(bool),
    /// `<Int>`.
    Int(i64),
    /// `<Float>`.
    Float(f32),
    /// `<Vector4>`.
    Vector4([f32; 4]),
    /// `<Texture>`: the path as stored (usually `.tga`) and the `.dds` of the same stem, which is
    /// the file shipped; both relative to the res/ root. Texture decoding attaches later.
    Texture {
        /// The stored path.
        stored: String,
        /// The `.dds` path read in its place.
        dds: String,
    },
}

/// A named property.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct MaterialProperty {
    /// The property name (`diffuseMap`, `doubleSided`, ...).
    pub name: String,
    /// Its value.
    pub value: PropertyValue,
}

/// A parsed `.mfm` file.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Material {
    /// The shader path (`<fx>`).
    pub fx: Option<String>,
    /// `<collisionFlags>`.
    pub collision_flags: Option<i64>,
    /// `<materialKind>`.
    pub material_kind: Option<i64>,
    /// The properties in file order.
    pub properties: Vec<MaterialProperty>,
}

use crate::wows::dds_path;

fn int(e: &Element, file: &str) -> Result<i64, SourceError> {
    e.text
        .parse()
        .map_err(|_| e.error(file, format!("{:?} is not an integer", e.text)))
}

impl Material {
    /// Parses the text of the `.mfm` file `file`.
    pub fn parse(file: &str, text: &str) -> Result<Self, SourceError> {
        Self::from_element(file, &super::xml::parse(file, text)?)
    }

    /// Reads a parsed `.mfm` root element.
    pub fn from_element(file: &str, root: &Element) -> Result<Self, SourceError> {
        let mut m = Material {
            fx: root.child("fx").map(|e| e.text.clone()),
            collision_flags: root
                .child("collisionFlags")
                .map(|e| int(e, file))
                .transpose()?,
            material_kind: root
                .child("materialKind")
                .map(|e| int(e, file))
                .transpose()?,
            properties: Vec::new(),
        };
        for p in root.children_named("property") {
            if p.text.is_empty() {
                return Err(p.error(file, "property without a name"));
            }
            let v = match p.children.as_slice() {
                [v] => v,
                _ => {
                    return Err(p.error(file, format!("{} values, expected one", p.children.len())));
                }
            };
            let value = match v.name.as_str() {
                "Bool" => PropertyValue::Bool(v.bool(file)?),
                "Int" => PropertyValue::Int(int(v, file)?),
                "Float" => PropertyValue::Float(v.float(file)?),
                "Vector4" => PropertyValue::Vector4(v.floats(file, None, [0.0; 4])?),
                "Texture" => PropertyValue::Texture {
                    stored: v.text.clone(),
                    dds: dds_path(&v.text),
                },
                other => return Err(v.error(file, format!("unknown property type <{other}>"))),
            };
            m.properties.push(MaterialProperty {
                name: p.text.clone(),
                value,
            });
        }
        Ok(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_properties() {
        let text = "<m.mfm>\n<fx>\ts.fx\t</fx>\n<property>\tdiffuseMap\n<Texture>\ta/X_a.tga\t</Texture>\n</property>\n<property>\tk\n<Vector4>1 2 3 4</Vector4></property>\n<property>\tb<Bool>true</Bool></property>\n</m.mfm>";
        let m = Material::parse("m.mfm", text).unwrap();
        assert_eq!(m.fx.as_deref(), Some("s.fx"));
        assert_eq!(
            m.properties[0].value,
            PropertyValue::Texture {
                stored: "a/X_a.tga".into(),
                dds: "a/X_a.dds".into()
            }
        );
        assert_eq!(
            m.properties[1].value,
            PropertyValue::Vector4([1.0, 2.0, 3.0, 4.0])
        );
        assert_eq!(m.properties[2].value, PropertyValue::Bool(true));
    }

    #[test]
    fn bad_number_names_place() {
        let e = Material::parse(
            "m.mfm",
            "<m.mfm>\n<property>a\n<Float>x1</Float></property></m.mfm>",
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "m.mfm:3: <m.mfm/property/Float>: \"x1\" is not a number"
        );
    }
}

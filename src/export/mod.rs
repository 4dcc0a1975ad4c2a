//! Conversions to other tools' formats: Wavefront OBJ ([`obj`]) and glTF 2.0 binary (`gltf`,
//! behind the `gltf` feature). Library code, so that a pipeline exports without the command line.
//!
//! World of Warships stores coordinates left-handed with Y up; OBJ and glTF are right-handed with Y
//! up. Both exporters convert the same way, in one place ([`axes`]): X is mirrored and every
//! triangle's winding reversed, so that faces keep facing outwards.

pub mod axes;
#[cfg(feature = "gltf")]
pub mod gltf;
#[cfg(feature = "gltf")]
pub mod model_gltf;
pub mod obj;

//! `.geometry` to other tools' formats: Wavefront OBJ ([`obj`]) and glTF 2.0 binary (`gltf`,
//! behind the `gltf` feature). Both convert from the game's left-handed space the same way, in one
//! place ([`axes`](crate::wows::axes)).

#[cfg(feature = "gltf")]
pub mod gltf;
pub mod obj;

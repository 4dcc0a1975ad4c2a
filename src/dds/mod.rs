//! DDS textures (DirectDraw Surface): the textures of World of Warships models, as mod sources ship
//! them and as the game's materials name them.
//!
//! [`DdsView`] reads a texture in place: the header, the DX10 header that follows the FourCC
//! `DX10`, the format ([`TextureFormat`]: BC1–BC7 or an uncompressed layout of bit masks), and
//! every mip level of every array slice or cube face as a borrowed, bounds-checked byte range
//! ([`Level`]). Opening checks, with overflow-checked sizes, that every level the header implies
//! lies inside the file, so that a level is found without a walk and never reads past the end.
//! [`Level::decode_rgba8`] decodes a level into an RGBA8 buffer the caller owns (the only copy),
//! and [`tiers`] picks the best of a texture's `.dd0`/`.dd1`/`.dd2` tiers and `.dds` within a
//! size limit.
//!
//! ```
//! # #[cfg(feature = "synth")]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use gamebin::dds::{DdsView, TextureFormat};
//!
//! let bytes = gamebin::synth::dds::example_file();
//! let texture = DdsView::from_bytes(&bytes)?;
//! assert_eq!(texture.format(), TextureFormat::Bc1);
//! for level in texture.levels() {
//!     let mut rgba = vec![0u8; level.rgba8_len().unwrap()];
//!     level.decode_rgba8(&mut rgba)?;
//!     println!("mip {}: {}x{}", level.mip, level.width, level.height);
//! }
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "synth"))]
//! # fn main() {}
//! ```

mod decode;
#[cfg(all(feature = "write", feature = "serde"))]
pub mod diff;
#[cfg(feature = "png")]
pub mod export;
mod format;
mod info;
#[cfg(feature = "write")]
pub mod model;
pub mod raw;
pub mod tiers;
mod view;
#[cfg(feature = "write")]
mod write;

pub use format::{PixelMasks, TextureFormat, UnknownFormat, four_cc_text, is_srgb_dxgi};
pub use info::{DdsFinding, DdsInfo};
pub use view::{DdsView, Level, mip_size};

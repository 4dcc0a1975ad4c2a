//! Writes `.wwd` levels: from an owned [`WwdModel`] (built by hand or copied from a
//! [`WwdView`](crate::wwd::WwdView)), in the layout the original editors use — planes, tile grids,
//! image-set names, objects, tile properties, each contiguous — with every offset, count and string
//! length recomputed. Uncompressed levels from the original editors come out byte-identical;
//! compressed ones are one zlib stream with the WapMap checksum (`S − 160` over the stored bytes).
//! WapMap's metadata block, when a level has one, is written back verbatim after the stored main
//! block, outside the checksum, as WapMap writes it.

use std::io::Write as _;

use flate2::Compression;
use flate2::write::ZlibEncoder;
use zerocopy::IntoBytes;

use crate::bytes::sink::{Sink, invalid, narrow};
use crate::bytes::u64_of;
use crate::write_error::{WriteContext, WriteError, WriteResult};
use crate::wwd::model::{PLANE_HEADER_SIZE_U32, TileBody, WapMapMetaData, WwdModel};
use crate::wwd::raw::{
    FLAG_COMPRESS, HEADER_SIZE, Header, PlaneHeader, Rect, TILE_DOUBLE, TILE_MASK, TILE_SINGLE,
    TilePropertyDouble, WM_BLOCK_GUIDES, WM_BLOCK_HEADER, WM_BLOCK_META_END_INFO,
    WM_BLOCK_META_INFO, WM_META_CLOSE, WM_META_OPEN, WmBlockHeader, WmGuide,
};
use core::mem::size_of;
use zerocopy::little_endian::{I32, U32};

impl WapMapMetaData {
    /// The block's bytes, tags included.
    pub fn to_bytes(&self) -> WriteResult<Vec<u8>> {
        let strings = [
            (
                &self.wapmap_version,
                "WapMapMeta.Header.wapmap_version",
                "wapmap_version",
            ),
            (
                &self.map_version,
                "WapMapMeta.Header.map_version",
                "map_version",
            ),
            (
                &self.map_description,
                "WapMapMeta.Header.map_description",
                "map_description",
            ),
        ];
        for (s, what, key) in strings {
            if let Some(nul) = s.iter().position(|&c| c == 0) {
                return Err(invalid(what, u64_of(nul), "a NUL inside the string").in_field(key));
            }
        }
        let mut sink = Sink::new();
        let block = |sink: &mut Sink, block_type: u8, len: usize| -> WriteResult<()> {
            let length = narrow::<u32>(len, "WapMapMeta.block.length")?.into();
            sink.put(&WmBlockHeader { block_type, length });
            Ok(())
        };
        sink.put(WM_META_OPEN);
        block(&mut sink, WM_BLOCK_META_INFO, 4)?;
        // The size, filled in once known (WapMap patches it the same way).
        let meta_info_size = sink.put(&U32::ZERO);
        let header_len = 4 + self.wapmap_version.len() + 1 + 4;
        let header_len = header_len + self.map_version.len() + 1 + self.map_description.len() + 1;
        block(&mut sink, WM_BLOCK_HEADER, header_len)?;
        sink.put(&I32::new(self.wapmap_build));
        sink.put(self.wapmap_version.as_slice());
        sink.put(&0u8);
        sink.put(&I32::new(self.map_build));
        sink.put(self.map_version.as_slice());
        sink.put(&0u8);
        sink.put(self.map_description.as_slice());
        sink.put(&0u8);
        if !self.guides.is_empty() {
            let count = narrow::<u32>(self.guides.len(), "WapMapMeta.Guides.count")?;
            let len = self.guides.len().saturating_mul(size_of::<WmGuide>()) + 4;
            block(&mut sink, WM_BLOCK_GUIDES, len)?;
            sink.put(&U32::new(count));
            for &(orientation, position) in &self.guides {
                sink.put(&WmGuide {
                    orientation,
                    position: position.into(),
                });
            }
        }
        block(&mut sink, WM_BLOCK_META_END_INFO, 4)?;
        let meta_end_info_size = sink.put(&U32::ZERO);
        sink.put(WM_META_CLOSE);
        let size = U32::new(narrow(sink.len(), "WapMapMeta.MetaInfo.size")?);
        sink.patch(meta_info_size, &size, "WapMapMeta.MetaInfo.size")?;
        sink.patch(meta_end_info_size, &size, "WapMapMeta.MetaEndInfo.size")?;
        Ok(sink.into_bytes())
    }
}

impl WwdModel {
    /// The main block, uncompressed, laid out after a 1524-byte header; and the header to go with
    /// it (offsets and counts filled in, compression fields not yet). The sink's positions are the
    /// image offsets the format stores: the header is reserved first and split off at the end.
    fn main_block(&self) -> WriteResult<(Header, Vec<u8>)> {
        let mut sink = Sink::new();
        sink.reserve::<Header>(1, "WwdHeader")?;
        let mut header = self.header;
        header.num_planes = narrow::<u32>(self.planes.len(), "WwdHeader.num_planes")?.into();
        header.offset_planes = narrow::<u32>(sink.len(), "WwdHeader.offset_planes")?.into();
        let table = sink.reserve::<PlaneHeader>(self.planes.len(), "PlaneHeader")?;
        let mut planes: Vec<PlaneHeader> = Vec::with_capacity(self.planes.len());
        // Regions in the editors' order: plane headers, tile grids, image-set names, objects.
        for (i, p) in self.planes.iter().enumerate() {
            let in_plane = |e: WriteError| e.at_index(i).in_field("planes");
            let mut h = p.header;
            let (w, hi) = (h.tiles_wide.get(), h.tiles_high.get());
            let cells = usize::try_from(i64::from(w) * i64::from(hi)).unwrap_or(usize::MAX);
            if cells != p.tiles.len() {
                let e = invalid(
                    "PlaneData.tiles",
                    u64_of(p.tiles.len()),
                    "tile count differs from tiles_wide × tiles_high",
                );
                return Err(in_plane(e.in_field("tiles")));
            }
            h.block_size = PLANE_HEADER_SIZE_U32.into();
            h.offset_tiles = narrow::<u32>(sink.len(), "PlaneHeader.offset_tiles")
                .map_err(in_plane)?
                .into();
            for &t in &p.tiles {
                sink.put(&U32::new(t));
            }
            planes.push(h);
        }
        for (i, (p, h)) in self.planes.iter().zip(planes.iter_mut()).enumerate() {
            let in_plane = |e: WriteError| e.at_index(i).in_field("planes");
            h.num_image_sets = narrow::<u32>(p.image_sets.len(), "PlaneHeader.num_image_sets")
                .in_field("image_sets")
                .map_err(in_plane)?
                .into();
            h.offset_image_sets = narrow::<u32>(sink.len(), "PlaneHeader.offset_image_sets")
                .map_err(in_plane)?
                .into();
            for (k, name) in p.image_sets.iter().enumerate() {
                if name.contains(&0) {
                    let e = invalid(
                        "PlaneData.image_sets",
                        u64_of(name.len()),
                        "a NUL inside an image-set name",
                    );
                    return Err(in_plane(e.at_index(k).in_field("image_sets")));
                }
                sink.put(name.as_slice());
                sink.put(&0u8);
            }
        }
        for (i, (p, h)) in self.planes.iter().zip(planes.iter_mut()).enumerate() {
            let in_plane = |e: WriteError| e.at_index(i).in_field("planes");
            h.num_objects = narrow::<u32>(p.objects.len(), "PlaneHeader.num_objects")
                .in_field("objects")
                .map_err(in_plane)?
                .into();
            h.offset_objects = if p.objects.is_empty() {
                0.into()
            } else {
                narrow::<u32>(sink.len(), "PlaneHeader.offset_objects")
                    .map_err(in_plane)?
                    .into()
            };
            for (j, o) in p.objects.iter().enumerate() {
                let in_object = |e: WriteError| in_plane(e.at_index(j).in_field("objects"));
                let size = |s: &[u8], what, key| {
                    narrow::<u32>(s.len(), what)
                        .in_field(key)
                        .map_err(in_object)
                        .map(U32::from)
                };
                let mut f = o.fields;
                f.size_name = size(&o.name, "Object.size_name", "name")?;
                f.size_logic = size(&o.logic, "Object.size_logic", "logic")?;
                f.size_image_set = size(&o.image_set, "Object.size_image_set", "image_set")?;
                f.size_animation = size(&o.animation, "Object.size_animation", "animation")?;
                sink.put(&f);
                for s in [&o.name, &o.logic, &o.image_set, &o.animation] {
                    sink.put(s.as_slice());
                }
            }
        }
        for (i, h) in planes.iter().enumerate() {
            sink.patch_record(&table, i, h)?;
        }
        header.offset_tile_properties =
            narrow::<u32>(sink.len(), "WwdHeader.offset_tile_properties")?.into();
        let mut table = self.tile_properties_header;
        table.count = narrow::<u32>(self.tile_properties.len(), "TilePropertiesHeader.count")
            .in_field("tile_properties")?
            .into();
        sink.put(&table);
        for (i, t) in self.tile_properties.iter().enumerate() {
            let mut base = t.base;
            match &t.body {
                TileBody::Single(a) => {
                    base.tile_type = TILE_SINGLE.into();
                    sink.put(&base);
                    sink.put(&I32::new(*a));
                }
                TileBody::Double {
                    outside,
                    inside,
                    rect,
                } => {
                    base.tile_type = TILE_DOUBLE.into();
                    sink.put(&base);
                    sink.put(&TilePropertyDouble {
                        attribute_outside: (*outside).into(),
                        attribute_inside: (*inside).into(),
                        rect: Rect::new(*rect),
                    });
                }
                TileBody::Mask(mask) => {
                    base.tile_type = TILE_MASK.into();
                    let (w, h) = (u64::from(base.width.get()), u64::from(base.height.get()));
                    if w * h != u64_of(mask.len()) {
                        return Err(invalid(
                            "TilePropertyData.mask",
                            u64_of(mask.len()),
                            "mask length differs from width × height",
                        )
                        .in_field("mask")
                        .at_index(i)
                        .in_field("tile_properties"));
                    }
                    sink.put(&base);
                    sink.put(mask.as_slice());
                }
            }
        }
        let mut image = sink.into_bytes();
        let block = image.split_off(HEADER_SIZE.min(image.len()));
        Ok((header, block))
    }

    fn finish(&self, mut header: Header, stored: Vec<u8>) -> WriteResult<Vec<u8>> {
        // WapMap checksums the stored main block, then appends its block: the block is outside.
        header.checksum = crate::wwd::wapmap_checksum(&stored).into();
        let meta = self.wapmap_meta.as_deref().unwrap_or(&[]);
        if !meta.is_empty() {
            // A reader takes bytes after the main block only as a whole block (an edited or
            // hand-made one may not be): anything else would make the level unreadable.
            crate::wwd::check_wapmap_meta(meta).in_field("wapmap_meta")?;
        }
        let mut file = Vec::with_capacity(HEADER_SIZE + stored.len() + meta.len());
        file.extend_from_slice(header.as_bytes());
        file.extend_from_slice(&stored);
        file.extend_from_slice(meta);
        Ok(file)
    }

    /// The level stored as its header's flags say: compressed when [`FLAG_COMPRESS`] is set (so a
    /// level read and written back keeps its storage).
    pub fn to_bytes(&self) -> WriteResult<Vec<u8>> {
        if self.header.flags.get() & FLAG_COMPRESS != 0 {
            self.to_compressed()
        } else {
            self.to_uncompressed()
        }
    }

    /// The level with its main block stored as is (compress flag cleared, decompressed size 0).
    pub fn to_uncompressed(&self) -> WriteResult<Vec<u8>> {
        let (mut header, block) = self.main_block()?;
        header.flags = (header.flags.get() & !FLAG_COMPRESS).into();
        header.decompressed_mainblock_size = 0.into();
        self.finish(header, block)
    }

    /// The level with its main block as one zlib stream (compress flag set, decompressed size
    /// filled in).
    pub fn to_compressed(&self) -> WriteResult<Vec<u8>> {
        let (mut header, block) = self.main_block()?;
        header.flags = (header.flags.get() | FLAG_COMPRESS).into();
        header.decompressed_mainblock_size =
            narrow::<u32>(block.len(), "WwdHeader.decompressed_mainblock_size")?.into();
        let mut z = ZlibEncoder::new(
            Vec::with_capacity(block.len() / 8 + 64),
            Compression::default(),
        );
        let stored = z
            .write_all(&block)
            .and_then(|()| z.finish())
            .map_err(|_| invalid("zlib", 0, "compression failed"))?;
        self.finish(header, stored)
    }
}

//! Reading PFS archives allocates nothing it does not have to: opening an index and walking its
//! names, files and volumes allocates nothing; in an install, a lookup allocates nothing, a stored
//! file is borrowed from its volume, a deflated one is inflated into the caller's buffer (which
//! grows once), and a listing reuses one path buffer. A counting global allocator proves it.

use gamebin::wows::pfs::{BlobReader, Compression, GameInstall, IdxView, PfsWriter, Selection};

mod counting;

use counting::allocations;

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

fn archive() -> gamebin::wows::pfs::Archive {
    let mut writer = PfsWriter::new("a_0001.pkg");
    for i in 0..50 {
        let compression = if i % 2 == 0 {
            Compression::Stored
        } else {
            Compression::Deflate
        };
        let data = format!("file {i} ").repeat(i + 1);
        writer
            .add(
                &format!("content/d{}/f{i}.txt", i % 5),
                data.as_bytes(),
                compression,
            )
            .unwrap();
    }
    writer.finish().unwrap()
}

#[test]
fn the_counter_counts() {
    let (n, v) = allocations(|| vec![1u8; 10]);
    assert_eq!(n, 1);
    drop(v);
}

#[test]
fn an_index_opens_and_walks_without_allocating() {
    let archive = archive();
    let (n, sum) = allocations(|| {
        let idx = IdxView::from_bytes(&archive.idx).unwrap();
        let mut sum = 0usize;
        for name in idx.names() {
            sum += name.unwrap().name_str().unwrap().len();
        }
        for volume in idx.volumes() {
            sum += volume.unwrap().name.len();
        }
        sum += idx.files().map(|f| f.size as usize).sum::<usize>();
        sum += idx.find("content/d3/f13.txt").unwrap().is_some() as usize;
        sum
    });
    assert_eq!(n, 0, "{n} allocations");
    assert!(sum > 0);
}

#[test]
fn install_lookups_reads_and_listings_allocate_only_the_callers_buffers() {
    let archive = archive();
    let install =
        GameInstall::from_memory(vec![("a.idx".into(), archive.idx)], archive.volumes).unwrap();
    let (mut reader, mut out) = (BlobReader::new(), Vec::with_capacity(4096));
    // Warm the reader's decompressor (one allocation, kept).
    let warm = install.find("content/d1/f1.txt").unwrap().unwrap();
    install.read(&warm, "warm", &mut reader, &mut out).unwrap();

    let paths: Vec<String> = (0..50)
        .map(|i| format!("content/d{}/f{i}.txt", i % 5))
        .collect();
    let (n, bytes) = allocations(|| {
        let mut bytes = 0;
        for path in &paths {
            let file = install.find(path).unwrap().unwrap();
            bytes += install
                .read(&file, path, &mut reader, &mut out)
                .unwrap()
                .len();
        }
        bytes
    });
    assert_eq!(n, 0, "{n} allocations for 50 lookups and reads");
    assert!(bytes > 0);

    let mut path = String::with_capacity(64);
    let glob = Selection::parse("content/**/*.txt");
    let (n, listed) = allocations(|| {
        let mut listed = 0;
        install.for_each_file(&glob, &mut path, |_, file| {
            file.unwrap();
            listed += 1;
            true
        });
        listed
    });
    assert_eq!((n, listed), (0, 50), "allocations, files listed");
    let (n, listed) = allocations(|| install.files().filter(|file| file.is_ok()).count());
    assert_eq!((n, listed), (0, 50), "allocations, files without paths");
}

/// The diff of two installs keeps 32 bytes a file and each folder's path once, and streaming its
/// changes allocates nothing.
#[test]
fn an_install_diff_keeps_32_bytes_a_file_and_streams_without_allocating() {
    use gamebin::wows::pfs::InstallDiff;
    let install = |changed: usize| {
        let mut writer = PfsWriter::new("a_0001.pkg");
        for i in 0..2000 {
            let path = format!("content/d{}/e{}/f{i}.txt", i % 7, i % 3);
            let data = if i % 100 == changed { "new" } else { "old" };
            writer
                .add(&path, data.as_bytes(), Compression::Stored)
                .unwrap();
        }
        let archive = writer.finish().unwrap();
        GameInstall::from_memory(vec![("a.idx".to_owned(), archive.idx)], archive.volumes).unwrap()
    };
    let (old, new) = (install(1), install(2));
    let diff = InstallDiff::new(&old, &new).unwrap();
    // 21 folders a side: their paths (14 bytes each) and 16 bytes of numbers a folder, with the
    // room their lists grew by: under 1 KB a side.
    let folders = 2 * 1024;
    assert!(
        diff.heap_bytes() <= 32 * 4000 + folders,
        "{} bytes",
        diff.heap_bytes()
    );
    let (n, changes) = allocations(|| {
        diff.changes()
            .filter(|c| !c.path.is_empty() && c.sign() == '~')
            .count()
    });
    assert_eq!(n, 0, "{n} allocations");
    assert_eq!(changes, 40);
}

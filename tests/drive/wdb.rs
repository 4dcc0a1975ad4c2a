//! Drives every `.wdb` accessor.

use gamebin::wdb::{FieldKind, WdbView};

/// Opens `data` as `.wdb` and drives every accessor: entries, sections, type lists, names, string
/// arrays, the schema and every field of every record, raw cells, lookups by name.
pub fn drive_wdb(data: &[u8]) -> usize {
    let mut scratch = gamebin::Scratch::new();
    let Some(view) = super::open::<WdbView<'_>>(data, &mut scratch) else {
        return 0;
    };
    let mut seen = 1;
    let _ = (
        view.game(),
        view.sheet_name(),
        view.version(),
        view.is_sorted(),
    );
    let _ = view.validate();
    for (name, section) in view.sections() {
        seen += 1;
        if let Ok(name) = core::str::from_utf8(name) {
            assert!(view.section(name).is_some());
        }
        let _ = section.data.len();
    }
    if let Some(types) = view.type_list() {
        let _ = types.iter().fold(0u64, |a, c| a.wrapping_add(u64::from(c)));
    }
    if let Some(t) = view.typelist() {
        let _ = t.iter().count();
    }
    if let Some(names) = view.field_names() {
        for n in names.iter() {
            let _ = n.map(|n| {
                (
                    gamebin::wdb::name_width(n),
                    gamebin::wdb::owns_string_array(n),
                )
            });
        }
    }
    if let Ok(Some(arrays)) = view.str_arrays() {
        for k in 0..arrays.array_count().min(64) {
            let len = arrays.array_len(k).min(4096);
            for i in 0..len as u64 {
                let _ = arrays.offset(k, i, 0);
            }
            let _ = arrays.offset(k, u64::MAX, 0);
        }
    }
    let schema = view.schema();
    for record in view.records() {
        seen += 1;
        let _ = (record.name(), record.offset(), record.index());
        if let Some(found) = view.record_by_name(record.name_bytes()) {
            if view.is_sorted() {
                assert_eq!(found.name_bytes(), record.name_bytes());
            }
        }
        for cell in view.cells(record) {
            let _ = cell;
        }
        let _ = view.cell(&record, usize::MAX);
        if let Ok(schema) = &schema {
            for (field, value) in schema.values(record) {
                let _ = (
                    field.kind == FieldKind::U64,
                    value.map(|v| (v.as_i64(), v.as_str())),
                );
            }
            // The visitor's fast path stops at the iterator's first failure, or at none.
            let first = schema.values(record).find_map(|(_, v)| v.err());
            let mut visited = 0u64;
            let result = schema.for_each_value(&record, |field, value| {
                visited = visited.wrapping_add(u64::from(field.width));
                let _ = value.as_bytes();
            });
            assert_eq!(result.err(), first);
            let _ = schema.value(&record, usize::MAX);
            if let Some(first) = schema.field(0) {
                let _ = schema.value_by_name(&record, first.name);
            }
        }
    }
    // Caller-supplied names over whatever cells there are.
    if let Ok(schema) = view.schema_with_names(&["u1A", "i5B", "f8C", "s4D", "uE", "u64F", "iG"]) {
        for record in view.records() {
            for (_, value) in schema.values(record) {
                let _ = value;
            }
        }
    }
    let _ = view.record_by_name("m003");
    let _ = view.record_by_name([0xffu8; 20]);
    seen
}

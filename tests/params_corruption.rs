//! GameParams: every kind of bad input of issue #50 — truncated files, bytes that are not a
//! reversed zlib stream, a corrupt stream, unknown opcodes, a memo get before its put, nesting
//! millions deep, lengths larger than the file, a stack that underflows, shared values that
//! expand without end, a value containing itself — each a clear error naming the offset in the
//! inflated pickle (and the entry being read), never a panic, hang or allocation sized by the
//! file; and a damaged pickle still lists its good entries.

use std::time::{Duration, Instant};

#[path = "drive/params.rs"]
mod drive;

use gamebin::wows::params::export::json::{Layout, write_value};
use gamebin::wows::params::write::compress_reversed;
use gamebin::wows::params::{ParamsScratch, ParamsView, Value};
use gamebin::{AnyView, Scratch};

/// Opens `pickle` stored as the game stores it, strictly: the error's text.
fn error_of(pickle: &[u8]) -> String {
    let file = compress_reversed(pickle);
    let mut scratch = ParamsScratch::default();
    match ParamsView::from_bytes_strict(&file, &mut scratch) {
        Ok(v) => panic!("opened: {v:?}"),
        Err(e) => e.to_string(),
    }
}

fn has(text: &str, parts: &[&str]) {
    for p in parts {
        assert!(text.contains(p), "{p:?} not in {text:?}");
    }
}

/// Two good entries, then `tail` inside the third (named C).
fn after_two_entries(tail: &[u8]) -> Vec<u8> {
    let mut p =
        b"(lp0\n(dp1\nS'A'\np2\n(dp3\nS'id'\np4\nI1\nssS'B'\np5\n(dp6\ng4\nI2\nssS'C'\np7\n"
            .to_vec();
    p.extend_from_slice(tail);
    p
}

#[test]
fn an_empty_file_an_unreversed_stream_and_a_bare_pickle_say_what_they_are() {
    let mut scratch = ParamsScratch::default();
    let e = ParamsView::from_bytes(&[], &mut scratch)
        .unwrap_err()
        .to_string();
    has(&e, &["empty"]);
    let mut plain = compress_reversed(b"(lp0\n(dp1\nsa.");
    plain.reverse();
    let e = ParamsView::from_bytes(&plain, &mut scratch)
        .unwrap_err()
        .to_string();
    has(&e, &["not reversed"]);
    let e = ParamsView::from_bytes(b"(lp0\n(dp1\nsa.", &mut scratch)
        .unwrap_err()
        .to_string();
    has(&e, &["uncompressed pickle"]);
    let e = ParamsView::from_bytes(b"DDS |\0\0\0 some other file", &mut scratch)
        .unwrap_err()
        .to_string();
    has(&e, &["not a zlib header"]);
}

#[test]
fn truncated_and_corrupt_streams_are_errors() {
    let file = gamebin::synth::params::example_file();
    let mut scratch = ParamsScratch::default();
    // The reversed file's stream ends at the file's start: cutting the start truncates it.
    for cut in [1, 2, 7, file.len() / 3, file.len() - 3] {
        let e = ParamsView::from_bytes(&file[cut..], &mut scratch)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("truncated") || e.contains("corrupt") || e.contains("zlib"),
            "{cut}: {e}"
        );
    }
    // Cutting the end removes the zlib header.
    assert!(ParamsView::from_bytes(&file[..file.len() - 1], &mut scratch).is_err());
    let mut bad = file.clone();
    let n = bad.len();
    for b in &mut bad[n / 2..n / 2 + 64] {
        *b ^= 0x5a;
    }
    let e = ParamsView::from_bytes(&bad, &mut scratch)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("corrupt") || e.contains("pickle") || e.contains("zlib"),
        "{e}"
    );
}

#[test]
fn an_unknown_opcode_names_the_entry_and_the_offset() {
    let p = after_two_entries(b"\xff");
    let e = error_of(&p);
    has(
        &e,
        &[
            "entry C",
            "not an opcode",
            &format!("{:#010x}", p.len() - 1),
        ],
    );
    // The good entries still read, and check lists the damaged one.
    let file = compress_reversed(&p);
    let mut scratch = ParamsScratch::default();
    let view = ParamsView::from_bytes(&file, &mut scratch).unwrap();
    assert_eq!(view.len(), 2);
    assert_eq!(
        view.by_name("B").unwrap().value().unwrap().get("id"),
        Some(&Value::Int(2))
    );
    assert_eq!(view.by_id(1).unwrap().name(), "A");
    let report = view.validate();
    assert_eq!(report.errors.len(), 1, "{report:?}");
    assert_eq!(report.errors[0].path, "C");
    let mut scratch = Scratch::new();
    let any = AnyView::parse(&file, &mut scratch).unwrap();
    assert!(any.summary().is_err());
    assert_eq!(any.check().errors.len(), 1);
}

#[test]
fn a_memo_get_before_its_put_is_an_error() {
    let e = error_of(&after_two_entries(b"g99\n"));
    has(&e, &["entry C", "memo get", "99"]);
}

#[test]
fn a_stack_underflow_is_an_error() {
    for tail in [
        &b"s"[..],
        b"(dp8\nss",
        b"a",
        b"t",
        b"b",
        b"0000",
        b"u",
        b"e",
        b"1",
    ] {
        let e = error_of(&after_two_entries(tail));
        assert!(
            e.contains("underflow") || e.contains("mark") || e.contains("not a container"),
            "{tail:?}: {e}"
        );
    }
    has(&error_of(b"(lp0\ns."), &["underflow"]);
    has(&error_of(b"(lp0\nR."), &["underflow"]);
    // Enough values, but REDUCE of a dict with a string: named as what it is.
    has(
        &error_of(&after_two_entries(b"R")),
        &["entry C", "not a class or function"],
    );
    has(&error_of(b"(lp0\n]."), &["STOP", "other than one value"]);
}

#[test]
fn nesting_millions_deep_ends_quickly_with_an_error() {
    let start = Instant::now();
    for unit in [&b"("[..], b"]", b"}", b"(l", b"(", b"N"] {
        let mut p = b"(lp0\n(dp1\nS'A'\np2\n".to_vec();
        for _ in 0..2_000_000 {
            p.extend_from_slice(unit);
        }
        let e = error_of(&p);
        assert!(
            e.contains("deeper") || e.contains("stack grows"),
            "{unit:?}: {e}"
        );
        has(&e, &["entry A"]);
    }
    assert!(start.elapsed() < Duration::from_secs(60));
}

#[test]
fn lengths_larger_than_the_file_are_errors() {
    for tail in [
        &b"X\xff\xff\xff\x7f"[..],
        b"T\xff\xff\xff\xffabc",
        b"U\xffab",
        b"\x8b\xff\xff\xff\x7f\x01",
        b"S'never ends",
        b"p4294967295\n",
        b"r\xff\xff\xff\xff",
    ] {
        let mut p = b"\x80\x02".to_vec();
        p.extend_from_slice(&after_two_entries(tail));
        let e = error_of(&p);
        assert!(
            e.contains("needs")
                || e.contains("end of line")
                || e.contains("memo id")
                || e.contains("PROTO"),
            "{tail:?}: {e}"
        );
    }
}

/// The error decoding entry `bomb` of `pickle` (stored as the game stores it) gives.
fn bomb_error(pickle: &[u8]) -> String {
    let file = compress_reversed(pickle);
    let mut scratch = ParamsScratch::default();
    let view = ParamsView::from_bytes_strict(&file, &mut scratch).unwrap();
    let entry = view.by_name("bomb").expect("the entry bomb is indexed");
    entry.value().unwrap_err().to_string()
}

#[test]
fn shared_values_expanding_without_end_are_refused() {
    // List k holds list k-1 twice: 2^60 values if followed naively. Each list is complete
    // (popped) before the next one gets it, so none contains itself.
    let mut q = b"(lp0\n(dp1\n(lp3\nI1\na0".to_vec();
    for k in 4..64u32 {
        q.extend_from_slice(format!("(lp{k}\ng{}\nag{}\na0", k - 1, k - 1).as_bytes());
    }
    q.extend_from_slice(b"S'bomb'\ng63\nsa.");
    let start = Instant::now();
    let e = bomb_error(&q);
    has(&e, &["entry bomb", "expands"]);
    assert!(start.elapsed() < Duration::from_secs(30));
}

#[test]
fn copies_doubling_a_value_are_refused() {
    // DUP then TUPLE2, again and again: each step doubles the value (2^64 values at the end),
    // although each copy is one opcode.
    let mut q = b"(lp0\n(dp1\nS'bomb'\np2\nI1\n".to_vec();
    for _ in 0..64 {
        q.extend_from_slice(b"2\x86");
    }
    q.extend_from_slice(b"sa.");
    let start = Instant::now();
    let e = bomb_error(&q);
    has(&e, &["entry bomb", "expands", "copies"]);
    assert!(start.elapsed() < Duration::from_secs(30));
}

#[test]
fn a_long_string_got_again_and_again_is_charged_by_its_bytes() {
    // A 64 KiB string that needs unescaping (so each decode owns a copy), got 20,000 times from
    // the memo: 1.3 GB of copies for a pickle of 350 KB, were a copy charged as one value.
    let mut q = b"(lp0\n(dp1\nS'bomb'\np2\n(lp3\nS'".to_vec();
    q.extend(std::iter::repeat_n(b"\\x41".as_slice(), 1 << 16).flatten());
    q.extend_from_slice(b"'\np4\na");
    for _ in 0..20_000 {
        q.extend_from_slice(b"g4\na");
    }
    q.extend_from_slice(b"sa.");
    let e = bomb_error(&q);
    has(&e, &["entry bomb", "expands"]);
    // The same string got a few times is an ordinary value.
    let mut q = b"(lp0\n(dp1\nS'few'\np2\n(lp3\nS'".to_vec();
    q.extend(std::iter::repeat_n(b"\\x41".as_slice(), 1 << 16).flatten());
    q.extend_from_slice(b"'\np4\nag4\nag4\nasa.");
    let file = compress_reversed(&q);
    let mut scratch = ParamsScratch::default();
    let view = ParamsView::from_bytes_strict(&file, &mut scratch).unwrap();
    match view.by_name("few").unwrap().value().unwrap() {
        Value::List(items) => {
            assert_eq!(items.len(), 3);
            assert!(
                items
                    .iter()
                    .all(|s| s.as_str().map(str::len) == Some(1 << 16))
            );
        }
        v => panic!("{v:?}"),
    }
}

#[test]
fn the_fuzzers_doubling_copies_end_quickly() {
    // Found by the params fuzz target: marks, BININTs, DUPs and TUPLE1s that doubled a value
    // through DUP until 2 GB were taken. Read as a bare pickle and as a file, through every
    // accessor the fuzz target drives.
    let pickle = include_bytes!("regressions/params_dup_doubling.pickle");
    let start = Instant::now();
    drive::drive_params(pickle);
    drive::drive_params(&compress_reversed(pickle));
    assert!(start.elapsed() < Duration::from_secs(60));
}

#[test]
fn a_value_containing_itself_is_a_reference() {
    let p = b"(lp0\n(dp1\nS'A'\np2\n(lp3\nI1\nag3\nasa.";
    let file = compress_reversed(p);
    let mut scratch = ParamsScratch::default();
    let view = ParamsView::from_bytes_strict(&file, &mut scratch).unwrap();
    let v = view.by_name("A").unwrap().value().unwrap();
    assert_eq!(v, Value::List(vec![Value::Int(1), Value::Ref(3)]));
    let mut out = Vec::new();
    write_value(&mut out, &v, Layout::Compact, 0).unwrap();
    assert_eq!(out, b"[1,\"<cycle: memo 3>\"]");
}

#[test]
fn every_truncation_and_byte_flip_of_the_pickle_is_ok_or_an_error() {
    let file = gamebin::synth::params::example_file();
    let mut scratch = ParamsScratch::default();
    let pickle = ParamsView::from_bytes(&file, &mut scratch)
        .unwrap()
        .pickle()
        .to_vec();
    let walk = |p: &[u8]| {
        let mut s = ParamsScratch::default();
        if let Ok(v) = gamebin::wows::params::from_pickle(p, &mut s) {
            let _ = v.validate();
            for e in v.entries() {
                if let Ok(val) = e.value() {
                    let mut out = Vec::new();
                    let _ = write_value(&mut out, &val, Layout::Pretty, 0);
                }
            }
        }
    };
    let step = (pickle.len() / 400).max(1);
    for len in (0..pickle.len()).step_by(step) {
        walk(&pickle[..len]);
    }
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..300 {
        let mut p = pickle.clone();
        for _ in 0..4 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let i = (rng as usize) % p.len();
            p[i] = (rng >> 32) as u8;
        }
        walk(&p);
    }
}

#[test]
fn every_truncation_and_byte_flip_of_the_file_is_ok_or_an_error() {
    let file = gamebin::synth::params::example_regional_file();
    let mut scratch = ParamsScratch::default();
    // Cut from either end (the stream's end is the file's start).
    let step = (file.len() / 300).max(1);
    for cut in (0..file.len()).step_by(step) {
        let _ = ParamsView::from_bytes(&file[cut..], &mut scratch).map(|v| v.validate());
        let _ = ParamsView::from_bytes(&file[..cut], &mut scratch).map(|v| v.validate());
    }
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..300 {
        let mut f = file.clone();
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let i = (rng as usize) % f.len();
        f[i] ^= ((rng >> 56) as u8) | 1;
        let _ = ParamsView::from_bytes(&f, &mut scratch).map(|v| v.validate());
        let mut s = Scratch::new();
        if let Ok(any) = AnyView::parse(&f, &mut s) {
            let _ = any.check();
            let _ = any.summary();
        }
    }
}

#[test]
fn a_pickle_that_holds_no_entries_is_said_to() {
    let mut scratch = ParamsScratch::default();
    for (pickle, says) in [
        (
            b"(dp0\nS'x'\np1\nI1\ns.".as_slice(),
            "root dict holds no dict",
        ),
        (b"(lp0\nI1\na.".as_slice(), "root list's first value"),
    ] {
        let file = compress_reversed(pickle);
        let view = ParamsView::from_bytes_strict(&file, &mut scratch).unwrap();
        assert_eq!(view.len(), 0);
        let report = view.validate();
        assert!(report.errors.is_empty(), "{report:?}");
        let text: Vec<String> = report.warnings.iter().map(|w| w.to_string()).collect();
        assert!(
            text.iter()
                .any(|w| w.contains("no entries") && w.contains(says)),
            "{text:?}"
        );
    }
    // Params as the game writes them get no such warning.
    let file = gamebin::synth::params::example_file();
    let view = ParamsView::from_bytes_strict(&file, &mut scratch).unwrap();
    let report = view.validate();
    assert!(
        !report
            .warnings
            .iter()
            .any(|w| w.to_string().contains("no entries")),
        "{report:?}"
    );
}

#[test]
fn entries_each_expanding_share_one_budget_in_a_check() {
    // 2,000 entries, each a get of a value that doubles sixty times: with a budget of their own
    // (a million values each) the check would build two billion values; drawing on one budget
    // for the file, it ends at once with each entry named.
    let mut q = b"(lp0\n(dp1\n(lp3\nI1\na0".to_vec();
    for k in 4..64u32 {
        q.extend_from_slice(format!("(lp{k}\ng{}\nag{}\na0", k - 1, k - 1).as_bytes());
    }
    for i in 0..2000 {
        q.extend_from_slice(format!("S'e{i}'\ng63\ns").as_bytes());
    }
    q.extend_from_slice(b"a.");
    let file = compress_reversed(&q);
    let mut scratch = ParamsScratch::default();
    let view = ParamsView::from_bytes_strict(&file, &mut scratch).unwrap();
    assert_eq!(view.len(), 2000);
    let start = Instant::now();
    let report = view.validate();
    assert!(start.elapsed() < Duration::from_secs(30));
    assert_eq!(report.errors.len(), 2000);
    for (i, f) in report.errors.iter().enumerate() {
        has(&f.to_string(), &[&format!("entry e{i}"), "expands"]);
    }
}

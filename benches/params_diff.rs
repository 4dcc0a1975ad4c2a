//! What changed in a GameParams between two game versions: `synth params --scale full` (14,000
//! entries, about 30 MB of pickle) against the same as an update changes it
//! (`synth::params::update`: entries removed and added, one value changed in every 25th entry).
//!
//! ```text
//! cargo bench --bench params_diff
//! ```
//!
//! - `params_diff/open_and_diff`: both files opened (inflated and indexed) and compared, every
//!   change listed: what `gamebin diff OLD NEW` of two installs adds for their
//!   `content/GameParams.data` (and `gamebin diff` of the two files).
//! - `params_diff/diff`: the comparison alone, both already open.

use std::hint::black_box;

use criterion::Criterion;
use gamebin::View;
use gamebin::wows::params::{ParamsScratch, ParamsView};

fn main() {
    let mut c = Criterion::default().configure_from_args();
    let old_model = gamebin::synth::params::full_model();
    let new_model = gamebin::synth::params::update(&old_model);
    let old = old_model.to_bytes().expect("the old file");
    let new = new_model.to_bytes().expect("the new file");
    drop((old_model, new_model));
    let (mut old_scratch, mut new_scratch) = (ParamsScratch::default(), ParamsScratch::default());
    {
        let a = ParamsView::from_bytes(&old, &mut old_scratch).expect("opens");
        let b = ParamsView::from_bytes(&new, &mut new_scratch).expect("opens");
        let report = a.diff(&b).expect("the diff");
        eprintln!(
            "params_diff: {} and {} entries, {} changes",
            a.len(),
            b.len(),
            report.changes.len()
        );
    }
    let mut g = c.benchmark_group("params_diff");
    g.sample_size(10);
    g.bench_function("open_and_diff", |bench| {
        bench.iter(|| {
            let a = ParamsView::from_bytes(black_box(&old), &mut old_scratch).expect("opens");
            let b = ParamsView::from_bytes(black_box(&new), &mut new_scratch).expect("opens");
            a.diff(&b).expect("the diff").changes.len()
        })
    });
    let a = ParamsView::from_bytes(&old, &mut old_scratch).expect("opens");
    let b = ParamsView::from_bytes(&new, &mut new_scratch).expect("opens");
    g.bench_function("diff", |bench| {
        bench.iter(|| {
            black_box(&a)
                .diff(black_box(&b))
                .expect("the diff")
                .changes
                .len()
        })
    });
    g.finish();
    c.final_summary();
}

use std::time::Instant;
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let t = Instant::now();
    let source = ois::source::Source::read(std::path::Path::new(&path)).unwrap();
    let t1 = t.elapsed();
    let root = source.parse().unwrap();
    let t2 = t.elapsed();
    let opts = ois::convert::ConvertOptions {
        base_url: Some("https://x.example".into()),
        ..Default::default()
    };
    let mut conv = ois::convert::convert_value(&root, &opts).unwrap();
    let t3 = t.elapsed();
    for d in conv.diagnostics.iter_mut() {
        d.locate_in(&source);
    }
    let t4 = t.elapsed();
    let t45 = std::time::Instant::now();
    for _ in 0..10 { let _ = ois::ois::rules::check(&conv.ois, None); }
    eprintln!("check x10 {:?}", t45.elapsed());
    let t4 = t.elapsed();
    let text = ois::output::to_text(&conv.ois, ois::output::OutputFormat::Json).unwrap();
    let t5 = t.elapsed();
    drop(root);
    let t6 = t.elapsed();
    eprintln!(
        "read {:?} parse {:?} convert {:?} locate {:?} text {:?} drop {:?} ({} diags, {} bytes)",
        t1,
        t2 - t1,
        t3 - t2,
        t4 - t3,
        t5 - t4,
        t6 - t5,
        conv.diagnostics.len(),
        text.len()
    );
}

#[allow(dead_code)]
fn unused() {}

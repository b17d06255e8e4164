// SPDX-License-Identifier: MIT
//! Print the five opcodes with the most active time, and the MFU.
//!
//!     cargo run --example top_opcodes [NEFF NTFF]
//!
//! Without arguments it opens the bundled sample (samples/demo.neff + .ntff).
use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (neff, ntff) = match args.as_slice() {
        [a, b] => (PathBuf::from(a), PathBuf::from(b)),
        [] => {
            let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../samples");
            (root.join("demo.neff"), root.join("demo.ntff"))
        }
        _ => return Err("usage: top_opcodes [NEFF NTFF]".into()),
    };
    let profile = nxp::Profile::open(&neff, &ntff)?;
    let summary = profile.summary()?;
    let mut rows = summary.opcodes.clone();
    rows.sort_by(|a, b| b.active_time_ns.cmp(&a.active_time_ns).then(a.opcode.cmp(&b.opcode)));
    println!("{:<8} {:<24} {:>8} {:>14} {:>8}", "engine", "opcode", "count", "active_ns", "active%");
    for r in rows.iter().take(5) {
        println!("{:<8} {:<24} {:>8} {:>14} {:>7.2}%", r.engine, r.opcode, r.instruction_count, r.active_time_ns,
                 r.active_time_percent * 100.0);
    }
    match summary.get("mfu_estimated_percent") {
        Some(v) => println!("MFU: {:.2}%", v.as_f64() * 100.0),
        None => println!("MFU: absent (the profile has no model_flops or total_time)"),
    }
    Ok(())
}

// SPDX-License-Identifier: MIT
//! Columnar tables through the Arrow C stream: rows, sums and strings equal the
//! cursors' on the bundled sample and a synthetic LNC=2 profile; export_parquet.
use nxp::ffi;
use nxp::{Compression, CursorOptions, ErrorKind, ExportOptions, Profile, TableOptions};
use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::*;

fn sample() -> Option<(PathBuf, PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..");
    let (neff, ntff) = (root.join("samples/demo.neff"), root.join("samples/demo.ntff"));
    if neff.exists() && ntff.exists() {
        Some((neff, ntff))
    } else {
        eprintln!("samples/demo.neff not present: skipped");
        None
    }
}

fn lnc2(dir: &Path) -> Option<(PathBuf, PathBuf)> {
    let Ok(cli) = std::env::var("NXP_CLI") else {
        eprintln!("NXP_CLI not set (run through meson test rust): LNC=2 profile skipped");
        return None;
    };
    let prefix = dir.join("P");
    let ok = Command::new(cli)
        .args(["synth", "--workload", "mlp", "--arch", "trn2", "--lnc", "2", "--seed", "3", "--quiet", "-o"])
        .arg(&prefix)
        .status()
        .unwrap()
        .success();
    assert!(ok, "nxp synth failed");
    Some((prefix.with_extension("neff"), prefix.with_extension("ntff")))
}

fn check_instructions(p: &Profile, batch_rows: Option<i64>) {
    let opts = TableOptions {
        columns: Some(["start_ts", "duration_ns", "opcode", "pc", "evt_wait_time_ns", "engine_id"]
            .iter().map(|s| s.to_string()).collect()),
        batch_rows,
        ..Default::default()
    };
    let mut s = p.open_table("Instruction", &opts).unwrap();
    let f = s.fields().unwrap();
    assert_eq!(f.iter().map(|x| x.name.as_str()).collect::<Vec<_>>(),
               ["start_ts", "duration_ns", "opcode", "pc", "evt_wait_time_ns", "engine_id"]);
    assert_eq!((f[0].format.as_str(), f[0].nullable), ("l", false));
    assert_eq!((f[2].format.as_str(), f[2].dictionary.as_deref()), ("i", Some("u")));
    assert_eq!(f[5].format, "i");
    let mut cur = p.instructions(CursorOptions::default()).unwrap();
    let (mut rows, mut sum, mut wait, mut batches) = (0usize, 0i64, 0i64, 0usize);
    let mut last = i64::MIN;
    for b in &mut s {
        let b = b.unwrap();
        batches += 1;
        let ts = b.i64s(0).unwrap();
        let dur = b.i64s(1).unwrap();
        let pc = b.i64s(3).unwrap();
        let eng = b.i32s(5).unwrap();
        assert!(b.i32s(0).is_err(), "int64 column read as int32");
        assert_eq!(ts.len(), b.len());
        for r in 0..b.len() {
            let c = cur.next().expect("cursor ends before the stream").unwrap();
            assert_eq!((ts[r], dur[r], pc[r], eng[r]), (c.start_ts, c.duration_ns, c.pc, c.engine_id));
            assert_eq!(b.str_at(2, r).unwrap(), Some(&*c.opcode));
            assert!(ts[r] >= last);
            last = ts[r];
        }
        rows += b.len();
        sum += dur.iter().sum::<i64>();
        wait += b.i64s(4).unwrap().iter().sum::<i64>();
    }
    assert!(cur.next().is_none(), "stream ends before the cursor");
    let recs: Vec<_> = p.instructions(CursorOptions::default()).unwrap().map(|r| r.unwrap()).collect();
    assert_eq!(rows, recs.len());
    assert!(rows > 0);
    assert_eq!(sum, recs.iter().map(|r| r.duration_ns).sum::<i64>());
    assert_eq!(wait, recs.iter().map(|r| r.evt_wait_time_ns).sum::<i64>());
    if let Some(n) = batch_rows {
        assert_eq!(batches, rows.div_ceil(n as usize));
    }
}

#[test]
fn instruction_stream_matches_cursor() {
    if let Some((neff, ntff)) = sample() {
        let p = Profile::open(neff, ntff).unwrap();
        check_instructions(&p, None);
        check_instructions(&p, Some(100));
    }
    let dir = tmpdir("table-lnc2");
    if let Some((neff, ntff)) = lnc2(&dir) {
        let p = Profile::open(neff, ntff).unwrap();
        check_instructions(&p, None);
        // filter: one core
        let opts = TableOptions { columns: Some(vec!["duration_ns".into()]), pcore: Some(1), ..Default::default() };
        let got: i64 = p.open_table("Instruction", &opts).unwrap()
            .map(|b| b.unwrap().i64s(0).unwrap().iter().sum::<i64>()).sum();
        let want: i64 = p.instructions(CursorOptions { pcore: Some(1), ..Default::default() }).unwrap()
            .map(|r| r.unwrap().duration_ns).sum();
        assert!(want > 0);
        assert_eq!(got, want);
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn batches_outlive_stream_and_profile_and_raw_layout() {
    let Some((neff, ntff)) = sample() else { return };
    let p = Profile::open(&neff, &ntff).unwrap();
    let want: i64 = p.dma_packets(CursorOptions::default()).unwrap().map(|r| r.unwrap().transfer_bytes).sum();
    let opts = TableOptions { columns: Some(vec!["transfer_bytes".into(), "queue_name".into()]), ..Default::default() };
    let batches: Vec<_> = p.open_table("DmaPacket", &opts).unwrap().map(|b| b.unwrap()).collect();
    drop(p);
    let got: i64 = batches.iter().map(|b| b.i64s(0).unwrap().iter().sum::<i64>()).sum();
    assert_eq!(got, want);
    // released from another thread
    std::thread::spawn(move || drop(batches)).join().unwrap();

    // The raw struct: what arrow-rs's FFI_ArrowArrayStream takes over.
    assert_eq!(std::mem::size_of::<ffi::ArrowArrayStream>(), 5 * std::mem::size_of::<usize>());
    let p = Profile::open(&neff, &ntff).unwrap();
    let mut raw = p.open_table("SchemaFields", &TableOptions::default()).unwrap().into_raw();
    let mut sch = ffi::ArrowSchema::empty();
    assert_eq!(unsafe { raw.get_schema.unwrap()(&mut raw, &mut sch) }, 0);
    assert!(sch.n_children >= 3);
    unsafe { sch.release.unwrap()(&mut sch) };
    assert!(sch.release.is_none());
    unsafe { raw.release.unwrap()(&mut raw) };
    assert!(raw.release.is_none());
}

#[test]
fn misuse_and_export() {
    let Some((neff, ntff)) = sample() else { return };
    let p = Profile::open(neff, ntff).unwrap();
    assert_eq!(p.open_table("Nope", &TableOptions::default()).err().unwrap().kind(), ErrorKind::InvalidArgument);
    let bad = TableOptions { columns: Some(vec!["nope".into()]), ..Default::default() };
    assert_eq!(p.open_table("Instruction", &bad).err().unwrap().kind(), ErrorKind::InvalidArgument);
    let mut s = p.open_table("Instruction", &TableOptions::default()).unwrap();
    let b = s.next_batch().unwrap().unwrap();
    let op = b.index_of("opcode").unwrap();
    assert!(b.i64s(op).is_err() && b.str_at(op, 0).unwrap().is_some());
    assert!(nxp::table_names().iter().any(|t| t == "SchemaFields"));

    let dir = tmpdir("table-export");
    let opts = ExportOptions { tables: Some(vec!["Instruction".into(), "Summary".into()]), ..Default::default() };
    p.export_parquet(&dir, &opts).unwrap();
    for t in ["Instruction", "Summary"] {
        let b = std::fs::read(dir.join(format!("{}.parquet", t))).unwrap();
        assert!(b.len() > 100 && &b[..4] == b"PAR1" && &b[b.len() - 4..] == b"PAR1", "{}", t);
    }
    assert_eq!(p.export_parquet(&dir, &opts).unwrap_err().kind(), ErrorKind::InvalidArgument);
    let again = ExportOptions { overwrite: true, compression: Compression::None, ..opts };
    p.export_parquet(&dir, &again).unwrap();
    std::fs::remove_dir_all(dir).ok();
    // threads 1 and 2: the same files and report; Flow only when asked for
    let (d1, d2) = (tmpdir("table-export-t1"), tmpdir("table-export-t2"));
    let r1 = p.export_parquet(&d1, &ExportOptions { threads: 1, overwrite: true, ..Default::default() }).unwrap();
    let r2 = p.export_parquet(&d2, &ExportOptions { threads: 2, overwrite: true, ..Default::default() }).unwrap();
    assert_eq!(r1, r2);
    assert_eq!((r1.skipped_records, r1.skipped_sections), (Some(0), Some(0)));
    let names: Vec<_> = std::fs::read_dir(&d1).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names.len(), r1.tables_written as usize);
    assert!(!names.iter().any(|n| n == "Flow.parquet"));
    for n in &names {
        assert!(std::fs::read(d1.join(n)).unwrap() == std::fs::read(d2.join(n)).unwrap(), "{:?}", n);
    }
    let flow = ExportOptions { tables: Some(vec!["default".into(), "Flow".into()]), overwrite: true, threads: 2,
                               ..Default::default() };
    assert_eq!(p.export_parquet(&d1, &flow).unwrap().tables_written, r1.tables_written + 1);
    assert!(d1.join("Flow.parquet").exists());
    std::fs::remove_dir_all(d1).ok();
    std::fs::remove_dir_all(d2).ok();
}

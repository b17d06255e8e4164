// SPDX-License-Identifier: MIT
//! The safe wrapper on real files: a pair written here with libnxp's writers
//! (contents known exactly), and the bundled sample when it exists.
use nxp::ffi;
use nxp::{CursorOptions, Engine, ErrorKind, Neff, Profile, ProfileOptions};
use std::path::Path;

mod common;
use common::*;

#[test]
fn neff_tables() {
    let dir = tmpdir("neff");
    let (neff, _) = make_pair(&dir, UUID);
    let n = Neff::open(&neff).unwrap();
    let h = n.header().unwrap();
    assert_eq!(h.header_size, 1024);
    assert_eq!(h.name, "rust-net");
    assert_eq!(h.uuid, "0102030405060708090a0b0c0d0e0f10");
    let sg = n.subgraphs().unwrap();
    assert_eq!(sg.len(), 1);
    assert_eq!(sg[0].name, "sg00");
    assert_eq!(sg[0].instruction_count[Engine::Tensor as usize], 3);
    assert_eq!(n.instruction_count(0, Engine::Sync).unwrap(), 1);
    let mm = n.instruction(0, Engine::Tensor, 1).unwrap();
    assert_eq!(mm.opcode, "MATMUL");
    assert_eq!(mm.active_cols, 64);
    assert_eq!(mm.inst_word_len, 16); // the encoder's default
    assert_eq!(mm.psum_read_sbuf_write_bytes, 0);
    let e = n.instruction(0, Engine::Tensor, 3).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Range);
    assert_eq!(n.instruction_count(7, Engine::Tensor).unwrap_err().kind(), ErrorKind::Range);
    let t = n.tensors().unwrap();
    assert_eq!((t[0].variable_name.as_str(), t[0].type_.as_str(), t[0].size), ("IN", "input", 4096));
    let q = n.dma_queues().unwrap();
    assert_eq!((q[0].name.as_str(), q[0].type_.as_str()), ("IN_QUE", "input"));
    // from memory as well
    let m = Neff::from_bytes(std::fs::read(&neff).unwrap()).unwrap();
    assert_eq!(m.header().unwrap(), h);
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn iterate_in_time_order() {
    let dir = tmpdir("iter");
    let (neff, ntff) = make_pair(&dir, UUID);
    let p = Profile::open(&neff, &ntff).unwrap();
    let md = p.metadata().unwrap();
    assert_eq!(md.arch, "trn2");
    assert_eq!(md.neff_uuid, "0102030405060708090a0b0c0d0e0f10");
    assert_eq!(md.tpb_start_ts, Some(500));
    assert_eq!(md.tpb_damaged, 0);
    assert_eq!(p.neff().header().unwrap().name, "rust-net");

    let mut n = 0u64;
    let mut last = i64::MIN;
    let mut tensor = 0u64;
    let mut matmuls = 0u64;
    for r in p.instructions(CursorOptions::default()).unwrap() {
        let r = r.unwrap();
        assert!(r.start_ts >= last, "time order");
        last = r.start_ts;
        assert_eq!(r.duration_ns, r.end_ts - r.start_ts);
        if r.engine == "tensor" {
            tensor += 1;
            assert_eq!(r.opcode, if r.pc == 0 { "LDWEIGHTS" } else { "MATMUL" });
            matmuls += (r.opcode == "MATMUL") as u64;
        } else {
            assert_eq!((r.engine.as_ref(), r.opcode.as_ref(), r.duration_ns), ("sync", "NOP", 5));
        }
        n += 1;
    }
    assert_eq!(n, ITER * 4);
    assert_eq!(tensor, ITER * 3);
    assert_eq!(matmuls, ITER * 2);

    // filters: one engine, a time window
    let sync: Vec<_> = p.instructions(CursorOptions { engine: Some(Engine::Sync), ..Default::default() })
        .unwrap().collect::<Result<_, _>>().unwrap();
    assert_eq!(sync.len() as u64, ITER);
    let win: Vec<_> = p.instructions(CursorOptions { start: Some(1000), end: Some(1200), ..Default::default() })
        .unwrap().collect::<Result<_, _>>().unwrap();
    // tensor at 1000,1050,1100,1150 and sync at 1000,1100
    assert_eq!(win.len(), 6);
    assert!(win.iter().all(|r| r.start_ts >= 1000 && r.start_ts < 1200));

    let dma: Vec<_> = p.dma_packets(CursorOptions::default()).unwrap().collect::<Result<_, _>>().unwrap();
    assert_eq!(dma.len(), 4);
    assert_eq!((dma[0].queue_name.as_ref(), dma[0].variable.as_ref(), dma[0].read_bytes), ("IN_QUE", "IN", 256));
    let at: Vec<_> = p.active_time(CursorOptions { engine: Some(Engine::Tensor), ..Default::default() })
        .unwrap().collect::<Result<_, _>>().unwrap();
    let busy: i64 = at.iter().map(|a| a.duration_ns).sum();
    assert_eq!(busy, 40 * (ITER as i64) * 3, "tensor instructions never overlap");

    // seek
    let mut c = p.instructions(CursorOptions { engine: Some(Engine::Tensor), ..Default::default() }).unwrap();
    c.seek(1000 + 50 * 100).unwrap();
    assert_eq!(c.next().unwrap().unwrap().start_ts, 1000 + 50 * 100);
    assert!(c.stats().unwrap().records >= 1);
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn summary_of_pair() {
    let dir = tmpdir("sum");
    let (neff, ntff) = make_pair(&dir, UUID);
    let p = Profile::open(&neff, &ntff).unwrap();
    let s = p.summary().unwrap();
    let total = s.get("total_time").expect("total_time").as_f64();
    let expect = (50 * ITER * 3 + 500 + 500) as f64 * 1e-9;
    assert!((total - expect).abs() < 1e-12, "total_time {} != {}", total, expect);
    let pe = s.opcodes.iter().find(|o| o.engine == "tensor" && o.opcode == "MATMUL").expect("MATMUL row");
    assert_eq!(pe.instruction_count as u64, ITER * 2);
    assert!(s.get("hfu_estimated_percent").is_some());
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn derive_summary_pure() {
    let hw = nxp::Hardware::for_arch("trn2").unwrap();
    assert_eq!(hw.arch(), "trn2");
    let m = nxp::derive_summary([("total_time", 1.0), ("model_flops", hw.max_ops() / 4.0),
                                 ("hbm_read_bytes", 1e9), ("hbm_write_bytes", 0.0)], &hw).unwrap();
    let mfu = m["mfu_estimated_percent"].as_f64();
    assert!((mfu - 0.25).abs() < 1e-12, "mfu {}", mfu);
    let mbu = m["mbu_estimated_percent"].as_f64();
    assert!((mbu - 1e9 / hw.raw().hbm_bandwidth).abs() < 1e-12);
    assert!(!m.contains_key("dma_transfer_average_bytes"), "absent inputs give absent metrics");
    let e = nxp::derive_summary([("no_such_counter", 1.0)], &hw).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::NotFound);
    assert!(e.message.contains("no_such_counter"));
    assert_eq!(nxp::Hardware::for_arch("trn9").unwrap_err().kind(), ErrorKind::NotFound);
}

#[test]
fn misuse_gives_clean_errors() {
    let dir = tmpdir("bad");
    let (neff, ntff) = make_pair(&dir, UUID);
    // missing file
    let e = Profile::open(dir.join("nope.neff"), &ntff).err().expect("missing NEFF must fail");
    assert_eq!(e.kind(), ErrorKind::Io);
    assert!(!e.message.is_empty());
    let e = Neff::open(dir.join("nope.neff")).err().unwrap();
    assert_eq!(e.code, ffi::NXP_E_IO);
    // a file that is not a NEFF: error with an offset
    std::fs::write(dir.join("junk.neff"), vec![0xffu8; 2000]).unwrap();
    let e = Neff::open(dir.join("junk.neff")).err().unwrap();
    assert!(e.code < 0 && !e.message.is_empty(), "{:?}", e);
    // truncated NTFF
    let bytes = std::fs::read(&ntff).unwrap();
    std::fs::write(dir.join("cut.ntff"), &bytes[..bytes.len() / 2]).unwrap();
    let cut = Profile::open(&neff, dir.join("cut.ntff"));
    if let Err(e) = &cut {
        assert!(e.code < 0 && !e.message.is_empty());
    }
    // mismatched pair
    let other = dir.join("other");
    std::fs::create_dir_all(&other).unwrap();
    let (_, ntff2) = make_pair(&other, [9u8; 16]);
    let e = Profile::open(&neff, &ntff2).err().expect("mismatch must fail");
    assert_eq!(e.kind(), ErrorKind::Mismatch);
    assert!(e.message.contains("0102030405060708"), "message names the UUID: {}", e.message);
    assert!(Profile::open_with(&neff, &ntff2, &ProfileOptions { allow_mismatch: true, ..Default::default() }).is_ok());
    // NUL in a path
    assert_eq!(Neff::open("a\0b").err().unwrap().kind(), ErrorKind::InvalidArgument);
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn bundled_sample() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..");
    let (neff, ntff) = (root.join("samples/demo.neff"), root.join("samples/demo.ntff"));
    if !neff.exists() {
        eprintln!("samples/demo.neff not present: skipped");
        return;
    }
    let p = Profile::open(&neff, &ntff).unwrap();
    let mut n = 0;
    let mut last = i64::MIN;
    for r in p.instructions(CursorOptions::default()).unwrap() {
        let r = r.unwrap();
        assert!(r.start_ts >= last);
        last = r.start_ts;
        n += 1;
    }
    assert!(n > 0);
    let s = p.summary().unwrap();
    assert!(s.get("total_time").unwrap().as_f64() > 0.0);
    let total: i64 = s.opcodes.iter().map(|o| o.instruction_count).sum();
    assert_eq!(total, n, "OpcodeSummary counts every instruction");
}

#[test]
fn errors_display_their_message() {
    let missing = "/nonexistent-dir/none.neff";
    let e = Neff::open(missing).err().expect("a missing NEFF is an error");
    assert_eq!(e.kind(), ErrorKind::Io);
    // Display is the message a user reads (the path and the reason), not a Debug dump.
    let shown = e.to_string();
    assert_eq!(shown, e.message);
    assert!(shown.starts_with(missing) && shown.contains("No such file"), "{}", shown);
    assert!(!shown.contains("Error {") && !shown.contains("code:"), "{}", shown);
    assert_eq!(format!("{}", e), shown);
    // With a byte offset, Display says where.
    let d = tmpdir("display");
    let bad = d.join("bad.neff");
    std::fs::write(&bad, [0u8; 10]).unwrap();
    let e = Neff::open(&bad).err().expect("a 10-byte NEFF is an error");
    assert!(e.offset >= 0, "{:?}", e);
    assert_eq!(e.to_string(), format!("{} (at byte {})", e.message, e.offset));
    // And it is a std::error::Error, usable with `?` into Box<dyn Error>.
    let boxed: Box<dyn std::error::Error> = Box::new(e.clone());
    assert_eq!(boxed.to_string(), e.to_string());
    std::fs::remove_dir_all(&d).unwrap();
}

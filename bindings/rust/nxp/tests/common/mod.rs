// SPDX-License-Identifier: MIT
//! Shared by the integration tests: a NEFF/NTFF pair written with libnxp's
//! writers, contents known exactly.
#![allow(dead_code)]
use nxp::ffi;
use nxp::{Engine, Neff, NeffWriter, NtffWriter};
use std::path::{Path, PathBuf};

pub const UUID: [u8; 16] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16];
/// Tensor: LDWEIGHTS, MATMUL, MATMUL; Sync: NOP.
pub const PE: [u32; 3] = [0x01, 0x02, 0x02];
pub const ITER: u64 = 2000; // PE program repetitions: 6000 tensor instructions (several C batches)

pub fn tmpdir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("nxp-rust-{}-{}", tag, std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn instr(op: u32) -> [u8; 64] {
    let mut i: ffi::nxp_neff_instruction = unsafe { ffi::sized() };
    i.opcode_num = op;
    i.partitions = 128;
    i.active_cols = if op == 0x02 { 64 } else { 0 };
    i.src = ffi::nxp_access_pattern { address: 0x5600, memory: 1, dtype: 2, step_elem: [1, 0, 0],
                                      num_elem: [128, 1, 1], ..Default::default() };
    i.dst = ffi::nxp_access_pattern { address: 0x2000000, memory: 2, dtype: 1, step_elem: [1, 0, 0],
                                      num_elem: [64, 1, 1], ..Default::default() };
    nxp::encode_instruction(&i).unwrap()
}

/// Writes t.neff + t.ntff: tensor runs PE ITER times (start 1000 + 50 i, 40 ns
/// each), sync runs one NOP ITER times (start 1000 + 100 i, 5 ns), 4 DMA packets.
pub fn make_pair(dir: &Path, ntff_uuid: [u8; 16]) -> (PathBuf, PathBuf) {
    make_pair_named(dir, "t", UUID, ntff_uuid, ITER)
}

/// make_pair with the file stem, both UUIDs and the repetition count given
/// (instructions: `iter` * 4).
pub fn make_pair_named(dir: &Path, stem: &str, neff_uuid: [u8; 16], ntff_uuid: [u8; 16], iter: u64)
    -> (PathBuf, PathBuf) {
    let neff = dir.join(format!("{}.neff", stem));
    let ntff = dir.join(format!("{}.ntff", stem));
    let mut w = NeffWriter::new("rust-net", neff_uuid).unwrap();
    w.add("kelf-0.json", br#"{"graphs":[{"definition":"sg00/def.json","name":"sg00"}],"version":"0.5"}"#).unwrap();
    w.add("sg00/def.json", br#"{"name":"sg00","var":{"IN":{"type":"input","var_id":0,"size":4096}},
        "dma_queue":{"IN_QUE":{"type":"in"}},"pe":"PE0.json","pe_instr":"PE0.bin","sp":"SP0.json","sp_instr":"SP0.bin"}"#)
        .unwrap();
    w.add("sg00/PE0.json", b"{\"dma\": []}").unwrap();
    w.add("sg00/SP0.json", b"{\"dma\": []}").unwrap();
    let pe: Vec<u8> = PE.iter().flat_map(|&op| instr(op)).collect();
    w.add("sg00/PE0.bin", &pe).unwrap();
    w.add("sg00/SP0.bin", &instr(0xA4)).unwrap();
    w.save(&neff).unwrap();
    let hash = {
        let n = Neff::open(&neff).unwrap();
        let h = n.header().unwrap().hash;
        let mut b = [0u8; 32];
        for i in 0..32 {
            b[i] = u8::from_str_radix(&h[2 * i..2 * i + 2], 16).unwrap();
        }
        b
    };
    let mut t = NtffWriter::create(&ntff, "trn2", ntff_uuid, hash).unwrap();
    let tpb = t.add_queue(ffi::NXP_QUEUE_TPB, None, None).unwrap();
    t.tpb(tpb, &ffi::nxp_ntff_tpb_note { tick: 500, is_stop: 0 }).unwrap();
    let qpe = t.add_queue(ffi::NXP_QUEUE_INSTRUCTION, Some(Engine::Tensor), None).unwrap();
    let qsp = t.add_queue(ffi::NXP_QUEUE_INSTRUCTION, Some(Engine::Sync), None).unwrap();
    for i in 0..iter * 3 {
        let s = 1000 + 50 * i;
        t.instruction(qpe, &ffi::nxp_ntff_instruction_note { start_tick: s, end_tick: s + 40, pc: (i % 3) as u32,
                                                              wait_ticks: 0, execution_index: -1 }).unwrap();
    }
    for i in 0..iter {
        let s = 1000 + 100 * i;
        t.instruction(qsp, &ffi::nxp_ntff_instruction_note { start_tick: s, end_tick: s + 5, pc: 0, wait_ticks: 0,
                                                              execution_index: -1 }).unwrap();
    }
    let var = t.string("IN").unwrap();
    let qd = t.add_queue(ffi::NXP_QUEUE_DMA, None, Some("IN_QUE")).unwrap();
    for i in 0..4u64 {
        t.dma(qd, &ffi::nxp_ntff_dma_note { start_tick: 1000 + 100 * i, end_tick: 1020 + 100 * i, read_bytes: 256,
                                             write_bytes: 256, source: 3, dest: 1, execution_index: -1, variable: var,
                                             ..Default::default() }).unwrap();
    }
    t.tpb(tpb, &ffi::nxp_ntff_tpb_note { tick: 1000 + 50 * iter * 3 + 500, is_stop: 1 }).unwrap();
    t.finish().unwrap();
    (neff, ntff)
}


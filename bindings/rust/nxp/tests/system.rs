// SPDX-License-Identifier: MIT
//! System profiles through the safe wrapper: the real Kineto trace
//! (tests/data/kineto), ntrace.pb / cpu_util.pb / host_mem.pb /
//! trace_info.pb written with libnxp's writers, the clock map, a capture
//! directory, and bad input.
use nxp::ffi;
use nxp::{Capture, ClockMap, CpuUsage, ErrorKind, EventFileKind, HostMemUsage, HostStats, NtraceEvent, Pairing,
          ProfileOptions, SysprofKind, SysprofWriter, SysprofWriterOptions, SystemEvent, SystemEvents, SystemMetadata,
          SystemOptions};
use std::path::{Path, PathBuf};

mod common;
use common::*;

const KINETO_BASE: i64 = 1775078550000000000;

/// The real Kineto trace kept in the project (tests/data/kineto: pytorch/kineto's
/// docs/traces/after_fix_trace.json, BSD-3-Clause), so this test always runs.
fn kineto() -> PathBuf {
    let root = match std::env::var("NXP_SOURCE_ROOT") {
        Ok(d) => PathBuf::from(d),
        Err(_) => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.."),
    };
    let p = root.join("tests/data/kineto/after_fix_trace.json");
    assert!(p.exists(), "{} is part of the project and must exist", p.display());
    p
}

fn all(c: SystemEvents) -> Vec<SystemEvent> {
    c.collect::<Result<_, _>>().unwrap()
}

fn count_phase(rows: &[SystemEvent], ph: &str) -> usize {
    rows.iter().filter(|r| r.phase == ph).count()
}

fn find<'a>(rows: &'a [SystemEvent], name: &str, ph: &str) -> &'a SystemEvent {
    rows.iter().find(|r| r.name == name && r.phase == ph).unwrap_or_else(|| panic!("no {} {}", ph, name))
}

fn check_kineto(rows: &[SystemEvent]) {
    let b = KINETO_BASE;
    assert_eq!(rows.len(), 75);
    assert_eq!((count_phase(rows, "M"), count_phase(rows, "X"), count_phase(rows, "f"), count_phase(rows, "s"),
                count_phase(rows, "i")), (60, 9, 3, 1, 2));
    let op1 = find(rows, "op1", "X");
    assert_eq!((op1.start_ts, op1.duration_ns, op1.end_ts), (b + 88511388202765, 40, b + 88511388202805));
    assert_eq!((op1.process_id, op1.thread_id, op1.pid.as_str()), (514683, 514683, "514683"));
    assert_eq!(op1.trace_event_source, "framework");
    assert_eq!(op1.extra_attributes_json, r#"{"External id":1}"#);
    let span = find(rows, "Test trace (0)", "X");
    assert_eq!((span.pid.as_str(), span.tid.as_str(), span.process_id, span.thread_id), ("Spans", "Test trace", -1, -1));
    assert_eq!((span.duration_ns, span.start_ts), (300, b + 88511388202755));
    let rwe = find(rows, "Record Window End", "i");
    assert_eq!((rwe.pid.as_str(), rwe.extra_attributes_json.as_str(), rwe.start_ts), ("", r#"{"s":"g"}"#, b + 88511388203055));
    let f200 = rows.iter().find(|r| r.phase == "f" && r.flow_id == "200").expect("flow 200");
    assert_eq!((f200.start_ts, f200.process_id, f200.thread_id), (b + 88511388202855, 0, 1));
    assert_eq!(find(rows, "ac2g", "s").flow_id, "1");
    assert_eq!(find(rows, "Kernel", "X").duration_ns, 20);
    assert!(rows.iter().all(|r| r.flags & ffi::NXP_SYSEV_NO_BASE_TIME == 0));
}

#[test]
fn kineto_real_trace() {
    let path = kineto();
    let c = SystemEvents::open(&path, &SystemOptions::default()).unwrap();
    let mut rows = Vec::new();
    let mut c = c;
    for r in c.by_ref() {
        rows.push(r.unwrap());
    }
    check_kineto(&rows);
    assert_eq!(rows[0].file, path.to_string_lossy());
    let st = c.stats().unwrap();
    assert_eq!((st.events, st.framework, st.base_time_ns), (75, 75, KINETO_BASE));
    assert_eq!(st.bytes_read as u64, std::fs::metadata(&path).unwrap().len());
    let mem = all(SystemEvents::from_bytes(std::fs::read(&path).unwrap(), EventFileKind::TraceJson,
                                           &SystemOptions::default()).unwrap());
    check_kineto(&mem);
    assert_eq!(mem.iter().map(|r| r.offset).collect::<Vec<_>>(), rows.iter().map(|r| r.offset).collect::<Vec<_>>());
}

fn write_ntrace(path: &Path, stream: bool, chunk: u32) {
    let o = SysprofWriterOptions { stream, chunk_events: chunk, arch: Some("trn2".into()), pid: 4242,
                                   instance_id: Some("i-0abc".into()), logical_nc_size: 2, ..Default::default() };
    let mut w = SysprofWriter::create(path, SysprofKind::Ntrace, &o).unwrap();
    w.string("nrt_load").unwrap();
    w.string("kbl_exec_pre").unwrap();
    let ev = |ts: i64, name: Option<&str>, phase: i32| NtraceEvent { timestamp: ts, name: name.map(String::from), phase,
                                                                      ..Default::default() };
    w.event(&NtraceEvent { tracking_id: 7, nc_idx: 3, thread_id: 11, id: 500,
                           attributes: vec![("model".into(), "bert".into()), ("worker_gid".into(), "5".into())],
                           ..ev(1000, Some("nrt_execute"), ffi::NXP_NTRACE_PHASE_START) }).unwrap();
    w.event(&NtraceEvent { tracking_id: 8, nc_idx: 3, ..ev(1100, Some("nc_exec_running"), ffi::NXP_NTRACE_PHASE_START) })
        .unwrap();
    w.event(&NtraceEvent { tracking_id: 8, nc_idx: 3, ..ev(1900, None, ffi::NXP_NTRACE_PHASE_STOP) }).unwrap();
    w.event(&NtraceEvent { tracking_id: 7, nrta_seq_id: 99, attributes: vec![("status".into(), "ok".into())],
                           ..ev(2000, None, ffi::NXP_NTRACE_PHASE_STOP) }).unwrap();
    w.event(&NtraceEvent { event_type: 1, duration: 250, ..ev(3000, None, 0) }).unwrap();
    w.event(&NtraceEvent { tracking_id: 1234, ..ev(3500, Some("nrt_tensor_read"), ffi::NXP_NTRACE_PHASE_STOP) }).unwrap();
    w.event(&NtraceEvent { tracking_id: 1235, ..ev(3600, Some("nrt_tensor_write"), ffi::NXP_NTRACE_PHASE_START) })
        .unwrap();
    w.event(&NtraceEvent { nc_idx: 3,
                           attributes: vec![("cpu_timestamp_ns".into(), "4000".into()),
                                            ("nc_timestamp_ns".into(), "777000".into())],
                           ..ev(4000, Some("timestamp_sync_point"), ffi::NXP_NTRACE_PHASE_INSTANT) }).unwrap();
    w.finish().unwrap();
}

const NTRACE_ROWS: [(&str, &str, i64, i64, i64, &str); 6] = [
    ("nc_exec_running", "X", 1100, 1900, 800, "neuron_hw"),
    ("nrt_execute", "X", 1000, 2000, 1000, "neuron_rt"),
    ("kbl_exec_pre", "X", 3000, 3250, 250, "neuron_rt"),
    ("nrt_tensor_read", "E", 3500, 3500, 0, "neuron_rt"),
    ("timestamp_sync_point", "i", 4000, 4000, 0, "neuron_hw"),
    ("nrt_tensor_write", "B", 3600, 3600, 0, "neuron_rt"),
];

fn check_ntrace(rows: &[SystemEvent]) {
    let got: Vec<_> = rows.iter().map(|r| (r.name.as_str(), r.phase.as_str(), r.start_ts, r.end_ts, r.duration_ns,
                                           r.trace_event_source.as_str())).collect();
    assert_eq!(got, NTRACE_ROWS);
    let ex = &rows[1];
    assert_eq!((ex.id, ex.nc_idx, ex.thread_id, ex.process_id, ex.worker_gid, ex.tracking_id), (500, 3, 11, 4242, 5, 7));
    assert_eq!(ex.instance_id, "i-0abc");
    assert_eq!(ex.extra_attributes_json, r#"{"model":"bert","worker_gid":"5","status":"ok"}"#);
    assert_eq!(ex.flags, ffi::NXP_SYSEV_SOFTWARE);
    assert_eq!(rows[0].flags, ffi::NXP_SYSEV_HARDWARE);
    assert_ne!(rows[3].flags & ffi::NXP_SYSEV_UNMATCHED_STOP, 0);
    assert_ne!(rows[5].flags & ffi::NXP_SYSEV_UNMATCHED_START, 0);
}

#[test]
fn ntrace_roundtrip() {
    let dir = tmpdir("ntrace");
    for (stream, chunk) in [(false, 0), (true, 1), (true, 3)] {
        let p = dir.join("ntrace.pb");
        write_ntrace(&p, stream, chunk);
        let mut c = SystemEvents::open(&p, &SystemOptions::default()).unwrap();
        let rows: Vec<_> = c.by_ref().collect::<Result<_, _>>().unwrap();
        check_ntrace(&rows);
        let st = c.stats().unwrap();
        assert_eq!((st.neuron_hw, st.neuron_rt, st.unmatched_starts, st.unmatched_stops), (2, 4, 1, 1));
        let data = std::fs::read(&p).unwrap();
        assert_eq!(st.bytes_read as usize, data.len());
        check_ntrace(&all(SystemEvents::from_bytes(data, EventFileKind::Ntrace, &SystemOptions::default()).unwrap()));
        let raw = all(SystemEvents::open(&p, &SystemOptions { pairing: false, ..Default::default() }).unwrap());
        assert_eq!(raw.len(), 8);
        assert_eq!(raw[0].phase, "B");
        assert_ne!(raw[0].flags & ffi::NXP_SYSEV_UNPAIRED, 0);
        assert_eq!(raw[3].nrta_seq_id, 99);
    }
    assert_eq!(nxp::system_event_group("cc_running"), ffi::NXP_SYSEV_HARDWARE);
    assert_eq!(nxp::system_event_group("nrt_load"), ffi::NXP_SYSEV_SOFTWARE);
    assert_eq!(nxp::system_event_group("x\0y"), 0);
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn trace_json_roundtrip() {
    let dir = tmpdir("tj");
    let base = 1700000000000000000i64;
    let ev = |ph: &str, name: &str, tid: &str, ts: i64, end: i64, args: &str| SystemEvent {
        phase: ph.into(), name: name.into(), pid: "7".into(), tid: tid.into(), start_ts: base + ts,
        end_ts: if end != 0 { base + end } else { 0 }, extra_attributes_json: args.into(), ..Default::default() };
    let evs = vec![ev("X", "aten::mm", "8", 1500, 4250, r#"{"k":1}"#), ev("B", "outer", "8", 10000, 0, ""),
                   ev("E", "", "8", 20000, 0, ""), ev("i", "mark", "8", 30000, 0, r#"{"s":"t"}"#)];
    for gz in [false, true] {
        let p = dir.join(if gz { "t.json.gz" } else { "t.json" });
        nxp::trace_json_write(&p, &evs, base, gz).unwrap();
        assert_eq!(std::fs::read(&p).unwrap()[0] == 0x1f, gz);
        let rows = all(SystemEvents::open(&p, &SystemOptions::default()).unwrap());
        assert_eq!(rows.len(), 3);
        let mm = find(&rows, "aten::mm", "X");
        assert_eq!((mm.start_ts, mm.duration_ns, mm.extra_attributes_json.as_str()), (base + 1500, 2750, r#"{"k":1}"#));
        let outer = find(&rows, "outer", "X");
        assert_eq!((outer.start_ts, outer.end_ts), (base + 10000, base + 20000));
        assert_eq!(find(&rows, "mark", "i").start_ts, base + 30000);
        // baseTimeNanoseconds comes after traceEvents: without the prescan it is unknown
        let late = all(SystemEvents::open(&p, &SystemOptions { prescan: false, ..Default::default() }).unwrap());
        assert_eq!(find(&late, "aten::mm", "X").start_ts, 1500);
        assert_ne!(find(&late, "aten::mm", "X").flags & ffi::NXP_SYSEV_NO_BASE_TIME, 0);
    }
    let bad = SystemEvent { phase: "X".into(), extra_attributes_json: "{nope".into(), ..Default::default() };
    assert_eq!(nxp::trace_json_write(dir.join("bad.json"), &[bad], 0, false).unwrap_err().kind(), ErrorKind::Json);
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn host_stats_and_trace_info() {
    let dir = tmpdir("host");
    let cpu = dir.join("cpu_util.pb");
    let o = SysprofWriterOptions { stream: true, chunk_events: 2, instance_id: Some("i-77".into()), ..Default::default() };
    let mut w = SysprofWriter::create(&cpu, SysprofKind::CpuUtil, &o).unwrap();
    for i in 0..5 {
        w.cpu(1000 + i, 0.25 * i as f64, if i == 4 { "average" } else if i % 2 == 1 { "1" } else { "0" }).unwrap();
    }
    assert_eq!(w.mem(0, 0, 0.0, None).unwrap_err().kind(), ErrorKind::InvalidArgument); // wrong kind
    w.finish().unwrap();
    let got: Vec<CpuUsage> = nxp::cpu_usage(&cpu).unwrap().collect::<Result<_, _>>().unwrap();
    assert_eq!(got.len(), 5);
    for (i, u) in got.iter().enumerate() {
        assert_eq!((u.timestamp, u.util_percent, u.instance_id.as_str()), (1000 + i as i64, 0.25 * i as f64, "i-77"));
    }
    assert_eq!(got[4].cpu_id, "average");
    let mem = dir.join("host_mem.pb");
    let mut w = SysprofWriter::create(&mem, SysprofKind::HostMem, &SysprofWriterOptions::default()).unwrap();
    for i in 0..3i64 {
        w.mem(2000 + i, (1 << 30) * (i + 1), 10.0 * (i + 1) as f64, if i < 2 { Some(1 << 40) } else { None }).unwrap();
    }
    w.finish().unwrap();
    let opts = SystemOptions { instance_id: Some("i-given".into()), ..Default::default() };
    let got: Vec<HostMemUsage> = HostStats::open(&mem, &opts).unwrap().collect::<Result<_, _>>().unwrap();
    assert_eq!(got.iter().map(|m| (m.timestamp, m.used_bytes, m.total_bytes)).collect::<Vec<_>>(),
               vec![(2000, 1 << 30, 1 << 40), (2001, 2 << 30, 1 << 40), (2002, 3 << 30, -1)]);
    assert!(got.iter().all(|m| m.instance_id == "i-given"));
    // truncated stream: the samples before the cut, then one error with an offset, then the end
    let data = std::fs::read(&cpu).unwrap();
    let mut it = HostStats::<CpuUsage>::from_bytes(data[..data.len() - 1].to_vec(), &SystemOptions::default()).unwrap();
    let mut ok = 0;
    let err = loop {
        match it.next().expect("an error before the end") {
            Ok(_) => ok += 1,
            Err(e) => break e,
        }
    };
    assert!(ok >= 3 && ok < 5, "{} samples before the cut", ok);
    assert!(matches!(err.kind(), ErrorKind::Truncated | ErrorKind::Protobuf), "{:?}", err);
    assert!(err.offset >= 0 && err.offset <= data.len() as i64);
    assert!(it.next().is_none());

    let ti = dir.join("trace_info.pb");
    let md = SystemMetadata { first_ts_ns: 1748779200000000000, last_ts_ns: 1748779201500000000, ntff_version: 6,
                              hbm_capacity_bytes: 96 << 30, instance_id: "i-0123".into(), arch: "trn2".into(),
                              pid: 77, num_neuron_cores: 8, ..Default::default() };
    for stream in [false, true] {
        nxp::trace_info_write(&ti, &md, stream).unwrap();
        let got = nxp::trace_info(&ti).unwrap();
        assert_eq!(got.first_ts, "2025-06-01T12:00:00.000000000Z");
        assert_eq!(got.last_ts, "2025-06-01T12:00:01.500000000Z");
        assert_eq!(SystemMetadata { first_ts: String::new(), last_ts: String::new(), ..got.clone() }, md);
        let small = SystemOptions { max_message_size: 8, ..Default::default() };
        let e = nxp::trace_info_from_bytes(std::fs::read(&ti).unwrap(), &small).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Limit);
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn clock_map() {
    let dir = tmpdir("clock");
    let p = dir.join("sync.pb");
    let mut w = SysprofWriter::create(&p, SysprofKind::Ntrace, &SysprofWriterOptions::default()).unwrap();
    for (nc, cpu, dev) in [(0i64, 5000000000i64, 1000000i64), (1, 5000000100, 9000000), (0, 5000002500, 3000000)] {
        w.event(&NtraceEvent { timestamp: cpu, name: Some("timestamp_sync_point".into()),
                               phase: ffi::NXP_NTRACE_PHASE_INSTANT, nc_idx: nc,
                               attributes: vec![("cpu_timestamp_ns".into(), cpu.to_string()),
                                                ("nc_timestamp_ns".into(), dev.to_string())],
                               ..Default::default() }).unwrap();
    }
    w.finish().unwrap();
    let mut ev = SystemEvents::open(&p, &SystemOptions::default()).unwrap();
    let m = ClockMap::build(&mut ev, 0).unwrap();
    assert!(ev.next().is_none(), "build reads the cursor to its end");
    assert_eq!(m.len(), 3);
    assert_eq!(m.to_host(0, 400000).unwrap(), 5000000000 - 600000);
    assert_eq!(m.to_host(0, 2000000).unwrap(), 5000002500 - 1000000);
    assert_eq!(m.to_host(0, 3000010).unwrap(), 5000002510);
    assert_eq!(m.to_host(1, 9000000).unwrap(), 5000000100);
    assert_eq!(m.to_host(2, 0).unwrap_err().kind(), ErrorKind::NotFound);
    let mut ev = SystemEvents::open(&p, &SystemOptions::default()).unwrap();
    assert_eq!(ClockMap::build(&mut ev, 2).err().unwrap().kind(), ErrorKind::Limit);
    let mut m = ClockMap::new().unwrap();
    assert!(m.is_empty());
    m.add(5, 300, 10300).unwrap();
    m.add(5, 100, 10000).unwrap();
    assert_eq!((m.to_host(5, 50).unwrap(), m.to_host(5, 200).unwrap()), (9950, 10200));
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn capture_directory() {
    let root = tmpdir("capture");
    let p1 = root.join("out/i-0abc_pid_100");
    let p2 = root.join("out/i-0def_pid_300/20250601T120000");
    std::fs::create_dir_all(&p1).unwrap();
    std::fs::create_dir_all(&p2).unwrap();
    write_ntrace(&p1.join("ntrace.pb"), false, 0);
    nxp::trace_info_write(&p1.join("trace_info.pb"), &SystemMetadata { arch: "trn2".into(), ..Default::default() },
                          false).unwrap();
    let step = SystemEvent { phase: "X".into(), name: "step".into(), pid: "100".into(), tid: "1".into(),
                             start_ts: 1000, end_ts: 3000, ..Default::default() };
    nxp::trace_json_write(p1.join("trace.json"), &[step], 0, false).unwrap();
    let (n, t) = make_pair_named(&p1, "tmp", [0x10; 16], [0x10; 16], 2);
    std::fs::rename(n, p1.join("neff_395760075800974.neff")).unwrap();
    std::fs::rename(t, p1.join("395760075800974_instid_0_vnc_0.ntff")).unwrap();
    write_ntrace(&p2.join("ntrace.pb"), true, 2);
    let (n, t) = make_pair_named(&p2, "tmp", [0x55; 16], [0x55; 16], 3);
    std::fs::rename(n, p2.join("neff_555_vnc_0.neff")).unwrap();
    std::fs::rename(t, p2.join("profile_nc_0_session_1.ntff")).unwrap();
    let (n, t) = make_pair_named(&p2, "tmp", [0x55; 16], [0x66; 16], 1);
    std::fs::remove_file(n).unwrap();
    std::fs::rename(t, p2.join("profile_nc_1_session_1.ntff")).unwrap();

    let cap = Capture::open(&root).unwrap();
    assert_eq!((cap.files().len(), cap.processes().len(), cap.profiles().len()), (9, 2, 3));
    let pr = cap.processes();
    assert_eq!((pr[0].instance_id.as_str(), pr[0].pid, pr[0].complete, pr[0].dir.as_path()), ("i-0abc", 100, true, p1.as_path()));
    assert_eq!((pr[1].instance_id.as_str(), pr[1].pid, pr[1].timestamp.as_str(), pr[1].complete, pr[1].trace_info),
               ("i-0def", 300, "20250601T120000", false, -1));
    let profs = cap.profiles();
    assert_eq!(profs.iter().map(|p| (p.pairing, p.process_index, p.nc_idx)).collect::<Vec<_>>(),
               vec![(Pairing::ByUuid, 0, 0), (Pairing::ByUuid, 1, 0), (Pairing::Sole, 1, 1)]); // _vnc_0: nc 0
    let f = &cap.files()[profs[0].neff as usize];
    assert_eq!((f.kind, f.uuid.as_deref(), f.name_hash.as_str()), (ffi::NXP_SYSFILE_NEFF, Some("10101010101010101010101010101010"), "395760075800974"));
    assert_eq!(cap.files()[profs[2].ntff as usize].uuid.as_deref(), Some("66666666666666666666666666666666"));
    assert_eq!(cap.problems().len(), 1);
    assert!(cap.problems()[0].contains("trace_info.pb is missing"));

    let prof = cap.open_profile(0, &ProfileOptions::default()).unwrap();
    let q = cap.open_profile(1, &ProfileOptions::default()).unwrap();
    assert_eq!(q.instructions(Default::default()).unwrap().count(), 3 * 4);
    assert_eq!(cap.open_profile(2, &ProfileOptions::default()).err().unwrap().kind(), ErrorKind::Mismatch);
    let mm = cap.open_profile(2, &ProfileOptions { allow_mismatch: true, ..Default::default() }).unwrap();
    assert_eq!(mm.metadata().unwrap().neff_uuid, "66666666666666666666666666666666");
    assert_eq!(cap.open_profile(3, &ProfileOptions::default()).err().unwrap().kind(), ErrorKind::Range);

    let ev0 = all(cap.events(Some(0), &SystemOptions::default()).unwrap());
    assert_eq!(ev0.iter().map(|r| r.name.as_str()).collect::<Vec<_>>(),
               NTRACE_ROWS.iter().map(|r| r.0).chain(["step"]).collect::<Vec<_>>());
    assert_eq!((ev0[6].trace_event_source.as_str(), ev0[6].instance_id.as_str()), ("framework", "i-0abc"));
    assert_eq!(cap.events(Some(2), &SystemOptions::default()).err().unwrap().kind(), ErrorKind::Range);
    let every = cap.events(None, &SystemOptions::default()).unwrap();
    drop(cap); // cursors and profiles do not depend on the capture handle
    assert_eq!(every.count(), 13);
    assert_eq!(prof.instructions(Default::default()).unwrap().count(), 2 * 4);
    let mut c = SystemEvents::open(&root, &SystemOptions::default()).unwrap();
    assert_eq!(c.by_ref().count(), 13);
    assert_eq!(c.stats().unwrap().files, 3);
    std::fs::remove_dir_all(root).ok();
}

#[test]
fn bad_input_and_misuse() {
    let dir = tmpdir("sysbad");
    let nope = dir.join("nope");
    assert_eq!(SystemEvents::open(&nope, &SystemOptions::default()).err().unwrap().kind(), ErrorKind::Io);
    assert_eq!(nxp::cpu_usage(&nope).err().unwrap().kind(), ErrorKind::Io);
    assert_eq!(nxp::trace_info(&nope).unwrap_err().kind(), ErrorKind::Io);
    assert_eq!(Capture::open(&nope).err().unwrap().kind(), ErrorKind::Io);
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    assert_eq!(Capture::open(&empty).err().unwrap().kind(), ErrorKind::NotFound);
    assert_eq!(SystemEvents::open(&empty, &SystemOptions::default()).err().unwrap().kind(), ErrorKind::NotFound);
    assert_eq!(SystemEvents::open("a\0b", &SystemOptions::default()).err().unwrap().kind(), ErrorKind::InvalidArgument);
    let o = SystemOptions { instance_id: Some("x\0".into()), ..Default::default() };
    assert_eq!(SystemEvents::open(&dir, &o).err().unwrap().kind(), ErrorKind::InvalidArgument);

    // malformed trace.json: the row before the fault, then the error (with its offset) once, then the end
    let doc = br#"{"traceEvents":[{"ph":"X","name":"a","pid":1,"tid":2,"ts":1,"dur":2},{"ph":"X",,}]}"#.to_vec();
    let at = doc.windows(11).position(|w| w == br#"{"ph":"X",,"#).unwrap() as i64;
    let mut c = SystemEvents::from_bytes(doc, EventFileKind::Auto, &SystemOptions::default()).unwrap();
    assert_eq!(c.next().unwrap().unwrap().name, "a");
    let e = c.next().unwrap().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Json);
    assert!(e.offset >= at && !e.message.is_empty(), "{:?}", e);
    assert!(c.next().is_none());
    // malformed ntrace.pb: exact offsets
    for (data, kind, off) in [(vec![0x28u8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01],
                               ErrorKind::Protobuf, 1i64),
                              (vec![0x28, 0x01, 0x0a, 0x64, 0x08, 0x01, 0x00], ErrorKind::Truncated, 3),
                              (vec![0x28, 0x01, 0x0b, 0x0c], ErrorKind::Protobuf, 2)] {
        let e = SystemEvents::from_bytes(data, EventFileKind::Ntrace, &SystemOptions::default()).unwrap()
            .find_map(|r| r.err()).expect("an error");
        assert_eq!((e.kind(), e.offset), (kind, off));
    }
    let o = SystemOptions { max_message_size: 4, ..Default::default() };
    let e = SystemEvents::from_bytes(vec![0x0a, 0x06, 0x08, 0x01, 0x10, 0x02, 0x18, 0x03], EventFileKind::Ntrace, &o)
        .unwrap().next().unwrap().unwrap_err();
    assert_eq!((e.kind(), e.offset), (ErrorKind::Limit, 1));
    // every truncation of a written stream: a clean end or a clean error inside the input
    let p = dir.join("n.pb");
    write_ntrace(&p, true, 2);
    let data = std::fs::read(&p).unwrap();
    let mut clean = 0;
    for cut in 0..data.len() {
        let c = SystemEvents::from_bytes(data[..cut].to_vec(), EventFileKind::Ntrace, &SystemOptions::default()).unwrap();
        match c.filter_map(|r| r.err()).next() {
            None => clean += 1,
            Some(e) => {
                assert!(matches!(e.kind(), ErrorKind::Truncated | ErrorKind::Protobuf), "cut {}: {:?}", cut, e);
                assert!(e.offset >= 0 && e.offset <= cut as i64, "cut {}: {:?}", cut, e);
            }
        }
    }
    assert_eq!(clean, 5, "the empty file and the 4 message boundaries before the end");
    // writer misuse
    let mut w = SysprofWriter::create(dir.join("w.pb"), SysprofKind::Ntrace, &SysprofWriterOptions::default()).unwrap();
    w.event(&NtraceEvent::default()).unwrap();
    assert_eq!(w.string("late").unwrap_err().kind(), ErrorKind::InvalidArgument);
    assert_eq!(w.cpu(1, 1.0, "0").unwrap_err().kind(), ErrorKind::InvalidArgument);
    drop(w);
    std::fs::remove_dir_all(dir).ok();
}

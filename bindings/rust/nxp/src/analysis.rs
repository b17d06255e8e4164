// SPDX-License-Identifier: MIT
//! File kinds (nxp.h), timeline export (nxp/timeline.h) and analysis
//! (nxp/analysis.h): dependency flows, the critical path and insights.
//! Results own their strings: they stay valid after the profile is dropped.
use crate::{check, owned, path_cstring, status, Engine, Error, Hardware, Profile, Result};
use nxp_sys as sys;
use std::marker::PhantomData;
use std::path::Path;
use std::ptr;

// ------------------------------------------------------------------ file kinds

/// What a file holds (nxp_file_kind; the discriminants are the C numbers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FileKind {
    Unknown = 0,
    Empty = 1,
    Directory = 2,
    Neff = 3,
    Ntff = 4,
    Json = 5,
    JsonGzip = 6,
    Gzip = 7,
    Protobuf = 8,
    Stream = 9,
}

impl FileKind {
    pub fn from_code(code: i32) -> FileKind {
        use FileKind::*;
        match code {
            1 => Empty,
            2 => Directory,
            3 => Neff,
            4 => Ntff,
            5 => Json,
            6 => JsonGzip,
            7 => Gzip,
            8 => Protobuf,
            9 => Stream,
            _ => Unknown,
        }
    }

    /// Short name: "neff", "ntff", "json", "json_gzip", "empty", "directory", ...
    pub fn name(self) -> &'static str {
        use FileKind::*;
        match self {
            Unknown => "unknown",
            Empty => "empty",
            Directory => "directory",
            Neff => "neff",
            Ntff => "ntff",
            Json => "json",
            JsonGzip => "json_gzip",
            Gzip => "gzip",
            Protobuf => "protobuf",
            Stream => "stream",
        }
    }

    /// libnxp's noun phrase ("a NEFF", "an NTFF trace", "an empty file", ...).
    pub fn description(self) -> String {
        owned(unsafe { sys::nxp_file_kind_name(self as i32) })
    }
}

/// The kind of the file at `path`, decided from its first bytes (never its name).
pub fn file_kind(path: impl AsRef<Path>) -> Result<FileKind> {
    let p = path_cstring(path.as_ref())?;
    let mut k = 0;
    let mut st = status();
    let rc = unsafe { sys::nxp_file_kind_detect(p.as_ptr(), &mut k, &mut st) };
    if rc < 0 {
        return Err(Error::from_status(rc, &st));
    }
    Ok(FileKind::from_code(k))
}

/// The kind of bytes in memory: `head` is the start of the input, `total_size`
/// the whole input's size (None: `head` is the whole input).
pub fn file_kind_of_bytes(head: &[u8], total_size: Option<i64>) -> Result<FileKind> {
    let mut k = 0;
    let total = total_size.unwrap_or(head.len() as i64);
    check(unsafe { sys::nxp_file_kind_detect_buffer(head.as_ptr().cast(), head.len(), total, &mut k) })?;
    Ok(FileKind::from_code(k))
}

// ------------------------------------------------------------------ timeline

/// Output format of [`Profile::export_timeline`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TimelineFormat {
    #[default]
    Perfetto,
    ChromeJson,
}

/// Options of [`Profile::export_timeline`] (None = the C default).
#[derive(Clone, Debug, Default)]
pub struct TimelineOptions {
    pub format: TimelineFormat,
    pub start_ts: Option<i64>,
    pub end_ts: Option<i64>,
    pub engine: Option<Engine>,
    pub execution: Option<i32>,
    /// Stop after this many events (stats.truncated = 1).
    pub max_events: Option<i64>,
    pub counter_window_ns: Option<i64>,
    /// Chrome JSON: Some(true) gzip, Some(false) plain, None = when the path ends in ".gz".
    /// Perfetto: Some(true) = packets deflated in `compressed_packets` bundles; otherwise plain.
    pub gzip: Option<bool>,
    pub overwrite: bool,
}

/// Options of [`export_capture_timeline`] (None = the C default).
#[derive(Clone, Debug, Default)]
pub struct CaptureTimelineOptions {
    /// Also write combined_profile.pftrace (device activity on host time).
    pub combined: bool,
    /// Comma-separated system event fields of the process-level tracks
    /// (None = "instance_id,process_id").
    pub primary_group: Option<String>,
    /// Fields of the tracks under them (None = "worker_gid,lnc_idx,thread_id").
    pub secondary_group: Option<String>,
    pub max_events: Option<i64>,
    /// The device content's semaphore flow arrows (None = on).
    pub device_flows: Option<bool>,
    pub overwrite: bool,
}

/// Write capture directory `dir` as Perfetto traces into `out_dir`
/// (nxp_capture_export_timeline: device_profile_<NTFF name>.pftrace per device
/// profile, system_profile.pftrace, and with `combined`
/// combined_profile.pftrace); returns the summed stats.
pub fn export_capture_timeline(dir: impl AsRef<Path>, out_dir: impl AsRef<Path>, opts: &CaptureTimelineOptions)
    -> Result<sys::nxp_timeline_stats> {
    let d = path_cstring(dir.as_ref())?;
    let out = path_cstring(out_dir.as_ref())?;
    let group = |g: &Option<String>| -> Result<Option<std::ffi::CString>> {
        g.as_ref()
            .map(|s| std::ffi::CString::new(s.as_str()).map_err(|_| Error::new(sys::NXP_E_INVAL, "group: NUL in the field list")))
            .transpose()
    };
    let (pg, sg) = (group(&opts.primary_group)?, group(&opts.secondary_group)?);
    let o = sys::nxp_timeline_options {
        max_events: opts.max_events.unwrap_or(0),
        overwrite: opts.overwrite as i32,
        combined: opts.combined as i32,
        device_flows: opts.device_flows.map_or(1, |f| f as i32),
        system_primary_group: pg.as_ref().map_or(ptr::null(), |c| c.as_ptr()),
        system_secondary_group: sg.as_ref().map_or(ptr::null(), |c| c.as_ptr()),
        ..Default::default()
    };
    let mut stats: sys::nxp_timeline_stats = unsafe { sys::sized() };
    let mut st = status();
    let rc = unsafe { sys::nxp_capture_export_timeline(d.as_ptr(), out.as_ptr(), &o, &mut stats, &mut st) };
    if rc < 0 {
        return Err(Error::from_status(rc, &st));
    }
    Ok(stats)
}

// ------------------------------------------------------------------ flows

/// A Flow row (nxp_flow).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Flow {
    pub in_id: i64,
    pub out_id: i64,
    pub in_table: String,
    pub out_table: String,
    pub dependency_type: String,
    pub gap_time: i64,
    pub kind: i32,
    pub in_table_id: i32,
    pub out_table_id: i32,
    pub exact: bool,
    pub in_ts: i64,
    pub out_ts: i64,
    pub pcore_idx: i64,
}

fn flow(f: &sys::nxp_flow) -> Flow {
    Flow {
        in_id: f.in_id,
        out_id: f.out_id,
        in_table: owned(f.in_table),
        out_table: owned(f.out_table),
        dependency_type: owned(f.dependency_type),
        gap_time: f.gap_time,
        kind: f.kind,
        in_table_id: f.in_table_id,
        out_table_id: f.out_table_id,
        exact: f.exact != 0,
        in_ts: f.in_ts,
        out_ts: f.out_ts,
        pcore_idx: f.pcore_idx,
    }
}

/// Options of [`Profile::flows`].
#[derive(Clone, Debug, Default)]
pub struct FlowOptions {
    pub start_ts: Option<i64>,
    pub end_ts: Option<i64>,
    pub pcore: Option<i64>,
    pub window_ns: Option<i64>,
}

/// Iterator over a profile's dependency edges; after an error it yields that
/// error once and ends.
pub struct FlowCursor<'p> {
    h: *mut sys::nxp_flow_cursor,
    done: bool,
    _p: PhantomData<&'p Profile>,
}

impl Iterator for FlowCursor<'_> {
    type Item = Result<Flow>;
    fn next(&mut self) -> Option<Result<Flow>> {
        if self.done {
            return None;
        }
        let mut f: sys::nxp_flow = unsafe { sys::sized() };
        let rc = unsafe { sys::nxp_flow_cursor_next(self.h, &mut f) };
        if rc == sys::NXP_END {
            self.done = true;
            return None;
        }
        if rc < 0 {
            self.done = true;
            let mut st = status();
            unsafe { sys::nxp_flow_cursor_error(self.h, &mut st) };
            return Some(Err(Error::from_status(rc, &st)));
        }
        Some(Ok(flow(&f)))
    }
}

impl Drop for FlowCursor<'_> {
    fn drop(&mut self) {
        unsafe { sys::nxp_flow_cursor_close(self.h) }
    }
}

/// Direction of [`Profile::flows_of`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlowDirection {
    /// Edges whose out record is the given one: what it waited on.
    WaitedOn,
    /// Edges whose in record is the given one: what it unblocked.
    Unblocked,
}

// ------------------------------------------------------------------ critical path

/// One record on the critical path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CriticalStep {
    /// NXP_TABLE_INSTRUCTION, _DMA_PACKET or _SEMAPHORE_UPDATE
    pub table: i32,
    pub id: i64,
    pub start_ts: i64,
    pub end_ts: i64,
    pub resource: String,
    pub label: String,
    pub via: String,
    pub ns: i64,
}

/// Time on the path charged to one resource.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CriticalResource {
    pub resource: String,
    pub ns: i64,
    pub busy_ns: i64,
    pub slack_ns: i64,
}

/// The critical path of an interval; `breakdown` sums to `total_ns`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CriticalPath {
    pub start_ts: i64,
    pub end_ts: i64,
    pub total_ns: i64,
    /// Rows largest first.
    pub breakdown: Vec<CriticalResource>,
    /// Steps in time order (of their ends).
    pub path: Vec<CriticalStep>,
}

struct CpHandle(*mut sys::nxp_critical_path);
impl Drop for CpHandle {
    fn drop(&mut self) {
        unsafe { sys::nxp_critical_path_close(self.0) }
    }
}

// ------------------------------------------------------------------ insights

/// One figure supporting an insight.
#[derive(Clone, Debug, PartialEq)]
pub struct Evidence {
    pub name: String,
    pub value: f64,
    pub unit: String,
}

/// One rule-based finding (doc/insights.md).
#[derive(Clone, Debug, PartialEq)]
pub struct Insight {
    pub rule: String,
    pub severity: String,
    pub severity_level: i32,
    pub message: String,
    pub recommendation: String,
    /// The time range the finding is about, None when it has none.
    pub start_ts: Option<i64>,
    pub end_ts: Option<i64>,
    pub evidence: Vec<Evidence>,
}

/// The rules of doc/insights.md.
pub const INSIGHT_RULES: &[&str] = &[
    "dma_bound",
    "low_mfu_semaphore_waits",
    "critical_path_dominated",
    "throttling",
    "small_dma_transfers",
    "spill_traffic",
    "idle_gaps_between_executions",
    "straggler",
];

fn insights_of(h: *const sys::nxp_insights) -> Result<Vec<Insight>> {
    let n = unsafe { sys::nxp_insights_count(h) };
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let mut x: sys::nxp_insight = unsafe { sys::sized() };
        check(unsafe { sys::nxp_insights_get(h, i, &mut x) })?;
        let ev = if x.evidence.is_null() {
            &[][..]
        } else {
            unsafe { std::slice::from_raw_parts(x.evidence, x.evidence_count) }
        };
        let opt = |t: i64| if t == i64::MIN { None } else { Some(t) };
        out.push(Insight {
            rule: owned(x.rule),
            severity: owned(x.severity),
            severity_level: x.severity_level,
            message: owned(x.message),
            recommendation: owned(x.recommendation),
            start_ts: opt(x.start_ts),
            end_ts: opt(x.end_ts),
            evidence: ev.iter().map(|e| Evidence { name: owned(e.name), value: e.value, unit: owned(e.unit) }).collect(),
        });
    }
    Ok(out)
}

impl Profile {
    /// Write the timeline to `path` (Perfetto protobuf or Chrome JSON); returns
    /// what was written.  An existing file is refused unless `overwrite`.
    pub fn export_timeline(&self, path: impl AsRef<Path>, opts: &TimelineOptions) -> Result<sys::nxp_timeline_stats> {
        let p = path_cstring(path.as_ref())?;
        let o = sys::nxp_timeline_options {
            format: match opts.format {
                TimelineFormat::Perfetto => sys::NXP_TIMELINE_PERFETTO,
                TimelineFormat::ChromeJson => sys::NXP_TIMELINE_CHROME_JSON,
            },
            start_ts: opts.start_ts.unwrap_or(i64::MIN),
            end_ts: opts.end_ts.unwrap_or(i64::MAX),
            engine: opts.engine.map_or(-1, |e| e as i32),
            execution: opts.execution.unwrap_or(-1),
            max_events: opts.max_events.unwrap_or(0),
            counter_window_ns: opts.counter_window_ns.unwrap_or(0),
            gzip: opts.gzip.map_or(-1, |g| g as i32),
            overwrite: opts.overwrite as i32,
            ..Default::default()
        };
        let mut stats: sys::nxp_timeline_stats = unsafe { sys::sized() };
        let mut st = status();
        let rc = unsafe { sys::nxp_profile_export_timeline(self.h, p.as_ptr(), &o, &mut stats, &mut st) };
        if rc < 0 {
            return Err(Error::from_status(rc, &st));
        }
        Ok(stats)
    }

    /// The dependency edges (the Flow table) with out_ts in [start_ts, end_ts).
    pub fn flows(&self, opts: &FlowOptions) -> Result<FlowCursor<'_>> {
        let o = sys::nxp_flow_options {
            start_ts: opts.start_ts.unwrap_or(i64::MIN),
            end_ts: opts.end_ts.unwrap_or(i64::MAX),
            pcore_idx: opts.pcore.unwrap_or(-1),
            window_ns: opts.window_ns.unwrap_or(0),
            ..Default::default()
        };
        let mut h = ptr::null_mut();
        let mut st = status();
        let rc = unsafe { sys::nxp_flow_cursor_open(&mut h, self.h, &o, &mut st) };
        if rc < 0 {
            return Err(Error::from_status(rc, &st));
        }
        Ok(FlowCursor { h, done: false, _p: PhantomData })
    }

    /// The edges into or out of record `id` of `table` (NXP_TABLE_INSTRUCTION,
    /// NXP_TABLE_DMA_PACKET or NXP_TABLE_SEMAPHORE_UPDATE).
    pub fn flows_of(&self, table: i32, id: i64, direction: FlowDirection) -> Result<Vec<Flow>> {
        let d = match direction {
            FlowDirection::WaitedOn => sys::NXP_FLOW_WAITED_ON,
            FlowDirection::Unblocked => sys::NXP_FLOW_UNBLOCKED,
        };
        let mut cap = 16usize;
        loop {
            let mut buf: Vec<sys::nxp_flow> = (0..cap).map(|_| unsafe { sys::sized() }).collect();
            let mut count = 0usize;
            let mut st = status();
            let rc = unsafe {
                sys::nxp_profile_flows_of(self.h, table, id, d, buf.as_mut_ptr().cast(),
                                          std::mem::size_of::<sys::nxp_flow>(), cap, &mut count, &mut st)
            };
            if rc < 0 {
                return Err(Error::from_status(rc, &st));
            }
            if count <= cap {
                return Ok(buf[..count].iter().map(flow).collect());
            }
            cap = count;
        }
    }

    /// The critical path of execution `execution`, or (None) of the interval
    /// of the summary's total_exec_time; `pcore` None = every physical core.
    pub fn critical_path(&self, execution: Option<i32>, pcore: Option<i64>) -> Result<CriticalPath> {
        let o = sys::nxp_critical_path_options {
            execution_index: execution.unwrap_or(-1),
            pcore_idx: pcore.unwrap_or(-1),
            ..Default::default()
        };
        let mut h = ptr::null_mut();
        let mut st = status();
        let rc = unsafe { sys::nxp_profile_critical_path(self.h, &o, &mut h, &mut st) };
        if rc < 0 {
            return Err(Error::from_status(rc, &st));
        }
        let cp = CpHandle(h);
        let (mut a, mut b, mut t) = (0i64, 0i64, 0i64);
        check(unsafe { sys::nxp_critical_path_interval(cp.0, &mut a, &mut b, &mut t) })?;
        let mut path = Vec::new();
        for i in 0..unsafe { sys::nxp_critical_path_step_count(cp.0) } {
            let mut s: sys::nxp_critical_step = unsafe { sys::sized() };
            check(unsafe { sys::nxp_critical_path_get_step(cp.0, i, &mut s) })?;
            path.push(CriticalStep {
                table: s.table,
                id: s.id,
                start_ts: s.start_ts,
                end_ts: s.end_ts,
                resource: owned(s.resource),
                label: owned(s.label),
                via: owned(s.via),
                ns: s.ns,
            });
        }
        let mut breakdown = Vec::new();
        for i in 0..unsafe { sys::nxp_critical_path_resource_count(cp.0) } {
            let mut r: sys::nxp_critical_resource = unsafe { sys::sized() };
            check(unsafe { sys::nxp_critical_path_get_resource(cp.0, i, &mut r) })?;
            breakdown.push(CriticalResource { resource: owned(r.resource), ns: r.ns, busy_ns: r.busy_ns, slack_ns: r.slack_ns });
        }
        Ok(CriticalPath { start_ts: a, end_ts: b, total_ns: t, breakdown, path })
    }

    /// Rule-based findings, most severe first; `hw` None = the profile's arch.
    pub fn insights(&self, hw: Option<&Hardware>) -> Result<Vec<Insight>> {
        let mut h = ptr::null_mut();
        let mut st = status();
        let hp = hw.map_or(ptr::null(), |x| x.raw() as *const sys::nxp_hardware);
        let rc = unsafe { sys::nxp_profile_insights(self.h, hp, &mut h, &mut st) };
        if rc < 0 {
            return Err(Error::from_status(rc, &st));
        }
        let r = insights_of(h);
        unsafe { sys::nxp_insights_close(h) };
        r
    }
}

// SPDX-License-Identifier: MIT
//! System profiles (include/nxp/system.h): the system-event cursor over
//! ntrace.pb, trace.json[.gz] and capture directories, CpuUsage / HostMemUsage
//! samples, trace_info.pb metadata, the device -> host clock map, capture
//! directories and the writers.
//!
//! The C cursors own a row's strings only until their next call, so the
//! records here own their strings (`String`), unlike the profile records.
use super::{check, cstr, hex, owned, path_cstring, status, text_cstring, Error, Profile, ProfileOptions, Result,
            Source};
use nxp_sys as sys;
use std::ffi::CString;
use std::marker::PhantomData;
use std::os::raw::{c_char, c_int};
use std::path::{Path, PathBuf};
use std::ptr;

// ------------------------------------------------------------------ options

/// Options and safety limits of the system-profile readers (0 = libnxp's default).
#[derive(Clone, Debug)]
pub struct SystemOptions {
    /// Pair ntrace START/STOP events into one row (default true).
    pub pairing: bool,
    /// trace.json: look for baseTimeNanoseconds after traceEvents on seekable input (default true).
    pub prescan: bool,
    /// instance_id of rows whose file has none.
    pub instance_id: Option<String>,
    pub max_message_size: u64,
    pub max_json_event: u64,
    pub max_json_depth: u32,
    pub max_pending: u32,
}

impl Default for SystemOptions {
    fn default() -> Self {
        SystemOptions { pairing: true, prescan: true, instance_id: None, max_message_size: 0, max_json_event: 0,
                        max_json_depth: 0, max_pending: 0 }
    }
}

impl SystemOptions {
    /// The C struct and the string it points to (keep both alive together).
    fn raw(&self) -> Result<(sys::nxp_system_options, Option<CString>)> {
        let mut o: sys::nxp_system_options = unsafe { sys::sized() };
        o.flags = (if self.pairing { 0 } else { sys::NXP_SYSTEM_NO_PAIRING })
            | (if self.prescan { 0 } else { sys::NXP_SYSTEM_NO_PRESCAN });
        o.max_message_size = self.max_message_size;
        o.max_json_event = self.max_json_event;
        o.max_json_depth = self.max_json_depth;
        o.max_pending = self.max_pending;
        let inst = match &self.instance_id {
            Some(s) => Some(text_cstring(s, "instance_id")?),
            None => None,
        };
        o.instance_id = inst.as_ref().map_or(ptr::null(), |c| c.as_ptr());
        Ok((o, inst))
    }
}

/// Kind of an event file read from bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventFileKind {
    /// Decide from the content (gzip or JSON text = trace.json, else ntrace.pb).
    Auto,
    Ntrace,
    TraceJson,
}

impl EventFileKind {
    fn raw(self) -> c_int {
        match self {
            EventFileKind::Auto => sys::NXP_SYSFILE_AUTO,
            EventFileKind::Ntrace => sys::NXP_SYSFILE_NTRACE,
            EventFileKind::TraceJson => sys::NXP_SYSFILE_TRACE_JSON,
        }
    }
}

// ------------------------------------------------------------------ system events

/// SystemProfileEvents row (public field names), plus libnxp's extras after `flags`.
/// Integers absent from the input are -1; strings absent are "".
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SystemEvent {
    pub id: i64,
    pub name: String,
    pub start_ts: i64,
    pub end_ts: i64,
    pub duration_ns: i64,
    /// "neuron_rt", "neuron_hw" or "framework".
    pub trace_event_source: String,
    pub instance_id: String,
    pub process_id: i64,
    pub thread_id: i64,
    pub nc_idx: i64,
    pub pcore_idx: i64,
    pub worker_gid: i64,
    pub flow_id: String,
    pub framework_stream_id: String,
    /// JSON object text ("{}" when none).
    pub extra_attributes_json: String,
    /// NXP_SYSEV_* bits.
    pub flags: u32,
    pub phase: String,
    pub category: String,
    pub pid: String,
    pub tid: String,
    pub process_name: String,
    pub thread_name: String,
    pub tracking_id: i64,
    pub nrta_seq_id: i64,
    pub nd_idx: i64,
    /// The file the row came from ("" when read from bytes).
    pub file: String,
    /// Byte offset of the row's (last) event in its file (decompressed for .gz).
    pub offset: i64,
}

impl SystemEvent {
    fn from_raw(r: &sys::nxp_system_event) -> SystemEvent {
        SystemEvent {
            id: r.id,
            name: owned(r.name),
            start_ts: r.start_ts,
            end_ts: r.end_ts,
            duration_ns: r.duration_ns,
            trace_event_source: owned(r.trace_event_source),
            instance_id: owned(r.instance_id),
            process_id: r.process_id,
            thread_id: r.thread_id,
            nc_idx: r.nc_idx,
            pcore_idx: r.pcore_idx,
            worker_gid: r.worker_gid,
            flow_id: owned(r.flow_id),
            framework_stream_id: owned(r.framework_stream_id),
            extra_attributes_json: owned(r.extra_attributes_json),
            flags: r.flags,
            phase: owned(r.phase),
            category: owned(r.category),
            pid: owned(r.pid),
            tid: owned(r.tid),
            process_name: owned(r.process_name),
            thread_name: owned(r.thread_name),
            tracking_id: r.tracking_id,
            nrta_seq_id: r.nrta_seq_id,
            nd_idx: r.nd_idx,
            file: owned(r.file),
            offset: r.offset,
        }
    }
}

/// Rows of an ntrace.pb, a trace.json[.gz] or every such file of a capture
/// directory, in file order.  An `Iterator<Item = Result<SystemEvent>>`: after
/// an error it yields that error once and then ends.  Closed on Drop.
pub struct SystemEvents {
    h: *mut sys::nxp_system_events,
    done: bool,
    // Dropped after the cursor (Drop::drop runs first).
    _src: Option<Source>,
    _inst: Option<CString>,
}

impl SystemEvents {
    /// A path: an ntrace.pb, a trace.json[.gz] (by content) or a capture directory.
    pub fn open(path: impl AsRef<Path>, opts: &SystemOptions) -> Result<SystemEvents> {
        let c = path_cstring(path.as_ref())?;
        let (o, inst) = opts.raw()?;
        let mut h = ptr::null_mut();
        let mut st = status();
        let rc = unsafe { sys::nxp_system_events_open_path(&mut h, c.as_ptr(), &o, &mut st) };
        if rc < 0 {
            return Err(Error::from_status(rc, &st));
        }
        Ok(SystemEvents { h, done: false, _src: None, _inst: inst })
    }

    /// The bytes of one file.
    pub fn from_bytes(data: Vec<u8>, kind: EventFileKind, opts: &SystemOptions) -> Result<SystemEvents> {
        let src = Source::memory(data)?;
        let (o, inst) = opts.raw()?;
        let mut h = ptr::null_mut();
        let mut st = status();
        let rc = unsafe { sys::nxp_system_events_open(&mut h, src.h, kind.raw(), &o, &mut st) };
        if rc < 0 {
            return Err(Error::from_status(rc, &st));
        }
        Ok(SystemEvents { h, done: false, _src: Some(src), _inst: inst })
    }

    /// The cursor's counters.
    pub fn stats(&self) -> Result<sys::nxp_system_stats> {
        let mut o: sys::nxp_system_stats = unsafe { sys::sized() };
        check(unsafe { sys::nxp_system_events_get_stats(self.h, &mut o) })?;
        Ok(o)
    }
}

impl Iterator for SystemEvents {
    type Item = Result<SystemEvent>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let mut r: sys::nxp_system_event = unsafe { sys::sized() };
        let rc = unsafe { sys::nxp_system_events_next(self.h, &mut r) };
        if rc == sys::NXP_OK {
            return Some(Ok(SystemEvent::from_raw(&r))); // strings copied before the next call
        }
        self.done = true;
        if rc == sys::NXP_END {
            return None;
        }
        let mut st = status();
        unsafe { sys::nxp_system_events_error(self.h, &mut st) };
        Some(Err(Error::from_status(rc, &st)))
    }
}

impl Drop for SystemEvents {
    fn drop(&mut self) {
        unsafe { sys::nxp_system_events_close(self.h) }
    }
}

/// NXP_SYSEV_HARDWARE, NXP_SYSEV_SOFTWARE or 0 for an event name.
pub fn system_event_group(name: &str) -> u32 {
    match CString::new(name) {
        Ok(c) => unsafe { sys::nxp_system_event_group(c.as_ptr()) },
        Err(_) => 0,
    }
}

// ------------------------------------------------------------------ host stats

/// CpuUsage row.
#[derive(Clone, Debug, PartialEq)]
pub struct CpuUsage {
    pub timestamp: i64,
    pub util_percent: f64,
    /// A core number ("0", "1", ...) or "average".
    pub cpu_id: String,
    pub instance_id: String,
}

/// HostMemUsage row.
#[derive(Clone, Debug, PartialEq)]
pub struct HostMemUsage {
    pub timestamp: i64,
    pub used_bytes: i64,
    pub used_percent: f64,
    pub instance_id: String,
    /// -1 when the sample has none (libnxp extra).
    pub total_bytes: i64,
}

/// A sample type of a host-stats file.
pub trait HostSample: Sized {
    #[doc(hidden)]
    const KIND: c_int;
    #[doc(hidden)]
    fn read(h: *mut sys::nxp_host_stats) -> std::result::Result<Self, c_int>;
}

impl HostSample for CpuUsage {
    const KIND: c_int = sys::NXP_SYSFILE_CPU_UTIL;
    fn read(h: *mut sys::nxp_host_stats) -> std::result::Result<Self, c_int> {
        let mut r: sys::nxp_cpu_usage = unsafe { sys::sized() };
        let rc = unsafe { sys::nxp_host_stats_next_cpu(h, &mut r) };
        if rc != sys::NXP_OK {
            return Err(rc);
        }
        Ok(CpuUsage { timestamp: r.timestamp, util_percent: r.util_percent, cpu_id: owned(r.cpu_id),
                      instance_id: owned(r.instance_id) })
    }
}

impl HostSample for HostMemUsage {
    const KIND: c_int = sys::NXP_SYSFILE_HOST_MEM;
    fn read(h: *mut sys::nxp_host_stats) -> std::result::Result<Self, c_int> {
        let mut r: sys::nxp_host_mem_usage = unsafe { sys::sized() };
        let rc = unsafe { sys::nxp_host_stats_next_mem(h, &mut r) };
        if rc != sys::NXP_OK {
            return Err(rc);
        }
        Ok(HostMemUsage { timestamp: r.timestamp, used_bytes: r.used_bytes, used_percent: r.used_percent,
                          instance_id: owned(r.instance_id), total_bytes: r.total_bytes })
    }
}

/// Samples of a cpu_util.pb (`HostStats<CpuUsage>`) or host_mem.pb
/// (`HostStats<HostMemUsage>`).  Errors as for [`SystemEvents`].
pub struct HostStats<T: HostSample> {
    h: *mut sys::nxp_host_stats,
    done: bool,
    _src: Source,
    _inst: Option<CString>,
    _t: PhantomData<T>,
}

impl<T: HostSample> HostStats<T> {
    fn with_source(src: Source, opts: &SystemOptions) -> Result<HostStats<T>> {
        let (o, inst) = opts.raw()?;
        let mut h = ptr::null_mut();
        let mut st = status();
        let rc = unsafe { sys::nxp_host_stats_open(&mut h, src.h, T::KIND, &o, &mut st) };
        if rc < 0 {
            return Err(Error::from_status(rc, &st));
        }
        Ok(HostStats { h, done: false, _src: src, _inst: inst, _t: PhantomData })
    }

    pub fn open(path: impl AsRef<Path>, opts: &SystemOptions) -> Result<HostStats<T>> {
        HostStats::with_source(Source::path(path.as_ref())?, opts)
    }

    pub fn from_bytes(data: Vec<u8>, opts: &SystemOptions) -> Result<HostStats<T>> {
        HostStats::with_source(Source::memory(data)?, opts)
    }
}

impl<T: HostSample> Iterator for HostStats<T> {
    type Item = Result<T>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match T::read(self.h) {
            Ok(v) => Some(Ok(v)),
            Err(rc) => {
                self.done = true;
                if rc == sys::NXP_END {
                    return None;
                }
                let mut st = status();
                unsafe { sys::nxp_host_stats_error(self.h, &mut st) };
                Some(Err(Error::from_status(rc, &st)))
            }
        }
    }
}

impl<T: HostSample> Drop for HostStats<T> {
    fn drop(&mut self) {
        unsafe { sys::nxp_host_stats_close(self.h) }
    }
}

/// CpuUsage rows of a cpu_util.pb.
pub fn cpu_usage(path: impl AsRef<Path>) -> Result<HostStats<CpuUsage>> {
    HostStats::open(path, &SystemOptions::default())
}

/// HostMemUsage rows of a host_mem.pb.
pub fn host_mem_usage(path: impl AsRef<Path>) -> Result<HostStats<HostMemUsage>> {
    HostStats::open(path, &SystemOptions::default())
}

// ------------------------------------------------------------------ trace_info.pb

/// SystemProfileMetadata plus the other facts libnxp keeps in trace_info.pb.
/// Absent integers are -1, absent strings "" (as in C).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SystemMetadata {
    /// ISO-8601 UTC (derived from first_ts_ns; ignored by the writer).
    pub first_ts: String,
    pub last_ts: String,
    pub first_ts_ns: i64,
    pub last_ts_ns: i64,
    pub ntff_version: i64,
    pub hbm_capacity_bytes: i64,
    pub instance_id: String,
    pub instance_type: String,
    pub arch: String,
    pub runtime_version: String,
    pub driver_version: String,
    pub pid: i64,
    pub session_id: i64,
    pub logical_nc_size: i64,
    pub num_neuron_cores: i64,
    pub data_version: i64,
}

impl Default for SystemMetadata {
    /// Everything absent.
    fn default() -> Self {
        SystemMetadata { first_ts: String::new(), last_ts: String::new(), first_ts_ns: -1, last_ts_ns: -1,
                         ntff_version: -1, hbm_capacity_bytes: -1, instance_id: String::new(),
                         instance_type: String::new(), arch: String::new(), runtime_version: String::new(),
                         driver_version: String::new(), pid: -1, session_id: -1, logical_nc_size: -1,
                         num_neuron_cores: -1, data_version: -1 }
    }
}

fn read_trace_info(src: Source, opts: &SystemOptions) -> Result<SystemMetadata> {
    let (o, _inst) = opts.raw()?;
    let mut h = ptr::null_mut();
    let mut st = status();
    let rc = unsafe { sys::nxp_trace_info_open(&mut h, src.h, &o, &mut st) };
    if rc < 0 {
        return Err(Error::from_status(rc, &st));
    }
    let mut m: sys::nxp_system_metadata = unsafe { sys::sized() };
    let rc = unsafe { sys::nxp_trace_info_get(h, &mut m) };
    let out = SystemMetadata {
        first_ts: owned(m.first_ts),
        last_ts: owned(m.last_ts),
        first_ts_ns: m.first_ts_ns,
        last_ts_ns: m.last_ts_ns,
        ntff_version: m.ntff_version,
        hbm_capacity_bytes: m.hbm_capacity_bytes,
        instance_id: owned(m.instance_id),
        instance_type: owned(m.instance_type),
        arch: owned(m.arch),
        runtime_version: owned(m.runtime_version),
        driver_version: owned(m.driver_version),
        pid: m.pid,
        session_id: m.session_id,
        logical_nc_size: m.logical_nc_size,
        num_neuron_cores: m.num_neuron_cores,
        data_version: m.data_version,
    };
    unsafe { sys::nxp_trace_info_close(h) };
    check(rc)?;
    Ok(out)
}

/// Read a trace_info.pb.
pub fn trace_info(path: impl AsRef<Path>) -> Result<SystemMetadata> {
    read_trace_info(Source::path(path.as_ref())?, &SystemOptions::default())
}

/// Read a trace_info.pb from memory (only `max_message_size` of the options applies).
pub fn trace_info_from_bytes(data: Vec<u8>, opts: &SystemOptions) -> Result<SystemMetadata> {
    read_trace_info(Source::memory(data)?, opts)
}

// ------------------------------------------------------------------ clock map

/// Device -> host time from timestamp_sync_point events.  Closed on Drop.
pub struct ClockMap {
    h: *mut sys::nxp_clock_map,
}

impl ClockMap {
    /// An empty map (fill it with [`ClockMap::add`]).
    pub fn new() -> Result<ClockMap> {
        let mut h = ptr::null_mut();
        check(unsafe { sys::nxp_clock_map_new(&mut h) })?;
        Ok(ClockMap { h })
    }

    /// Read `events` to its end and keep every sync point (`max_points` 0 = default).
    pub fn build(events: &mut SystemEvents, max_points: u32) -> Result<ClockMap> {
        let mut h = ptr::null_mut();
        let mut st = status();
        let rc = unsafe { sys::nxp_clock_map_build(&mut h, events.h, max_points, &mut st) };
        events.done = true; // read to its end (or its error)
        if rc < 0 {
            return Err(Error::from_status(rc, &st));
        }
        Ok(ClockMap { h })
    }

    pub fn add(&mut self, nc_idx: i64, device_ts: i64, host_ts: i64) -> Result<()> {
        check(unsafe { sys::nxp_clock_map_add(self.h, nc_idx, device_ts, host_ts) })?;
        Ok(())
    }

    pub fn len(&self) -> usize {
        unsafe { sys::nxp_clock_map_count(self.h) }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Host Unix ns of device time `device_ts` on core `nc_idx` (NotFound: no sync point for that core).
    pub fn to_host(&self, nc_idx: i64, device_ts: i64) -> Result<i64> {
        let mut out = 0i64;
        let rc = unsafe { sys::nxp_clock_map_to_host(self.h, nc_idx, device_ts, &mut out) };
        if rc == sys::NXP_E_NOT_FOUND {
            return Err(Error::new(rc, format!("no sync point for core {}", nc_idx)));
        }
        check(rc)?;
        Ok(out)
    }
}

impl Drop for ClockMap {
    fn drop(&mut self) {
        unsafe { sys::nxp_clock_map_close(self.h) }
    }
}

// ------------------------------------------------------------------ capture directories

/// One file of a capture (indices refer into [`Capture::files`] / [`Capture::processes`], -1 = none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaptureFile {
    pub path: PathBuf,
    /// NXP_SYSFILE_*.
    pub kind: i32,
    pub size: i64,
    pub process_index: i64,
    pub name_hash: String,
    pub nc_idx: i64,
    pub vnc: i64,
    pub session: i64,
    pub instid: i64,
    /// NEFF compilation UUID from its header (hex), when it was read.
    pub uuid: Option<String>,
}

/// One process directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaptureProcess {
    pub dir: PathBuf,
    pub instance_id: String,
    pub pid: i64,
    pub timestamp: String,
    pub ntrace: i64,
    pub trace_info: i64,
    pub cpu_util: i64,
    pub host_mem: i64,
    pub trace_json: i64,
    /// Both required files (ntrace.pb, trace_info.pb) exist.
    pub complete: bool,
}

/// How a device profile's NEFF and NTFF were paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pairing {
    None,
    ByUuid,
    ByName,
    Sole,
    Other(i32),
}

/// One device profile (NEFF/NTFF pair).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaptureProfile {
    pub neff: i64,
    pub ntff: i64,
    pub process_index: i64,
    pub pairing: Pairing,
    pub nc_idx: i64,
}

fn path_of(p: *const c_char) -> PathBuf {
    use std::os::unix::ffi::OsStrExt;
    if p.is_null() {
        return PathBuf::new();
    }
    PathBuf::from(std::ffi::OsStr::from_bytes(unsafe { std::ffi::CStr::from_ptr(p) }.to_bytes()))
}

/// A capture directory, discovered recursively.  Closed on Drop; profiles and
/// cursors opened from it do not depend on it.
pub struct Capture {
    h: *mut sys::nxp_capture,
    files: Vec<CaptureFile>,
    processes: Vec<CaptureProcess>,
    profiles: Vec<CaptureProfile>,
    problems: Vec<String>,
}

impl Capture {
    pub fn open(dir: impl AsRef<Path>) -> Result<Capture> {
        let c = path_cstring(dir.as_ref())?;
        let mut h = ptr::null_mut();
        let mut st = status();
        let rc = unsafe { sys::nxp_capture_open(&mut h, c.as_ptr(), &mut st) };
        if rc < 0 {
            return Err(Error::from_status(rc, &st));
        }
        let mut cap = Capture { h, files: Vec::new(), processes: Vec::new(), profiles: Vec::new(),
                                problems: Vec::new() };
        for i in 0..unsafe { sys::nxp_capture_file_count(h) } {
            let mut f: sys::nxp_capture_file = unsafe { sys::sized() };
            check(unsafe { sys::nxp_capture_get_file(h, i, &mut f) })?;
            cap.files.push(CaptureFile {
                path: path_of(f.path),
                kind: f.kind,
                size: f.size,
                process_index: f.process_index,
                name_hash: owned(f.name_hash),
                nc_idx: f.nc_idx,
                vnc: f.vnc,
                session: f.session,
                instid: f.instid,
                uuid: if f.has_uuid != 0 { Some(hex(&f.uuid)) } else { None },
            });
        }
        for i in 0..unsafe { sys::nxp_capture_process_count(h) } {
            let mut p: sys::nxp_capture_process = unsafe { sys::sized() };
            check(unsafe { sys::nxp_capture_get_process(h, i, &mut p) })?;
            cap.processes.push(CaptureProcess {
                dir: path_of(p.dir),
                instance_id: owned(p.instance_id),
                pid: p.pid,
                timestamp: owned(p.timestamp),
                ntrace: p.ntrace,
                trace_info: p.trace_info,
                cpu_util: p.cpu_util,
                host_mem: p.host_mem,
                trace_json: p.trace_json,
                complete: p.complete != 0,
            });
        }
        for i in 0..unsafe { sys::nxp_capture_profile_count(h) } {
            let mut p: sys::nxp_capture_profile = unsafe { sys::sized() };
            check(unsafe { sys::nxp_capture_get_profile(h, i, &mut p) })?;
            let pairing = match p.pairing {
                sys::NXP_PAIRED_NONE => Pairing::None,
                sys::NXP_PAIRED_BY_UUID => Pairing::ByUuid,
                sys::NXP_PAIRED_BY_NAME => Pairing::ByName,
                sys::NXP_PAIRED_SOLE => Pairing::Sole,
                x => Pairing::Other(x),
            };
            cap.profiles.push(CaptureProfile { neff: p.neff, ntff: p.ntff, process_index: p.process_index, pairing,
                                               nc_idx: p.nc_idx });
        }
        for i in 0..unsafe { sys::nxp_capture_problem_count(h) } {
            cap.problems.push(cstr(unsafe { sys::nxp_capture_problem(h, i) }).into_owned());
        }
        Ok(cap)
    }

    pub fn files(&self) -> &[CaptureFile] {
        &self.files
    }
    pub fn processes(&self) -> &[CaptureProcess] {
        &self.processes
    }
    pub fn profiles(&self) -> &[CaptureProfile] {
        &self.profiles
    }
    /// Missing required files, unpaired NEFF/NTFF, empty NTFFs, as sentences.
    pub fn problems(&self) -> &[String] {
        &self.problems
    }

    /// Device profile `index` (Range error for a bad index, NotFound when a side is missing).
    pub fn open_profile(&self, index: usize, opts: &ProfileOptions) -> Result<Profile> {
        let o = opts.raw();
        let mut p = ptr::null_mut();
        let mut st = status();
        let rc = unsafe { sys::nxp_capture_open_profile(self.h, index, &o, &mut p, &mut st) };
        if rc < 0 {
            return Err(Error::from_status(rc, &st));
        }
        Ok(Profile::adopt(p))
    }

    /// Events of process `process` (every process when None): its ntrace.pb, then
    /// its trace.json, instance_id from the directory name.
    pub fn events(&self, process: Option<usize>, opts: &SystemOptions) -> Result<SystemEvents> {
        let (o, inst) = opts.raw()?;
        let idx = match process {
            Some(i) => i64::try_from(i).map_err(|_| Error::new(sys::NXP_E_RANGE, "process index out of range"))?,
            None => -1,
        };
        let mut h = ptr::null_mut();
        let mut st = status();
        let rc = unsafe { sys::nxp_capture_open_events(self.h, idx, &o, &mut h, &mut st) };
        if rc < 0 {
            return Err(Error::from_status(rc, &st));
        }
        Ok(SystemEvents { h, done: false, _src: None, _inst: inst })
    }
}

impl Drop for Capture {
    fn drop(&mut self) {
        unsafe { sys::nxp_capture_close(self.h) }
    }
}

// ------------------------------------------------------------------ writers

/// Kinds of .pb file the [`SysprofWriter`] writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SysprofKind {
    Ntrace,
    CpuUtil,
    HostMem,
}

/// Root fields and framing of a written .pb file (None / -1 = absent).
#[derive(Clone, Debug)]
pub struct SysprofWriterOptions {
    /// Write length-delimited root messages of `chunk_events` events.
    pub stream: bool,
    pub chunk_events: u32,
    pub arch: Option<String>,
    pub pid: i64,
    pub session_id: i64,
    pub data_version: i64,
    pub logical_nc_size: i64,
    pub instance_id: Option<String>,
}

impl Default for SysprofWriterOptions {
    fn default() -> Self {
        SysprofWriterOptions { stream: false, chunk_events: 0, arch: None, pid: -1, session_id: -1, data_version: -1,
                               logical_nc_size: -1, instance_id: None }
    }
}

/// One raw ntrace.pb event (-1 = absent).
#[derive(Clone, Debug)]
pub struct NtraceEvent {
    pub timestamp: i64,
    /// Written as `hint`.
    pub name: Option<String>,
    /// NXP_NTRACE_PHASE_*.
    pub phase: i32,
    pub duration: i64,
    pub nc_idx: i64,
    pub nd_idx: i64,
    pub thread_id: i64,
    pub id: i64,
    pub parent_id: i64,
    pub tracking_id: i64,
    pub nrta_seq_id: i64,
    pub data: i64,
    pub status: i64,
    pub event_type: i64,
    pub attributes: Vec<(String, String)>,
}

impl Default for NtraceEvent {
    fn default() -> Self {
        NtraceEvent { timestamp: 0, name: None, phase: sys::NXP_NTRACE_PHASE_NONE, duration: -1, nc_idx: -1,
                      nd_idx: -1, thread_id: -1, id: -1, parent_id: -1, tracking_id: -1, nrta_seq_id: -1, data: -1,
                      status: -1, event_type: -1, attributes: Vec::new() }
    }
}

fn opt_cstring(s: &Option<String>, what: &str) -> Result<Option<CString>> {
    match s {
        Some(v) => Ok(Some(text_cstring(v, what)?)),
        None => Ok(None),
    }
}

fn opt_ptr(c: &Option<CString>) -> *const c_char {
    c.as_ref().map_or(ptr::null(), |c| c.as_ptr())
}

/// Write an ntrace.pb, cpu_util.pb or host_mem.pb exactly as the readers accept it.
pub struct SysprofWriter {
    h: *mut sys::nxp_sysprof_writer,
    // libnxp reads arch and instance_id again at the first event: keep them.
    _keep: (Option<CString>, Option<CString>),
}

impl SysprofWriter {
    pub fn create(path: impl AsRef<Path>, kind: SysprofKind, opts: &SysprofWriterOptions) -> Result<SysprofWriter> {
        let c = path_cstring(path.as_ref())?;
        let arch = opt_cstring(&opts.arch, "arch")?;
        let inst = opt_cstring(&opts.instance_id, "instance_id")?;
        let mut o: sys::nxp_sysprof_writer_options = unsafe { sys::sized() };
        o.stream = opts.stream as i32;
        o.chunk_events = opts.chunk_events;
        o.arch = opt_ptr(&arch);
        o.pid = opts.pid;
        o.session_id = opts.session_id;
        o.data_version = opts.data_version;
        o.logical_nc_size = opts.logical_nc_size;
        o.instance_id = opt_ptr(&inst);
        let k = match kind {
            SysprofKind::Ntrace => sys::NXP_SYSFILE_NTRACE,
            SysprofKind::CpuUtil => sys::NXP_SYSFILE_CPU_UTIL,
            SysprofKind::HostMem => sys::NXP_SYSFILE_HOST_MEM,
        };
        let mut h = ptr::null_mut();
        let mut st = status();
        let rc = unsafe { sys::nxp_sysprof_writer_open(&mut h, c.as_ptr(), k, &o, &mut st) };
        if rc < 0 {
            return Err(Error::from_status(rc, &st));
        }
        Ok(SysprofWriter { h, _keep: (arch, inst) })
    }

    fn rc(&self, rc: c_int) -> Result<()> {
        if rc >= 0 {
            return Ok(());
        }
        let mut st = status();
        unsafe { sys::nxp_sysprof_writer_error(self.h, &mut st) };
        if st.code < 0 {
            Err(Error::from_status(rc, &st))
        } else {
            Err(Error::from_code(rc))
        }
    }

    /// Append to the ntrace string pool (only before the first event).
    pub fn string(&mut self, s: &str) -> Result<()> {
        let c = text_cstring(s, "string")?;
        self.rc(unsafe { sys::nxp_sysprof_writer_string(self.h, c.as_ptr()) })
    }

    pub fn event(&mut self, ev: &NtraceEvent) -> Result<()> {
        let name = opt_cstring(&ev.name, "name")?;
        let mut strs = Vec::with_capacity(2 * ev.attributes.len());
        for (k, v) in &ev.attributes {
            strs.push(text_cstring(k, "attribute key")?);
            strs.push(text_cstring(v, "attribute value")?);
        }
        let ptrs: Vec<*const c_char> = strs.iter().map(|c| c.as_ptr()).collect();
        let mut e = sys::nxp_ntrace_event::new();
        e.timestamp = ev.timestamp;
        e.name = opt_ptr(&name);
        e.phase = ev.phase;
        e.duration = ev.duration;
        e.nc_idx = ev.nc_idx;
        e.nd_idx = ev.nd_idx;
        e.thread_id = ev.thread_id;
        e.id = ev.id;
        e.parent_id = ev.parent_id;
        e.tracking_id = ev.tracking_id;
        e.nrta_seq_id = ev.nrta_seq_id;
        e.data = ev.data;
        e.status = ev.status;
        e.event_type = ev.event_type;
        e.attributes = if ptrs.is_empty() { ptr::null() } else { ptrs.as_ptr() };
        e.n_attributes = ev.attributes.len();
        self.rc(unsafe { sys::nxp_sysprof_writer_event(self.h, &e) })
    }

    pub fn cpu(&mut self, timestamp: i64, util_percent: f64, cpu_id: &str) -> Result<()> {
        let c = text_cstring(cpu_id, "cpu_id")?;
        let mut s: sys::nxp_cpu_usage = unsafe { sys::sized() };
        s.timestamp = timestamp;
        s.util_percent = util_percent;
        s.cpu_id = c.as_ptr();
        self.rc(unsafe { sys::nxp_sysprof_writer_cpu(self.h, &s) })
    }

    /// `total_bytes` None = absent.
    pub fn mem(&mut self, timestamp: i64, used_bytes: i64, used_percent: f64, total_bytes: Option<i64>) -> Result<()> {
        let mut s: sys::nxp_host_mem_usage = unsafe { sys::sized() };
        s.timestamp = timestamp;
        s.used_bytes = used_bytes;
        s.used_percent = used_percent;
        s.total_bytes = total_bytes.unwrap_or(-1);
        self.rc(unsafe { sys::nxp_sysprof_writer_mem(self.h, &s) })
    }

    /// Flush and close the file.
    pub fn finish(self) -> Result<()> {
        self.rc(unsafe { sys::nxp_sysprof_writer_finish(self.h) })
    }
}

impl Drop for SysprofWriter {
    fn drop(&mut self) {
        unsafe { sys::nxp_sysprof_writer_close(self.h) }
    }
}

fn nonempty(s: &str, what: &str) -> Result<Option<CString>> {
    if s.is_empty() {
        Ok(None)
    } else {
        Ok(Some(text_cstring(s, what)?))
    }
}

/// Write a trace_info.pb from `md` (integers < 0 and empty strings are left out;
/// first_ts / last_ts derive from the _ns fields).
pub fn trace_info_write(path: impl AsRef<Path>, md: &SystemMetadata, stream: bool) -> Result<()> {
    let c = path_cstring(path.as_ref())?;
    let strs = [nonempty(&md.instance_id, "instance_id")?, nonempty(&md.instance_type, "instance_type")?,
                nonempty(&md.arch, "arch")?, nonempty(&md.runtime_version, "runtime_version")?,
                nonempty(&md.driver_version, "driver_version")?];
    let mut m: sys::nxp_system_metadata = unsafe { sys::sized() };
    m.first_ts_ns = md.first_ts_ns;
    m.last_ts_ns = md.last_ts_ns;
    m.ntff_version = md.ntff_version;
    m.hbm_capacity_bytes = md.hbm_capacity_bytes;
    m.instance_id = opt_ptr(&strs[0]);
    m.instance_type = opt_ptr(&strs[1]);
    m.arch = opt_ptr(&strs[2]);
    m.runtime_version = opt_ptr(&strs[3]);
    m.driver_version = opt_ptr(&strs[4]);
    m.pid = md.pid;
    m.session_id = md.session_id;
    m.logical_nc_size = md.logical_nc_size;
    m.num_neuron_cores = md.num_neuron_cores;
    m.data_version = md.data_version;
    let mut st = status();
    let rc = unsafe { sys::nxp_trace_info_write(c.as_ptr(), &m, stream as c_int, &mut st) };
    if rc < 0 {
        return Err(Error::from_status(rc, &st));
    }
    Ok(())
}

/// Write a Chrome-trace trace.json (gzip'd when `gzip`) of `events` (phase,
/// name, pid, tid, start_ts, end_ts, category, flow_id and extra_attributes_json
/// as args; empty strings are left out), times relative to `base_time_ns`.
pub fn trace_json_write(path: impl AsRef<Path>, events: &[SystemEvent], base_time_ns: i64, gzip: bool) -> Result<()> {
    let c = path_cstring(path.as_ref())?;
    let mut keep: Vec<[Option<CString>; 7]> = Vec::with_capacity(events.len());
    let mut raw: Vec<sys::nxp_system_event> = Vec::with_capacity(events.len());
    for e in events {
        let s = [nonempty(&e.phase, "phase")?, nonempty(&e.name, "name")?, nonempty(&e.pid, "pid")?,
                 nonempty(&e.tid, "tid")?, nonempty(&e.category, "category")?, nonempty(&e.flow_id, "flow_id")?,
                 nonempty(&e.extra_attributes_json, "extra_attributes_json")?];
        let mut r: sys::nxp_system_event = unsafe { sys::sized() };
        r.phase = opt_ptr(&s[0]);
        r.name = opt_ptr(&s[1]);
        r.pid = opt_ptr(&s[2]);
        r.tid = opt_ptr(&s[3]);
        r.category = opt_ptr(&s[4]);
        r.flow_id = opt_ptr(&s[5]);
        r.extra_attributes_json = opt_ptr(&s[6]);
        r.start_ts = e.start_ts;
        r.end_ts = e.end_ts;
        r.duration_ns = e.duration_ns;
        r.id = e.id;
        keep.push(s); // CString heap buffers do not move with the Vec
        raw.push(r);
    }
    let mut st = status();
    let rc = unsafe {
        sys::nxp_trace_json_write(c.as_ptr(), raw.as_ptr(), raw.len(), base_time_ns, gzip as c_int, &mut st)
    };
    if rc < 0 {
        return Err(Error::from_status(rc, &st));
    }
    Ok(())
}

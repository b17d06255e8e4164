// SPDX-License-Identifier: MIT
//! Safe Rust wrapper for libnxp: read AWS Neuron profiles (NEFF + NTFF) and
//! system profiles (ntrace.pb, trace.json, capture directories: see [`SystemEvents`]).
//!
//! ```no_run
//! let p = nxp::Profile::open("model.neff", "model.ntff")?;
//! for ins in p.instructions(nxp::CursorOptions::default())? {
//!     let ins = ins?;
//!     println!("{} {} {}", ins.start_ts, ins.opcode, ins.duration_ns);
//! }
//! println!("{:?}", p.summary()?.get("mfu_estimated_percent"));
//! # Ok::<(), nxp::Error>(())
//! ```
//!
//! Handles close on Drop.  Records borrow their strings from the profile
//! (`Cow<'p, str>`: borrowed when the bytes are UTF-8), so a cursor cannot
//! outlive its profile.  Errors carry the C library's code, message and the
//! byte offset of the fault.
//!
//! # Linking
//!
//! `nxp-sys` finds libnxp through `NXP_LIB_DIR`, else `pkg-config libnxp`, else
//! the meson build tree of the checkout it sits in (see its build.rs).  A
//! libnxp installed in a directory the loader searches (e.g. after
//! `meson install` and `ldconfig`) needs nothing more.  For any other directory,
//! give your program an rpath with a build.rs (this crate's `links` key hands
//! the directory to crates that depend on it):
//!
//! ```ignore
//! fn main() {
//!     if let Ok(dir) = std::env::var("DEP_NXP_RS_LIB_DIR") {
//!         println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir);
//!     }
//! }
//! ```
use nxp_sys as sys;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::ffi::{CStr, CString};
use std::fmt;
use std::marker::PhantomData;
use std::os::raw::{c_char, c_int, c_void};
use std::path::Path;
use std::ptr;

pub use nxp_sys as ffi;

mod system;
pub use system::*;
mod table;
pub use table::*;
mod analysis;
pub use analysis::*;

// ------------------------------------------------------------------ errors

/// Families of libnxp error codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    InvalidArgument,
    NoMemory,
    Io,
    Truncated,
    Format,
    Version,
    Limit,
    Hash,
    Crc,
    Mismatch,
    NotFound,
    UnsafePath,
    Json,
    Unsupported,
    Compression,
    Range,
    Protobuf,
    Other(i32),
}

/// A libnxp failure: `code` (negative nxp_error), `message`, and `offset`, the
/// byte offset of the fault in the input (-1 when none applies).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub code: i32,
    pub message: String,
    pub offset: i64,
}

impl Error {
    pub fn kind(&self) -> ErrorKind {
        match self.code {
            sys::NXP_E_INVAL => ErrorKind::InvalidArgument,
            sys::NXP_E_NOMEM => ErrorKind::NoMemory,
            sys::NXP_E_IO => ErrorKind::Io,
            sys::NXP_E_TRUNCATED => ErrorKind::Truncated,
            sys::NXP_E_FORMAT => ErrorKind::Format,
            sys::NXP_E_VERSION => ErrorKind::Version,
            sys::NXP_E_LIMIT => ErrorKind::Limit,
            sys::NXP_E_HASH => ErrorKind::Hash,
            sys::NXP_E_CRC => ErrorKind::Crc,
            sys::NXP_E_MISMATCH => ErrorKind::Mismatch,
            sys::NXP_E_NOT_FOUND => ErrorKind::NotFound,
            sys::NXP_E_UNSAFE_PATH => ErrorKind::UnsafePath,
            sys::NXP_E_JSON => ErrorKind::Json,
            sys::NXP_E_UNSUPPORTED => ErrorKind::Unsupported,
            sys::NXP_E_COMPRESSION => ErrorKind::Compression,
            sys::NXP_E_RANGE => ErrorKind::Range,
            sys::NXP_E_PROTOBUF => ErrorKind::Protobuf,
            c => ErrorKind::Other(c),
        }
    }

    fn from_code(code: c_int) -> Error {
        Error { code, message: strerror(code), offset: -1 }
    }

    fn new(code: c_int, message: impl Into<String>) -> Error {
        Error { code, message: message.into(), offset: -1 }
    }

    fn from_status(rc: c_int, st: &sys::nxp_status) -> Error {
        let code = if st.code < 0 { st.code } else { rc };
        let msg = unsafe { CStr::from_ptr(st.message.as_ptr()) }.to_string_lossy().into_owned();
        Error { code, message: if msg.is_empty() { strerror(code) } else { msg }, offset: st.offset }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.message)?;
        if self.offset >= 0 {
            write!(f, " (at byte {})", self.offset)?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;

/// English text of an error code.
pub fn strerror(code: i32) -> String {
    cstr(unsafe { sys::nxp_strerror(code) }).into_owned()
}

/// Run-time version of the linked libnxp.
pub fn version() -> String {
    cstr(unsafe { sys::nxp_version_string() }).into_owned()
}

fn status() -> sys::nxp_status {
    let mut st: sys::nxp_status = unsafe { std::mem::zeroed() };
    st.struct_size = std::mem::size_of::<sys::nxp_status>();
    st.offset = -1;
    st
}

fn check(rc: c_int) -> Result<c_int> {
    if rc < 0 {
        Err(Error::from_code(rc))
    } else {
        Ok(rc)
    }
}

fn cstr<'a>(p: *const c_char) -> Cow<'a, str> {
    if p.is_null() {
        Cow::Borrowed("")
    } else {
        unsafe { CStr::from_ptr(p) }.to_string_lossy()
    }
}

fn owned(p: *const c_char) -> String {
    cstr(p).into_owned()
}

fn path_cstring(p: &Path) -> Result<CString> {
    use std::os::unix::ffi::OsStrExt;
    CString::new(p.as_os_str().as_bytes()).map_err(|_| Error::new(sys::NXP_E_INVAL, "path contains a NUL byte"))
}

fn text_cstring(s: &str, what: &str) -> Result<CString> {
    CString::new(s).map_err(|_| Error::new(sys::NXP_E_INVAL, format!("{} contains a NUL byte", what)))
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{:02x}", x)).collect()
}

fn carray(a: &[c_char]) -> String {
    let bytes: Vec<u8> = a.iter().take_while(|&&c| c != 0).map(|&c| c as u8).collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

// ------------------------------------------------------------------ engines

/// Engines of a NeuronCore.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Engine {
    Tensor = 0,
    Vector = 1,
    Scalar = 2,
    Gpsimd = 3,
    Sync = 4,
}

impl Engine {
    pub const ALL: [Engine; 5] = [Engine::Tensor, Engine::Vector, Engine::Scalar, Engine::Gpsimd, Engine::Sync];

    pub fn from_id(id: i32) -> Option<Engine> {
        Engine::ALL.get(usize::try_from(id).ok()?).copied()
    }

    /// From "tensor", "pe", ... (case-insensitive).
    pub fn from_name(name: &str) -> Option<Engine> {
        let c = CString::new(name).ok()?;
        Engine::from_id(unsafe { sys::nxp_engine_from_name(c.as_ptr()) })
    }

    pub fn name(self) -> &'static str {
        ["tensor", "vector", "scalar", "gpsimd", "sync"][self as usize]
    }
}

// ------------------------------------------------------------------ sources

struct Source {
    h: *mut sys::nxp_source,
    _data: Option<Box<[u8]>>,
}

impl Source {
    fn path(p: &Path) -> Result<Source> {
        let c = path_cstring(p)?;
        let mut h = ptr::null_mut();
        let mut st = status();
        let rc = unsafe { sys::nxp_source_open_path(&mut h, c.as_ptr(), &mut st) };
        if rc < 0 {
            return Err(Error::from_status(rc, &st));
        }
        Ok(Source { h, _data: None })
    }

    fn memory(data: Vec<u8>) -> Result<Source> {
        let data = data.into_boxed_slice();
        let mut h = ptr::null_mut();
        let mut st = status();
        let rc = unsafe { sys::nxp_source_open_memory(&mut h, data.as_ptr() as *const c_void, data.len(), &mut st) };
        if rc < 0 {
            return Err(Error::from_status(rc, &st));
        }
        Ok(Source { h, _data: Some(data) })
    }
}

impl Drop for Source {
    fn drop(&mut self) {
        unsafe { sys::nxp_source_close(self.h) }
    }
}

// ------------------------------------------------------------------ NEFF

/// The NEFF header (NeffHeader names; hash and uuid as hex).
#[derive(Clone, Debug, PartialEq)]
pub struct NeffHeader {
    pub pkg_version: u64,
    pub header_size: u64,
    pub data_size: u64,
    pub neff_version_major: u64,
    pub neff_version_minor: u64,
    pub build_version: String,
    pub num_tpb: u32,
    pub hash: String,
    pub uuid: String,
    pub name: String,
    pub requested_tpb_count: u32,
    pub tpb_per_node: Vec<u8>,
    pub feature_bits: u64,
    pub lnc_size: u32,
    pub hash_verified: bool,
    pub payload_gzip: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Subgraph {
    pub name: String,
    pub definition: String,
    pub pcore_idx: i64,
    pub tensor_count: u64,
    pub dma_queue_count: u64,
    /// Indexed by `Engine as usize`.
    pub instruction_count: [u64; 5],
}

#[derive(Clone, Debug, PartialEq)]
pub struct TensorInfo {
    pub variable_name: String,
    pub type_: String,
    pub format: String,
    pub shape: String,
    pub size: i64,
    pub node: i64,
    pub pcore_idx: i64,
    pub file_name: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct DmaQueueInfo {
    pub name: String,
    pub type_: String,
    pub neff_type: String,
    pub owner: String,
    pub pcore_idx: i64,
    pub idx: i64,
    pub engine_idx: i64,
    pub axi_port: i64,
    pub dram_channel: i64,
}

/// A statically decoded instruction: every field of `nxp_neff_instruction` (`raw` holds all 64 bytes).
#[derive(Clone, Debug, PartialEq)]
pub struct NeffInstruction {
    pub pc: i64,
    pub engine: i32,
    pub pcore_idx: i64,
    pub opcode_num: u32,
    pub opcode: String,
    pub operands: String,
    pub wait_mode: u8,
    pub wait_idx: u8,
    pub update_mode: u8,
    pub update_idx: u8,
    pub semaphore_value: u32,
    pub src: sys::nxp_access_pattern,
    pub dst: sys::nxp_access_pattern,
    pub tensor_instruction_type: String,
    pub tensor_elements: i64,
    pub raw_flops: i64,
    pub adjusted_flops: i64,
    pub hbm_read_bytes: i64,
    pub hbm_write_bytes: i64,
    pub sbuf_read_bytes: i64,
    pub sbuf_write_bytes: i64,
    pub psum_read_bytes: i64,
    pub psum_write_bytes: i64,
    pub scalar_activation_fn: String,
    pub inst_word_len: u8,
    pub debug_cmd: u8,
    pub debug_hint: u8,
    /// bit0 psum_zero, bit1 transpose, bit2 perf mode 2x, bit3 4x
    pub flags: u8,
    /// ACTIVATE: activation function id; vector ops: ALU op id
    pub func: u8,
    pub partitions: u16,
    pub active_cols: u16,
    pub aux: u32,
    pub immediate: f32,
    pub performance_mode: String,
    pub psum_read_sbuf_write_bytes: i64,
    pub raw: [u8; 64],
}

/// Read access to a NEFF, owned ([`Neff`]) or borrowed from a [`Profile`].
pub struct NeffView {
    h: *const sys::nxp_neff,
}

impl NeffView {
    pub fn header(&self) -> Result<NeffHeader> {
        let mut o: sys::nxp_neff_header = unsafe { sys::sized() };
        check(unsafe { sys::nxp_neff_get_header(self.h, &mut o) })?;
        Ok(NeffHeader {
            pkg_version: o.pkg_version,
            header_size: o.header_size,
            data_size: o.data_size,
            neff_version_major: o.neff_version_major,
            neff_version_minor: o.neff_version_minor,
            build_version: carray(&o.build_version),
            num_tpb: o.num_tpb,
            hash: hex(&o.hash),
            uuid: hex(&o.uuid),
            name: carray(&o.name),
            requested_tpb_count: o.requested_tpb_count,
            tpb_per_node: o.tpb_per_node.to_vec(),
            feature_bits: o.feature_bits,
            lnc_size: o.lnc_size,
            hash_verified: o.hash_verified != 0,
            payload_gzip: o.payload_gzip != 0,
        })
    }

    pub fn subgraphs(&self) -> Result<Vec<Subgraph>> {
        let n = unsafe { sys::nxp_neff_subgraph_count(self.h) };
        (0..n)
            .map(|i| {
                let mut o: sys::nxp_neff_subgraph = unsafe { sys::sized() };
                check(unsafe { sys::nxp_neff_get_subgraph(self.h, i, &mut o) })?;
                Ok(Subgraph {
                    name: owned(o.name),
                    definition: owned(o.definition),
                    pcore_idx: o.pcore_idx,
                    tensor_count: o.tensor_count,
                    dma_queue_count: o.dma_queue_count,
                    instruction_count: o.instruction_count,
                })
            })
            .collect()
    }

    pub fn tensors(&self) -> Result<Vec<TensorInfo>> {
        let n = unsafe { sys::nxp_neff_tensor_count(self.h) };
        (0..n)
            .map(|i| {
                let mut o: sys::nxp_tensor_info = unsafe { sys::sized() };
                check(unsafe { sys::nxp_neff_get_tensor(self.h, i, &mut o) })?;
                Ok(TensorInfo {
                    variable_name: owned(o.variable_name),
                    type_: owned(o.type_),
                    format: owned(o.format),
                    shape: owned(o.shape),
                    size: o.size,
                    node: o.node,
                    pcore_idx: o.pcore_idx,
                    file_name: owned(o.file_name),
                })
            })
            .collect()
    }

    pub fn dma_queues(&self) -> Result<Vec<DmaQueueInfo>> {
        let n = unsafe { sys::nxp_neff_dma_queue_count(self.h) };
        (0..n)
            .map(|i| {
                let mut o: sys::nxp_dma_queue_info = unsafe { sys::sized() };
                check(unsafe { sys::nxp_neff_get_dma_queue(self.h, i, &mut o) })?;
                Ok(DmaQueueInfo {
                    name: owned(o.name),
                    type_: owned(o.type_),
                    neff_type: owned(o.neff_type),
                    owner: owned(o.owner),
                    pcore_idx: o.pcore_idx,
                    idx: o.idx,
                    engine_idx: o.engine_idx,
                    axi_port: o.axi_port,
                    dram_channel: o.dram_channel,
                })
            })
            .collect()
    }

    /// Instructions of one engine of one subgraph (Range error if no such subgraph).
    pub fn instruction_count(&self, subgraph: usize, engine: Engine) -> Result<u64> {
        let n = unsafe { sys::nxp_neff_instruction_count(self.h, subgraph, engine as c_int) };
        if n < 0 {
            return Err(Error::new(sys::NXP_E_RANGE, format!("no subgraph {}", subgraph)));
        }
        Ok(n as u64)
    }

    pub fn instruction(&self, subgraph: usize, engine: Engine, pc: u64) -> Result<NeffInstruction> {
        let mut o: sys::nxp_neff_instruction = unsafe { sys::sized() };
        check(unsafe { sys::nxp_neff_get_instruction(self.h, subgraph, engine as c_int, pc, &mut o) })?;
        Ok(NeffInstruction {
            pc: o.pc,
            engine: o.engine,
            pcore_idx: o.pcore_idx,
            opcode_num: o.opcode_num,
            opcode: owned(o.opcode),
            operands: owned(o.operands),
            wait_mode: o.wait_mode,
            wait_idx: o.wait_idx,
            update_mode: o.update_mode,
            update_idx: o.update_idx,
            semaphore_value: o.semaphore_value,
            src: o.src,
            dst: o.dst,
            tensor_instruction_type: owned(o.tensor_instruction_type),
            tensor_elements: o.tensor_elements,
            raw_flops: o.raw_flops,
            adjusted_flops: o.adjusted_flops,
            hbm_read_bytes: o.hbm_read_bytes,
            hbm_write_bytes: o.hbm_write_bytes,
            sbuf_read_bytes: o.sbuf_read_bytes,
            sbuf_write_bytes: o.sbuf_write_bytes,
            psum_read_bytes: o.psum_read_bytes,
            psum_write_bytes: o.psum_write_bytes,
            scalar_activation_fn: owned(o.scalar_activation_fn),
            inst_word_len: o.inst_word_len,
            debug_cmd: o.debug_cmd,
            debug_hint: o.debug_hint,
            flags: o.flags,
            func: o.func,
            partitions: o.partitions,
            active_cols: o.active_cols,
            aux: o.aux,
            immediate: o.immediate,
            performance_mode: owned(o.performance_mode),
            psum_read_sbuf_write_bytes: o.psum_read_sbuf_write_bytes,
            raw: o.raw,
        })
    }
}

/// An open NEFF.  Closed on Drop.
pub struct Neff {
    view: NeffView,
    _src: Option<Source>,
}

impl Neff {
    pub fn open(path: impl AsRef<Path>) -> Result<Neff> {
        let c = path_cstring(path.as_ref())?;
        let mut h = ptr::null_mut();
        let mut st = status();
        let rc = unsafe { sys::nxp_neff_open_path(&mut h, c.as_ptr(), ptr::null(), &mut st) };
        if rc < 0 {
            return Err(Error::from_status(rc, &st));
        }
        Ok(Neff { view: NeffView { h }, _src: None })
    }

    pub fn from_bytes(data: Vec<u8>) -> Result<Neff> {
        let src = Source::memory(data)?;
        let mut h = ptr::null_mut();
        let mut st = status();
        let rc = unsafe { sys::nxp_neff_open(&mut h, src.h, ptr::null(), &mut st) };
        if rc < 0 {
            return Err(Error::from_status(rc, &st));
        }
        Ok(Neff { view: NeffView { h }, _src: Some(src) })
    }
}

impl std::ops::Deref for Neff {
    type Target = NeffView;
    fn deref(&self) -> &NeffView {
        &self.view
    }
}

impl Drop for Neff {
    fn drop(&mut self) {
        // The handle goes before the source it reads (field order drops _src after).
        unsafe { sys::nxp_neff_close(self.view.h as *mut sys::nxp_neff) }
    }
}

// ------------------------------------------------------------------ profile

/// Profile open options.
#[derive(Clone, Debug, Default)]
pub struct ProfileOptions {
    /// Open even if the NEFF and NTFF UUIDs differ.
    pub allow_mismatch: bool,
    /// Do not verify section CRCs.
    pub skip_crc: bool,
}

impl ProfileOptions {
    fn raw(&self) -> sys::nxp_profile_options {
        let mut o: sys::nxp_profile_options = unsafe { sys::sized() };
        o.flags = (if self.allow_mismatch { sys::NXP_PROFILE_ALLOW_MISMATCH } else { 0 })
            | (if self.skip_crc { sys::NXP_PROFILE_SKIP_CRC } else { 0 });
        o
    }
}

/// Metadata table (strings owned; uuid/hash as hex; absent TPB times are None).
#[derive(Clone, Debug, PartialEq)]
pub struct Metadata {
    pub profile_schema_version: String,
    pub ntff_version: i32,
    pub layout_version: i32,
    pub num_physical_cores: i32,
    pub vnc_enabled: bool,
    pub first_hw_timestamp: i64,
    pub last_hw_timestamp: i64,
    pub dma_ddr_bandwidth: f64,
    pub num_dma_engines_per_neuroncore: i32,
    pub hbm_ddr_bandwidth: f64,
    pub tensor_engine_num_rows: i64,
    pub tensor_engine_num_cols: i64,
    pub tensor_engine_clock_freq: f64,
    pub vector_engine_clock_freq: f64,
    pub vector_engine_num_channels: i64,
    pub scalar_engine_clock_freq: f64,
    pub scalar_engine_num_channels: i64,
    pub gpsimd_engine_clock_freq: f64,
    pub gpsimd_engine_num_channels: i64,
    pub neuroncore_clock_freq: f64,
    pub ticks_per_nanosec: i64,
    pub arch: String,
    pub instance_type: String,
    pub runtime_version: String,
    pub collectives_version: String,
    pub driver_version: String,
    pub compiler_version: String,
    pub profile_name: String,
    pub neuroncore_idx: i64,
    pub neuron_device_idx: i64,
    pub capture_time_ns: i64,
    pub is_simulation: bool,
    pub neff_uuid: String,
    pub neff_hash: String,
    pub trace_count: i64,
    pub event_count: i64,
    pub tpb_start_ts: Option<i64>,
    pub tpb_stop_ts: Option<i64>,
    pub unknown_sections: i64,
    /// TPB start/stop records or sections skipped at open as damaged.
    pub tpb_damaged: i64,
}

/// Cursor filters (all optional).
#[derive(Clone, Debug, Default)]
pub struct CursorOptions {
    /// Only records with start >= start (ns).
    pub start: Option<i64>,
    /// Only records with start < end (ns).
    pub end: Option<i64>,
    /// Instruction and active-time tables: one engine.
    pub engine: Option<Engine>,
    /// One physical core.
    pub pcore: Option<i64>,
    /// DMA table: one queue by name.
    pub queue: Option<String>,
}

/// A NEFF/NTFF pair.  Closed on Drop (cursors borrow it, so they go first).
pub struct Profile {
    h: *mut sys::nxp_profile,
    neff: NeffView,
    _srcs: Vec<Source>,
}

impl Profile {
    pub fn open(neff: impl AsRef<Path>, ntff: impl AsRef<Path>) -> Result<Profile> {
        Profile::open_with(neff, ntff, &ProfileOptions::default())
    }

    pub fn open_with(neff: impl AsRef<Path>, ntff: impl AsRef<Path>, opts: &ProfileOptions) -> Result<Profile> {
        let a = path_cstring(neff.as_ref())?;
        let b = path_cstring(ntff.as_ref())?;
        let o = opts.raw();
        let mut h = ptr::null_mut();
        let mut st = status();
        let rc = unsafe { sys::nxp_profile_open_path(&mut h, a.as_ptr(), b.as_ptr(), &o, &mut st) };
        if rc < 0 {
            return Err(Error::from_status(rc, &st));
        }
        Ok(Profile { h, neff: NeffView { h: unsafe { sys::nxp_profile_neff(h) } }, _srcs: Vec::new() })
    }

    /// A Profile owning a handle opened elsewhere (a Capture's device profile).
    fn adopt(h: *mut sys::nxp_profile) -> Profile {
        Profile { h, neff: NeffView { h: unsafe { sys::nxp_profile_neff(h) } }, _srcs: Vec::new() }
    }

    /// Open from in-memory files.
    pub fn from_bytes(neff: Vec<u8>, ntff: Vec<u8>, opts: &ProfileOptions) -> Result<Profile> {
        let a = Source::memory(neff)?;
        let b = Source::memory(ntff)?;
        let o = opts.raw();
        let mut h = ptr::null_mut();
        let mut st = status();
        let rc = unsafe { sys::nxp_profile_open(&mut h, a.h, b.h, &o, &mut st) };
        if rc < 0 {
            return Err(Error::from_status(rc, &st));
        }
        Ok(Profile { h, neff: NeffView { h: unsafe { sys::nxp_profile_neff(h) } }, _srcs: vec![a, b] })
    }

    /// The NEFF the profile was opened with.
    pub fn neff(&self) -> &NeffView {
        &self.neff
    }

    pub fn metadata(&self) -> Result<Metadata> {
        let mut o: sys::nxp_metadata = unsafe { sys::sized() };
        check(unsafe { sys::nxp_profile_get_metadata(self.h, &mut o) })?;
        let opt = |v: i64| if v == i64::MIN { None } else { Some(v) };
        Ok(Metadata {
            profile_schema_version: owned(o.profile_schema_version),
            ntff_version: o.ntff_version,
            layout_version: o.layout_version,
            num_physical_cores: o.num_physical_cores,
            vnc_enabled: o.vnc_enabled != 0,
            first_hw_timestamp: o.first_hw_timestamp,
            last_hw_timestamp: o.last_hw_timestamp,
            dma_ddr_bandwidth: o.dma_ddr_bandwidth,
            num_dma_engines_per_neuroncore: o.num_dma_engines_per_neuroncore,
            hbm_ddr_bandwidth: o.hbm_ddr_bandwidth,
            tensor_engine_num_rows: o.tensor_engine_num_rows,
            tensor_engine_num_cols: o.tensor_engine_num_cols,
            tensor_engine_clock_freq: o.tensor_engine_clock_freq,
            vector_engine_clock_freq: o.vector_engine_clock_freq,
            vector_engine_num_channels: o.vector_engine_num_channels,
            scalar_engine_clock_freq: o.scalar_engine_clock_freq,
            scalar_engine_num_channels: o.scalar_engine_num_channels,
            gpsimd_engine_clock_freq: o.gpsimd_engine_clock_freq,
            gpsimd_engine_num_channels: o.gpsimd_engine_num_channels,
            neuroncore_clock_freq: o.neuroncore_clock_freq,
            ticks_per_nanosec: o.ticks_per_nanosec,
            arch: owned(o.arch),
            instance_type: owned(o.instance_type),
            runtime_version: owned(o.runtime_version),
            collectives_version: owned(o.collectives_version),
            driver_version: owned(o.driver_version),
            compiler_version: owned(o.compiler_version),
            profile_name: owned(o.profile_name),
            neuroncore_idx: o.neuroncore_idx,
            neuron_device_idx: o.neuron_device_idx,
            capture_time_ns: o.capture_time_ns,
            is_simulation: o.is_simulation != 0,
            neff_uuid: hex(&o.neff_uuid),
            neff_hash: hex(&o.neff_hash),
            trace_count: o.trace_count,
            event_count: o.event_count,
            tpb_start_ts: opt(o.tpb_start_ts),
            tpb_stop_ts: opt(o.tpb_stop_ts),
            unknown_sections: o.unknown_sections,
            tpb_damaged: o.tpb_damaged,
        })
    }

    /// A cursor over table `T` (see the type aliases and the shortcuts below).
    pub fn cursor<T: Table>(&self, opts: &CursorOptions) -> Result<Cursor<'_, T>> {
        Cursor::open(self, opts)
    }

    pub fn instructions(&self, opts: CursorOptions) -> Result<Cursor<'_, InstructionTable>> {
        self.cursor(&opts)
    }
    pub fn dma_packets(&self, opts: CursorOptions) -> Result<Cursor<'_, DmaPacketTable>> {
        self.cursor(&opts)
    }
    pub fn semaphore_updates(&self, opts: CursorOptions) -> Result<Cursor<'_, SemaphoreUpdateTable>> {
        self.cursor(&opts)
    }
    pub fn throttles(&self, opts: CursorOptions) -> Result<Cursor<'_, ThrottleTable>> {
        self.cursor(&opts)
    }
    pub fn errors(&self, opts: CursorOptions) -> Result<Cursor<'_, ErrorTable>> {
        self.cursor(&opts)
    }
    pub fn executions(&self, opts: CursorOptions) -> Result<Cursor<'_, ExecutionTable>> {
        self.cursor(&opts)
    }
    pub fn active_time(&self, opts: CursorOptions) -> Result<Cursor<'_, ActiveTimeTable>> {
        self.cursor(&opts)
    }

    /// One streaming pass: Summary, OpcodeSummary and ThrottleSummary.
    pub fn summary(&self) -> Result<Summary> {
        let mut s = ptr::null_mut();
        let mut st = status();
        let rc = unsafe { sys::nxp_profile_summarize(self.h, ptr::null(), &mut s, &mut st) };
        if rc < 0 {
            return Err(Error::from_status(rc, &st));
        }
        let guard = SummaryHandle(s);
        guard.read()
    }
}

impl Drop for Profile {
    fn drop(&mut self) {
        unsafe { sys::nxp_profile_close(self.h) }
    }
}

// ------------------------------------------------------------------ records

/// A table a cursor can walk: its C struct, its record type and table number.
pub trait Table {
    type Raw: Copy;
    type Record<'p>;
    const ID: c_int;
    /// # Safety
    /// `raw` must have been filled by the cursor of a profile that lives for `'p`.
    unsafe fn convert<'p>(raw: &Self::Raw) -> Self::Record<'p>;
}

/// A string owned by the profile: borrowed when it is valid UTF-8.
pub type Str<'p> = Cow<'p, str>;

macro_rules! table {
    ($table:ident, $raw:ty, $id:expr, $rec:ident { $($num:ident : $nt:ty),* ; $($s:ident),* }) => {
        #[derive(Clone, Debug, PartialEq)]
        pub struct $rec<'p> {
            $(pub $num: $nt,)*
            $(pub $s: Str<'p>,)*
        }
        pub struct $table;
        impl Table for $table {
            type Raw = $raw;
            type Record<'p> = $rec<'p>;
            const ID: c_int = $id;
            unsafe fn convert<'p>(r: &$raw) -> $rec<'p> {
                $rec { $($num: r.$num,)* $($s: cstr(r.$s),)* }
            }
        }
    };
}

table!(InstructionTable, sys::nxp_instruction, sys::NXP_TABLE_INSTRUCTION, Instruction {
    start_ts: i64, end_ts: i64, duration_ns: i64, engine_id: i32, pcore_idx: i64, opcode_num: u32, id: i64,
    pc: i64, evt_wait_time_ns: i64, execution_index: i32, hbm_read_bytes: i64, hbm_write_bytes: i64,
    sbuf_read_bytes: i64, sbuf_write_bytes: i64, spill_save_bytes: i64, spill_reload_bytes: i64,
    psum_read_bytes: i64, psum_write_bytes: i64, psum_read_sbuf_write_bytes: i64, tensor_elements: i64,
    raw_flops: i64, adjusted_flops: i64, tensor_elements_transpose: i64, flops_transpose: i64,
    adjusted_flops_transpose: i64, flags: u32;
    engine, opcode, operands, tensor_instruction_type, scalar_activation_fn, performance_mode
});
table!(DmaPacketTable, sys::nxp_dma_packet, sys::NXP_TABLE_DMA_PACKET, DmaPacket {
    start_ts: i64, end_ts: i64, duration_ns: i64, pcore_idx: i64, id: i64, packet_idx: i32,
    packet_aggregation_id: i64, engine_idx: i64, read_bytes: i64, write_bytes: i64, transfer_bytes: i64,
    throughput: f64, queue_idx: i64, crc: i64, execution_index: i32;
    queue_type, variable, queue_name, source, dest
});
table!(SemaphoreUpdateTable, sys::nxp_semaphore_update, sys::NXP_TABLE_SEMAPHORE_UPDATE, SemaphoreUpdate {
    timestamp: i64, semaphore_idx: i32, value: i32, double_set_or_clear: i32, update_mode: i32, pcore_idx: i64;
    id, update_source, update_operation_type, update_trigger_timing
});
table!(ThrottleTable, sys::nxp_throttle, sys::NXP_TABLE_THROTTLE, Throttle {
    timestamp: i64, duration: i64, k: i32, n: i32, pcore_idx: i64;
    type_
});
table!(ErrorTable, sys::nxp_error_record, sys::NXP_TABLE_ERROR, ErrorRecord {
    timestamp: i64, error_type_id: i32, pcore_idx: i64;
    type_, description, metadata, metadata_hex
});
table!(ExecutionTable, sys::nxp_execution, sys::NXP_TABLE_EXECUTION, Execution {
    execution_index: i32, execution_start_ts: i64, execution_end_ts: i64, num_subgraphs: i32, row_count: i64,
    pcore_idx: i64;
    neff_name
});
table!(ActiveTimeTable, sys::nxp_active_time, sys::NXP_TABLE_ACTIVE_TIME, ActiveTime {
    start_ts: i64, end_ts: i64, duration_ns: i64, engine_id: i32, pcore_idx: i64;
    engine
});

/// Records fetched from C per nxp_cursor_next_batch call.
pub const BATCH: usize = 1024;

/// A time-ordered cursor over one table.  An `Iterator<Item = Result<Record>>`:
/// after an error it yields that error once and then ends.  Closed on Drop.
pub struct Cursor<'p, T: Table> {
    h: *mut sys::nxp_cursor,
    buf: Vec<T::Raw>,
    pos: usize,
    len: usize,
    done: bool,
    pending: Option<Error>,
    _queue: Option<CString>,
    _p: PhantomData<&'p Profile>,
}

impl<'p, T: Table> Cursor<'p, T> {
    fn open(p: &'p Profile, opts: &CursorOptions) -> Result<Cursor<'p, T>> {
        let mut o: sys::nxp_cursor_options = unsafe { sys::sized() };
        o.start_ts = opts.start.unwrap_or(i64::MIN);
        o.end_ts = opts.end.unwrap_or(i64::MAX);
        o.engine = opts.engine.map_or(-1, |e| e as i32);
        o.pcore_idx = opts.pcore.unwrap_or(-1);
        let queue = match &opts.queue {
            Some(q) => Some(text_cstring(q, "queue")?),
            None => None,
        };
        o.queue_name = queue.as_ref().map_or(ptr::null(), |q| q.as_ptr());
        let mut h = ptr::null_mut();
        let mut st = status();
        let rc = unsafe { sys::nxp_cursor_open(&mut h, p.h, T::ID, &o, &mut st) };
        if rc < 0 {
            return Err(Error::from_status(rc, &st));
        }
        let mut buf = Vec::with_capacity(BATCH);
        buf.resize(BATCH, unsafe { sys::sized::<T::Raw>() });
        Ok(Cursor { h, buf, pos: 0, len: 0, done: false, pending: None, _queue: queue, _p: PhantomData })
    }

    fn error(&self, rc: c_int) -> Error {
        let mut st = status();
        unsafe { sys::nxp_cursor_error(self.h, &mut st) };
        Error::from_status(rc, &st)
    }

    /// Position at the first record with start time >= ts (drops buffered records).
    pub fn seek(&mut self, ts: i64) -> Result<()> {
        self.pos = 0;
        self.len = 0;
        self.done = false;
        self.pending = None;
        let rc = unsafe { sys::nxp_cursor_seek(self.h, ts) };
        if rc < 0 {
            self.done = true;
            return Err(self.error(rc));
        }
        Ok(())
    }

    pub fn stats(&self) -> Result<sys::nxp_cursor_stats> {
        let mut o: sys::nxp_cursor_stats = unsafe { sys::sized() };
        check(unsafe { sys::nxp_cursor_get_stats(self.h, &mut o) })?;
        Ok(o)
    }
}

impl<'p, T: Table> Iterator for Cursor<'p, T> {
    type Item = Result<T::Record<'p>>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.pos < self.len {
                let r = unsafe { T::convert(&self.buf[self.pos]) };
                self.pos += 1;
                return Some(Ok(r));
            }
            // Records stored before an error come first, then the error, once.
            if let Some(e) = self.pending.take() {
                return Some(Err(e));
            }
            if self.done {
                return None;
            }
            let mut n = 0usize;
            let rc = unsafe {
                sys::nxp_cursor_next_batch(self.h, self.buf.as_mut_ptr() as *mut c_void,
                                           std::mem::size_of::<T::Raw>(), BATCH, &mut n)
            };
            self.pos = 0;
            self.len = n.min(BATCH);
            if rc == sys::NXP_END {
                self.done = true;
            } else if rc < 0 {
                self.done = true;
                self.pending = Some(self.error(rc));
            }
        }
    }
}

impl<'p, T: Table> Drop for Cursor<'p, T> {
    fn drop(&mut self) {
        unsafe { sys::nxp_cursor_close(self.h) }
    }
}

// ------------------------------------------------------------------ summary

/// A Summary value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    Int(i64),
    Float(f64),
}

impl Value {
    pub fn as_f64(self) -> f64 {
        match self {
            Value::Int(i) => i as f64,
            Value::Float(f) => f,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct OpcodeSummary {
    pub engine: String,
    pub opcode: String,
    pub instruction_count: i64,
    pub instruction_time_ns: i64,
    pub active_time_ns: i64,
    /// Fraction of total_time.
    pub active_time_percent: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ThrottleSummary {
    pub nc_idx: i32,
    pub throttle_type: String,
    pub throttle_active_time_ns: i64,
    pub throttle_active_time_percent: f64,
    pub max_achievable_util_with_throttling_percent: f64,
}

/// Summary: present fields by public name (fractions for *_percent), plus the
/// OpcodeSummary and ThrottleSummary rows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    pub fields: BTreeMap<String, Value>,
    pub opcodes: Vec<OpcodeSummary>,
    pub throttles: Vec<ThrottleSummary>,
}

impl Summary {
    pub fn get(&self, name: &str) -> Option<Value> {
        self.fields.get(name).copied()
    }
}

struct SummaryHandle(*mut sys::nxp_summary);

impl SummaryHandle {
    fn new() -> Result<SummaryHandle> {
        let mut s = ptr::null_mut();
        check(unsafe { sys::nxp_summary_new(&mut s) })?;
        Ok(SummaryHandle(s))
    }

    fn fields(&self) -> Result<BTreeMap<String, Value>> {
        let mut out = BTreeMap::new();
        let n = unsafe { sys::nxp_summary_field_count(self.0) };
        for i in 0..n {
            let mut f: sys::nxp_summary_field = unsafe { sys::sized() };
            check(unsafe { sys::nxp_summary_get_field(self.0, i, &mut f) })?;
            if f.present != 0 {
                let v = if f.kind == sys::NXP_VALUE_INT { Value::Int(f.i) } else { Value::Float(f.f) };
                out.insert(owned(f.name), v);
            }
        }
        Ok(out)
    }

    fn read(&self) -> Result<Summary> {
        let mut s = Summary { fields: self.fields()?, ..Default::default() };
        for i in 0..unsafe { sys::nxp_summary_opcode_count(self.0) } {
            let mut o: sys::nxp_opcode_summary = unsafe { sys::sized() };
            check(unsafe { sys::nxp_summary_get_opcode(self.0, i, &mut o) })?;
            s.opcodes.push(OpcodeSummary {
                engine: owned(o.engine),
                opcode: owned(o.opcode),
                instruction_count: o.instruction_count,
                instruction_time_ns: o.instruction_time_ns,
                active_time_ns: o.active_time_ns,
                active_time_percent: o.active_time_percent,
            });
        }
        for i in 0..unsafe { sys::nxp_summary_throttle_count(self.0) } {
            let mut o: sys::nxp_throttle_summary = unsafe { sys::sized() };
            check(unsafe { sys::nxp_summary_get_throttle(self.0, i, &mut o) })?;
            s.throttles.push(ThrottleSummary {
                nc_idx: o.nc_idx,
                throttle_type: owned(o.throttle_type),
                throttle_active_time_ns: o.throttle_active_time_ns,
                throttle_active_time_percent: o.throttle_active_time_percent,
                max_achievable_util_with_throttling_percent: o.max_achievable_util_with_throttling_percent,
            });
        }
        Ok(s)
    }
}

impl Drop for SummaryHandle {
    fn drop(&mut self) {
        unsafe { sys::nxp_summary_close(self.0) }
    }
}

/// Hardware description of one physical NeuronCore (fields may be overridden).
#[derive(Clone, Copy)]
pub struct Hardware {
    raw: sys::nxp_hardware,
}

impl Hardware {
    /// libnxp's table for "trn1", "inf2", "trn2", "trn3".
    pub fn for_arch(arch: &str) -> Result<Hardware> {
        let c = text_cstring(arch, "arch")?;
        let mut raw: sys::nxp_hardware = unsafe { sys::sized() };
        let rc = unsafe { sys::nxp_hardware_for_arch(c.as_ptr(), &mut raw) };
        if rc == sys::NXP_E_NOT_FOUND {
            return Err(Error::new(rc, format!("unknown arch {:?}", arch)));
        }
        check(rc)?;
        Ok(Hardware { raw })
    }

    pub fn arch(&self) -> String {
        carray(&self.raw.arch)
    }
    /// Peak FLOP/s of one Tensor engine.
    pub fn max_ops(&self) -> f64 {
        unsafe { sys::nxp_hardware_max_ops(&self.raw) }
    }
    /// The C struct, to read or override any field.
    pub fn raw(&self) -> &sys::nxp_hardware {
        &self.raw
    }
    pub fn raw_mut(&mut self) -> &mut sys::nxp_hardware {
        &mut self.raw
    }
}

impl fmt::Debug for Hardware {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = &self.raw;
        f.debug_struct("Hardware")
            .field("arch", &self.arch())
            .field("tensor_engine_clock_freq", &r.tensor_engine_clock_freq)
            .field("neuroncore_clock_freq", &r.neuroncore_clock_freq)
            .field("hbm_bandwidth", &r.hbm_bandwidth)
            .finish_non_exhaustive()
    }
}

/// The pure derivation: raw counters (Summary field names) + hardware -> every
/// Summary field they support (present fields only).
pub fn derive_summary<'a, I>(counters: I, hw: &Hardware) -> Result<BTreeMap<String, Value>>
where
    I: IntoIterator<Item = (&'a str, f64)>,
{
    let s = SummaryHandle::new()?;
    for (name, v) in counters {
        let c = text_cstring(name, "counter name")?;
        let rc = unsafe { sys::nxp_summary_set(s.0, c.as_ptr(), v) };
        if rc == sys::NXP_E_NOT_FOUND {
            return Err(Error::new(rc, format!("unknown Summary field {:?}", name)));
        }
        check(rc)?;
    }
    check(unsafe { sys::nxp_summary_derive(s.0, &hw.raw) })?;
    s.fields()
}

// ------------------------------------------------------------------ writers

/// Encode one 64-byte instruction from its decoded form (fields the model defines).
pub fn encode_instruction(ins: &sys::nxp_neff_instruction) -> Result<[u8; 64]> {
    let mut out = [0u8; 64];
    let mut copy = *ins;
    copy.struct_size = std::mem::size_of::<sys::nxp_neff_instruction>();
    check(unsafe { sys::nxp_instruction_encode(&copy, out.as_mut_ptr()) })?;
    Ok(out)
}

/// Build a NEFF from archive members.
pub struct NeffWriter {
    h: *mut sys::nxp_neff_writer,
}

impl NeffWriter {
    pub fn new(name: &str, uuid: [u8; 16]) -> Result<NeffWriter> {
        let cname = text_cstring(name, "name")?;
        let mut o: sys::nxp_neff_writer_options = unsafe { sys::sized() };
        o.neff_version_major = 2;
        o.name = cname.as_ptr();
        o.uuid = uuid;
        let mut h = ptr::null_mut();
        let mut st = status();
        let rc = unsafe { sys::nxp_neff_writer_open(&mut h, &o, &mut st) };
        if rc < 0 {
            return Err(Error::from_status(rc, &st));
        }
        Ok(NeffWriter { h })
    }

    pub fn add(&mut self, path: &str, data: &[u8]) -> Result<()> {
        let c = text_cstring(path, "member path")?;
        check(unsafe { sys::nxp_neff_writer_add(self.h, c.as_ptr(), data.as_ptr() as *const c_void, data.len()) })?;
        Ok(())
    }

    pub fn save(&mut self, path: impl AsRef<Path>) -> Result<()> {
        let c = path_cstring(path.as_ref())?;
        check(unsafe { sys::nxp_neff_writer_save(self.h, c.as_ptr()) })?;
        Ok(())
    }
}

impl Drop for NeffWriter {
    fn drop(&mut self) {
        unsafe { sys::nxp_neff_writer_close(self.h) }
    }
}

/// Write an NTFF.  Strings in `info` are copied by the C writer at open.
pub struct NtffWriter {
    h: *mut sys::nxp_ntff_writer,
}

/// Kinds of notification queue.
pub use sys::{NXP_QUEUE_DMA, NXP_QUEUE_EXECUTION, NXP_QUEUE_INSTRUCTION, NXP_QUEUE_TPB};

impl NtffWriter {
    /// `arch` e.g. "trn2"; `uuid` and `hash` pair the file with its NEFF.
    pub fn create(path: impl AsRef<Path>, arch: &str, uuid: [u8; 16], hash: [u8; 32]) -> Result<NtffWriter> {
        let c = path_cstring(path.as_ref())?;
        let carch = text_cstring(arch, "arch")?;
        let mut info: sys::nxp_ntff_info = unsafe { sys::sized() };
        info.neff_uuid = uuid;
        info.neff_hash = hash;
        info.ntff_version = 6;
        info.ticks_per_nanosec = 1;
        info.num_physical_cores = 1;
        info.arch = carch.as_ptr();
        let mut opts: sys::nxp_ntff_writer_options = unsafe { sys::sized() };
        opts.compression_level = -1;
        let mut h = ptr::null_mut();
        let mut st = status();
        let rc = unsafe { sys::nxp_ntff_writer_open_path(&mut h, c.as_ptr(), &info, &opts, &mut st) };
        if rc < 0 {
            return Err(Error::from_status(rc, &st));
        }
        Ok(NtffWriter { h })
    }

    fn fail(&self, rc: c_int) -> Error {
        let mut st = status();
        unsafe { sys::nxp_ntff_writer_error_status(self.h, &mut st) };
        Error::from_status(rc, &st)
    }

    fn rc(&self, rc: c_int) -> Result<()> {
        if rc < 0 {
            Err(self.fail(rc))
        } else {
            Ok(())
        }
    }

    pub fn string(&mut self, s: &str) -> Result<u32> {
        let c = text_cstring(s, "string")?;
        let id = unsafe { sys::nxp_ntff_writer_string(self.h, c.as_ptr()) };
        if id < 0 {
            return Err(self.fail(id as c_int));
        }
        Ok(id as u32)
    }

    /// Declare a queue (`kind` an NXP_QUEUE_* value; `name` for DMA queues).
    pub fn add_queue(&mut self, kind: i32, engine: Option<Engine>, name: Option<&str>) -> Result<i32> {
        let cname = match name {
            Some(n) => Some(text_cstring(n, "queue name")?),
            None => None,
        };
        let mut q: sys::nxp_ntff_queue = unsafe { sys::sized() };
        q.kind = kind;
        q.engine = engine.map_or(-1, |e| e as i32);
        q.name = cname.as_ref().map_or(ptr::null(), |c| c.as_ptr());
        let id = unsafe { sys::nxp_ntff_writer_add_queue(self.h, &q) };
        if id < 0 {
            return Err(self.fail(id));
        }
        Ok(id)
    }

    pub fn instruction(&mut self, queue: i32, n: &sys::nxp_ntff_instruction_note) -> Result<()> {
        self.rc(unsafe { sys::nxp_ntff_writer_instruction(self.h, queue, n) })
    }
    pub fn dma(&mut self, queue: i32, n: &sys::nxp_ntff_dma_note) -> Result<()> {
        self.rc(unsafe { sys::nxp_ntff_writer_dma(self.h, queue, n) })
    }
    pub fn execution(&mut self, queue: i32, n: &sys::nxp_ntff_execution_note) -> Result<()> {
        self.rc(unsafe { sys::nxp_ntff_writer_execution(self.h, queue, n) })
    }
    pub fn tpb(&mut self, queue: i32, n: &sys::nxp_ntff_tpb_note) -> Result<()> {
        self.rc(unsafe { sys::nxp_ntff_writer_tpb(self.h, queue, n) })
    }

    pub fn finish(self) -> Result<()> {
        self.rc(unsafe { sys::nxp_ntff_writer_finish(self.h) })
    }
}

impl Drop for NtffWriter {
    fn drop(&mut self) {
        unsafe { sys::nxp_ntff_writer_close(self.h) }
    }
}

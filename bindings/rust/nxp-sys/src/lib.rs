// SPDX-License-Identifier: MIT
//! Raw declarations of libnxp's C API (include/nxp/*.h): `#[repr(C)]` structs,
//! constants and `extern "C"` functions.  No safety: see the `nxp` crate.
//!
//! Every struct's size and field offsets are checked against the C compiler's
//! view by the `nxp` crate's layout test (tests/abi_layout.c).
#![allow(non_camel_case_types)]

use std::os::raw::{c_char, c_int, c_uint, c_void};

// ------------------------------------------------------------------ nxp.h
pub const NXP_VERSION_MAJOR: i64 = 0;
pub const NXP_VERSION_MINOR: i64 = 2;
pub const NXP_VERSION_PATCH: i64 = 0;
pub const NXP_VERSION_NUMBER: i64 = NXP_VERSION_MAJOR * 10000 + NXP_VERSION_MINOR * 100 + NXP_VERSION_PATCH;
pub const NXP_STATUS_MESSAGE_MAX: usize = 256;

pub const NXP_OK: c_int = 0;
pub const NXP_END: c_int = 1;
pub const NXP_E_INVAL: c_int = -1;
pub const NXP_E_NOMEM: c_int = -2;
pub const NXP_E_IO: c_int = -3;
pub const NXP_E_TRUNCATED: c_int = -4;
pub const NXP_E_FORMAT: c_int = -5;
pub const NXP_E_VERSION: c_int = -6;
pub const NXP_E_LIMIT: c_int = -7;
pub const NXP_E_HASH: c_int = -8;
pub const NXP_E_CRC: c_int = -9;
pub const NXP_E_MISMATCH: c_int = -10;
pub const NXP_E_NOT_FOUND: c_int = -11;
pub const NXP_E_UNSAFE_PATH: c_int = -12;
pub const NXP_E_JSON: c_int = -13;
pub const NXP_E_UNSUPPORTED: c_int = -14;
pub const NXP_E_COMPRESSION: c_int = -15;
pub const NXP_E_RANGE: c_int = -16;
pub const NXP_E_PROTOBUF: c_int = -17;

#[repr(C)]
#[derive(Clone, Copy)]
pub struct nxp_status {
    pub struct_size: usize,
    pub code: c_int,
    pub offset: i64,
    pub message: [c_char; NXP_STATUS_MESSAGE_MAX],
}

#[repr(C)]
pub struct nxp_source {
    _private: [u8; 0],
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct nxp_source_callbacks {
    pub struct_size: usize,
    pub read: Option<unsafe extern "C" fn(user: *mut c_void, buf: *mut c_void, len: usize) -> i64>,
    pub seek: Option<unsafe extern "C" fn(user: *mut c_void, offset: u64) -> c_int>,
    pub get_size: Option<unsafe extern "C" fn(user: *mut c_void) -> i64>,
    pub close: Option<unsafe extern "C" fn(user: *mut c_void)>,
}

// ------------------------------------------------------------------ neff.h
pub const NXP_NEFF_HEADER_SIZE: usize = 1024;
pub const NXP_NEFF_INSTRUCTION_SIZE: usize = 64;
pub const NXP_ENGINE_TENSOR: c_int = 0;
pub const NXP_ENGINE_VECTOR: c_int = 1;
pub const NXP_ENGINE_SCALAR: c_int = 2;
pub const NXP_ENGINE_GPSIMD: c_int = 3;
pub const NXP_ENGINE_SYNC: c_int = 4;
pub const NXP_ENGINE_COUNT: usize = 5;
pub const NXP_NEFF_VERIFY_HASH: u32 = 0x1;
pub const NXP_MEMORY_NONE: u8 = 0;
pub const NXP_MEMORY_SBUF: u8 = 1;
pub const NXP_MEMORY_PSUM: u8 = 2;
pub const NXP_MEMORY_HBM: u8 = 3;
pub const NXP_NEFF_WRITE_PLAIN_TAR: u32 = 0x1;
pub const NXP_NEFF_WRITE_DOT_SLASH: u32 = 0x2;

#[repr(C)]
pub struct nxp_neff {
    _private: [u8; 0],
}
#[repr(C)]
pub struct nxp_neff_writer {
    _private: [u8; 0],
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct nxp_neff_options {
    pub struct_size: usize,
    pub flags: u32,
    pub max_member_size: u64,
    pub max_total_inflated: u64,
    pub max_inflation_ratio: u32,
    pub max_json_size: u64,
    pub max_json_depth: u32,
    pub max_members: u32,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct nxp_neff_header {
    pub struct_size: usize,
    pub pkg_version: u64,
    pub header_size: u64,
    pub data_size: u64,
    pub neff_version_major: u64,
    pub neff_version_minor: u64,
    pub build_version: [c_char; 129],
    pub num_tpb: u32,
    pub hash: [u8; 32],
    pub uuid: [u8; 16],
    pub name: [c_char; 257],
    pub requested_tpb_count: u32,
    pub tpb_per_node: [u8; 64],
    pub feature_bits: u64,
    pub lnc_size: u32,
    pub hash_verified: i32,
    pub payload_gzip: i32,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct nxp_neff_subgraph {
    pub struct_size: usize,
    pub name: *const c_char,
    pub definition: *const c_char,
    pub pcore_idx: i64,
    pub tensor_count: u64,
    pub dma_queue_count: u64,
    pub instruction_count: [u64; NXP_ENGINE_COUNT],
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct nxp_tensor_info {
    pub struct_size: usize,
    pub variable_name: *const c_char,
    pub type_: *const c_char,
    pub format: *const c_char,
    pub shape: *const c_char,
    pub size: i64,
    pub node: i64,
    pub pcore_idx: i64,
    pub file_name: *const c_char,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct nxp_dma_queue_info {
    pub struct_size: usize,
    pub name: *const c_char,
    pub type_: *const c_char,
    pub neff_type: *const c_char,
    pub owner: *const c_char,
    pub pcore_idx: i64,
    pub idx: i64,
    pub engine_idx: i64,
    pub axi_port: i64,
    pub dram_channel: i64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct nxp_access_pattern {
    pub address: u64,
    pub addr_mode: u8,
    pub memory: u8,
    pub dtype: u8,
    pub pad: u8,
    pub step_elem: [i16; 3],
    pub num_elem: [u16; 3],
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct nxp_neff_instruction {
    pub struct_size: usize,
    pub pc: i64,
    pub engine: i32,
    pub pcore_idx: i64,
    pub opcode_num: u32,
    pub opcode: *const c_char,
    pub operands: *const c_char,
    pub wait_mode: u8,
    pub wait_idx: u8,
    pub update_mode: u8,
    pub update_idx: u8,
    pub semaphore_value: u32,
    pub src: nxp_access_pattern,
    pub dst: nxp_access_pattern,
    pub tensor_instruction_type: *const c_char,
    pub tensor_elements: i64,
    pub raw_flops: i64,
    pub adjusted_flops: i64,
    pub hbm_read_bytes: i64,
    pub hbm_write_bytes: i64,
    pub sbuf_read_bytes: i64,
    pub sbuf_write_bytes: i64,
    pub psum_read_bytes: i64,
    pub psum_write_bytes: i64,
    pub scalar_activation_fn: *const c_char,
    pub raw: [u8; NXP_NEFF_INSTRUCTION_SIZE],
    pub inst_word_len: u8,
    pub debug_cmd: u8,
    pub debug_hint: u8,
    pub flags: u8,
    pub func: u8,
    pub partitions: u16,
    pub active_cols: u16,
    pub aux: u32,
    pub immediate: f32,
    pub performance_mode: *const c_char,
    pub psum_read_sbuf_write_bytes: i64,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct nxp_neff_writer_options {
    pub struct_size: usize,
    pub flags: u32,
    pub pkg_version: u64,
    pub neff_version_major: u64,
    pub neff_version_minor: u64,
    pub build_version: *const c_char,
    pub name: *const c_char,
    pub uuid: [u8; 16],
    pub num_tpb: u32,
    pub lnc_size: u32,
    pub feature_bits: u64,
}

// ------------------------------------------------------------------ ntff.h
pub const NXP_PROFILE_ALLOW_MISMATCH: u32 = 0x1;
pub const NXP_PROFILE_SKIP_CRC: u32 = 0x2;
pub const NXP_TABLE_INSTRUCTION: c_int = 1;
pub const NXP_TABLE_DMA_PACKET: c_int = 2;
pub const NXP_TABLE_SEMAPHORE_UPDATE: c_int = 3;
pub const NXP_TABLE_THROTTLE: c_int = 4;
pub const NXP_TABLE_ERROR: c_int = 5;
pub const NXP_TABLE_EXECUTION: c_int = 6;
pub const NXP_TABLE_ACTIVE_TIME: c_int = 7;
pub const NXP_INSTRUCTION_PC_UNKNOWN: u32 = 0x1;
pub const NXP_QUEUE_INSTRUCTION: i32 = 1;
pub const NXP_QUEUE_DMA: i32 = 2;
pub const NXP_QUEUE_SEMAPHORE: i32 = 3;
pub const NXP_QUEUE_THROTTLE: i32 = 4;
pub const NXP_QUEUE_ERROR: i32 = 5;
pub const NXP_QUEUE_EXECUTION: i32 = 6;
pub const NXP_QUEUE_TPB: i32 = 7;
pub const NXP_NTFF_WRITE_COMPRESS: u32 = 0x1;
pub const NXP_DMA_SOFTWARE_DYNAMIC: u16 = 0x1;
pub const NXP_DMA_HARDWARE_DYNAMIC: u16 = 0x2;

#[repr(C)]
pub struct nxp_profile {
    _private: [u8; 0],
}
#[repr(C)]
pub struct nxp_cursor {
    _private: [u8; 0],
}
#[repr(C)]
pub struct nxp_ntff_writer {
    _private: [u8; 0],
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct nxp_profile_options {
    pub struct_size: usize,
    pub flags: u32,
    pub neff: *const nxp_neff_options,
    pub max_section_size: u64,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct nxp_metadata {
    pub struct_size: usize,
    pub profile_schema_version: *const c_char,
    pub ntff_version: i32,
    pub layout_version: i32,
    pub num_physical_cores: i32,
    pub vnc_enabled: i32,
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
    pub arch: *const c_char,
    pub instance_type: *const c_char,
    pub runtime_version: *const c_char,
    pub collectives_version: *const c_char,
    pub driver_version: *const c_char,
    pub compiler_version: *const c_char,
    pub profile_name: *const c_char,
    pub neuroncore_idx: i64,
    pub neuron_device_idx: i64,
    pub capture_time_ns: i64,
    pub is_simulation: i32,
    pub neff_uuid: [u8; 16],
    pub neff_hash: [u8; 32],
    pub trace_count: i64,
    pub event_count: i64,
    pub tpb_start_ts: i64,
    pub tpb_stop_ts: i64,
    pub unknown_sections: i64,
    pub tpb_damaged: i64,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct nxp_instruction {
    pub struct_size: usize,
    pub start_ts: i64,
    pub end_ts: i64,
    pub duration_ns: i64,
    pub engine: *const c_char,
    pub engine_id: i32,
    pub pcore_idx: i64,
    pub opcode: *const c_char,
    pub opcode_num: u32,
    pub operands: *const c_char,
    pub id: i64,
    pub pc: i64,
    pub evt_wait_time_ns: i64,
    pub execution_index: i32,
    pub hbm_read_bytes: i64,
    pub hbm_write_bytes: i64,
    pub sbuf_read_bytes: i64,
    pub sbuf_write_bytes: i64,
    pub spill_save_bytes: i64,
    pub spill_reload_bytes: i64,
    pub psum_read_bytes: i64,
    pub psum_write_bytes: i64,
    pub psum_read_sbuf_write_bytes: i64,
    pub tensor_instruction_type: *const c_char,
    pub tensor_elements: i64,
    pub raw_flops: i64,
    pub adjusted_flops: i64,
    pub tensor_elements_transpose: i64,
    pub flops_transpose: i64,
    pub adjusted_flops_transpose: i64,
    pub scalar_activation_fn: *const c_char,
    pub performance_mode: *const c_char,
    pub flags: u32,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct nxp_dma_packet {
    pub struct_size: usize,
    pub start_ts: i64,
    pub end_ts: i64,
    pub duration_ns: i64,
    pub pcore_idx: i64,
    pub id: i64,
    pub packet_idx: i32,
    pub packet_aggregation_id: i64,
    pub engine_idx: i64,
    pub read_bytes: i64,
    pub write_bytes: i64,
    pub transfer_bytes: i64,
    pub throughput: f64,
    pub queue_type: *const c_char,
    pub variable: *const c_char,
    pub queue_name: *const c_char,
    pub queue_idx: i64,
    pub crc: i64,
    pub execution_index: i32,
    pub source: *const c_char,
    pub dest: *const c_char,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct nxp_semaphore_update {
    pub struct_size: usize,
    pub timestamp: i64,
    pub id: *const c_char,
    pub semaphore_idx: i32,
    pub value: i32,
    pub update_source: *const c_char,
    pub double_set_or_clear: i32,
    pub update_mode: i32,
    pub update_operation_type: *const c_char,
    pub update_trigger_timing: *const c_char,
    pub pcore_idx: i64,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct nxp_throttle {
    pub struct_size: usize,
    pub timestamp: i64,
    pub duration: i64,
    pub k: i32,
    pub n: i32,
    pub type_: *const c_char,
    pub pcore_idx: i64,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct nxp_error_record {
    pub struct_size: usize,
    pub timestamp: i64,
    pub type_: *const c_char,
    pub error_type_id: i32,
    pub description: *const c_char,
    pub metadata: *const c_char,
    pub metadata_hex: *const c_char,
    pub pcore_idx: i64,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct nxp_execution {
    pub struct_size: usize,
    pub execution_index: i32,
    pub neff_name: *const c_char,
    pub execution_start_ts: i64,
    pub execution_end_ts: i64,
    pub num_subgraphs: i32,
    pub row_count: i64,
    pub pcore_idx: i64,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct nxp_active_time {
    pub struct_size: usize,
    pub start_ts: i64,
    pub end_ts: i64,
    pub duration_ns: i64,
    pub engine: *const c_char,
    pub engine_id: i32,
    pub pcore_idx: i64,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct nxp_cursor_options {
    pub struct_size: usize,
    pub start_ts: i64,
    pub end_ts: i64,
    pub engine: i32,
    pub pcore_idx: i64,
    pub queue_name: *const c_char,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct nxp_cursor_stats {
    pub struct_size: usize,
    pub records: i64,
    pub bad_records: i64,
    pub skipped_sections: i64,
    pub bytes_read: i64,
    pub last_bad_offset: i64,
    pub unknown_pcs: i64,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct nxp_ntff_writer_options {
    pub struct_size: usize,
    pub flags: u32,
    pub records_per_section: u32,
    pub compression_level: i32,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct nxp_ntff_info {
    pub struct_size: usize,
    pub neff_uuid: [u8; 16],
    pub neff_hash: [u8; 32],
    pub ntff_version: i32,
    pub ticks_per_nanosec: i64,
    pub num_physical_cores: i32,
    pub arch: *const c_char,
    pub instance_type: *const c_char,
    pub runtime_version: *const c_char,
    pub collectives_version: *const c_char,
    pub driver_version: *const c_char,
    pub compiler_version: *const c_char,
    pub profile_name: *const c_char,
    pub tensor_engine_clock_freq: f64,
    pub vector_engine_clock_freq: f64,
    pub scalar_engine_clock_freq: f64,
    pub gpsimd_engine_clock_freq: f64,
    pub neuroncore_clock_freq: f64,
    pub tensor_engine_num_rows: i64,
    pub tensor_engine_num_cols: i64,
    pub vector_engine_num_channels: i64,
    pub scalar_engine_num_channels: i64,
    pub gpsimd_engine_num_channels: i64,
    pub num_dma_engines_per_neuroncore: i32,
    pub dma_ddr_bandwidth: f64,
    pub hbm_ddr_bandwidth: f64,
    pub neuroncore_idx: i64,
    pub neuron_device_idx: i64,
    pub capture_time_ns: i64,
    pub is_simulation: i32,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct nxp_ntff_queue {
    pub struct_size: usize,
    pub kind: i32,
    pub engine: i32,
    pub pcore_idx: i32,
    pub name: *const c_char,
    pub queue_idx: i32,
    pub engine_idx: i32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct nxp_ntff_instruction_note {
    pub start_tick: u64,
    pub end_tick: u64,
    pub pc: u32,
    pub wait_ticks: u32,
    pub execution_index: i32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct nxp_ntff_dma_note {
    pub start_tick: u64,
    pub end_tick: u64,
    pub packet_aggregation_id: u32,
    pub packet_idx: u32,
    pub read_bytes: u32,
    pub write_bytes: u32,
    pub crc: u32,
    pub flags: u16,
    pub source: u8,
    pub dest: u8,
    pub execution_index: i32,
    pub variable: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct nxp_ntff_semaphore_note {
    pub tick: u64,
    pub semaphore_idx: u16,
    pub update_source: u8,
    pub operation: u8,
    pub value: i32,
    pub trigger_complete: u8,
    pub double_set_or_clear: u8,
    pub update_mode: u8,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct nxp_ntff_throttle_note {
    pub tick: u64,
    pub duration_ticks: u64,
    pub k: u16,
    pub n: u16,
    pub type_: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct nxp_ntff_error_note {
    pub tick: u64,
    pub error_type_id: i32,
    pub type_: u8,
    pub description: u32,
    pub metadata: u64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct nxp_ntff_execution_note {
    pub start_tick: u64,
    pub end_tick: u64,
    pub execution_index: i32,
    pub num_subgraphs: i32,
    pub neff_name: u32,
    pub row_count: i64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct nxp_ntff_tpb_note {
    pub tick: u64,
    pub is_stop: u8,
}

// ------------------------------------------------------------------ summary.h
pub const NXP_VALUE_INT: i32 = 1;
pub const NXP_VALUE_FLOAT: i32 = 2;

#[repr(C)]
pub struct nxp_summary {
    _private: [u8; 0],
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct nxp_hardware {
    pub struct_size: usize,
    pub arch: [c_char; 16],
    pub tensor_engine_num_rows: i64,
    pub tensor_engine_num_cols: i64,
    pub tensor_engine_clock_freq: f64,
    pub vector_engine_clock_freq: f64,
    pub scalar_engine_clock_freq: f64,
    pub gpsimd_engine_clock_freq: f64,
    pub neuroncore_clock_freq: f64,
    pub hbm_bandwidth: f64,
    pub dma_ddr_bandwidth: f64,
    pub fp8_flops_multiplier: f64,
    pub num_physical_cores: i32,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct nxp_summary_field {
    pub struct_size: usize,
    pub name: *const c_char,
    pub unit: *const c_char,
    pub group: *const c_char,
    pub kind: i32,
    pub present: i32,
    pub i: i64,
    pub f: f64,
    pub extension: i32,
    pub derived: i32,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct nxp_opcode_summary {
    pub struct_size: usize,
    pub engine: *const c_char,
    pub opcode: *const c_char,
    pub instruction_count: i64,
    pub instruction_time_ns: i64,
    pub active_time_ns: i64,
    pub active_time_percent: f64,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct nxp_throttle_summary {
    pub struct_size: usize,
    pub nc_idx: i32,
    pub throttle_type: *const c_char,
    pub throttle_active_time_ns: i64,
    pub throttle_active_time_percent: f64,
    pub max_achievable_util_with_throttling_percent: f64,
}

// ------------------------------------------------------------------ system.h
pub const NXP_SYSFILE_AUTO: c_int = 0;
pub const NXP_SYSFILE_NTRACE: c_int = 1;
pub const NXP_SYSFILE_TRACE_INFO: c_int = 2;
pub const NXP_SYSFILE_CPU_UTIL: c_int = 3;
pub const NXP_SYSFILE_HOST_MEM: c_int = 4;
pub const NXP_SYSFILE_TRACE_JSON: c_int = 5;
pub const NXP_SYSFILE_NEFF: c_int = 6;
pub const NXP_SYSFILE_NTFF: c_int = 7;
pub const NXP_SYSTEM_NO_PAIRING: u32 = 0x1;
pub const NXP_SYSTEM_NO_PRESCAN: u32 = 0x2;
pub const NXP_SYSEV_UNMATCHED_START: u32 = 0x1;
pub const NXP_SYSEV_UNMATCHED_STOP: u32 = 0x2;
pub const NXP_SYSEV_HARDWARE: u32 = 0x4;
pub const NXP_SYSEV_SOFTWARE: u32 = 0x8;
pub const NXP_SYSEV_NO_BASE_TIME: u32 = 0x10;
pub const NXP_SYSEV_UNPAIRED: u32 = 0x20;
pub const NXP_PAIRED_NONE: i32 = 0;
pub const NXP_PAIRED_BY_UUID: i32 = 1;
pub const NXP_PAIRED_BY_NAME: i32 = 2;
pub const NXP_PAIRED_SOLE: i32 = 3;
pub const NXP_NTRACE_PHASE_NONE: i32 = 0;
pub const NXP_NTRACE_PHASE_START: i32 = 1;
pub const NXP_NTRACE_PHASE_STOP: i32 = 2;
pub const NXP_NTRACE_PHASE_INSTANT: i32 = 3;

#[repr(C)]
pub struct nxp_system_events {
    _private: [u8; 0],
}
#[repr(C)]
pub struct nxp_host_stats {
    _private: [u8; 0],
}
#[repr(C)]
pub struct nxp_trace_info {
    _private: [u8; 0],
}
#[repr(C)]
pub struct nxp_clock_map {
    _private: [u8; 0],
}
#[repr(C)]
pub struct nxp_capture {
    _private: [u8; 0],
}
#[repr(C)]
pub struct nxp_sysprof_writer {
    _private: [u8; 0],
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct nxp_system_options {
    pub struct_size: usize,
    pub flags: u32,
    pub max_message_size: u64,
    pub max_json_event: u64,
    pub max_json_depth: u32,
    pub max_pending: u32,
    pub instance_id: *const c_char,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct nxp_system_event {
    pub struct_size: usize,
    pub id: i64,
    pub name: *const c_char,
    pub start_ts: i64,
    pub end_ts: i64,
    pub duration_ns: i64,
    pub trace_event_source: *const c_char,
    pub instance_id: *const c_char,
    pub process_id: i64,
    pub thread_id: i64,
    pub nc_idx: i64,
    pub pcore_idx: i64,
    pub worker_gid: i64,
    pub flow_id: *const c_char,
    pub framework_stream_id: *const c_char,
    pub extra_attributes_json: *const c_char,
    pub flags: u32,
    pub phase: *const c_char,
    pub category: *const c_char,
    pub pid: *const c_char,
    pub tid: *const c_char,
    pub process_name: *const c_char,
    pub thread_name: *const c_char,
    pub tracking_id: i64,
    pub nrta_seq_id: i64,
    pub nd_idx: i64,
    pub file: *const c_char,
    pub offset: i64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct nxp_system_stats {
    pub struct_size: usize,
    pub events: i64,
    pub neuron_rt: i64,
    pub neuron_hw: i64,
    pub framework: i64,
    pub unmatched_starts: i64,
    pub unmatched_stops: i64,
    pub skipped: i64,
    pub files: i64,
    pub bytes_read: i64,
    pub base_time_ns: i64,
    pub peak_pending: i64,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct nxp_cpu_usage {
    pub struct_size: usize,
    pub timestamp: i64,
    pub util_percent: f64,
    pub cpu_id: *const c_char,
    pub instance_id: *const c_char,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct nxp_host_mem_usage {
    pub struct_size: usize,
    pub timestamp: i64,
    pub used_bytes: i64,
    pub used_percent: f64,
    pub instance_id: *const c_char,
    pub total_bytes: i64,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct nxp_system_metadata {
    pub struct_size: usize,
    pub first_ts: *const c_char,
    pub last_ts: *const c_char,
    pub first_ts_ns: i64,
    pub last_ts_ns: i64,
    pub ntff_version: i64,
    pub hbm_capacity_bytes: i64,
    pub instance_id: *const c_char,
    pub instance_type: *const c_char,
    pub arch: *const c_char,
    pub runtime_version: *const c_char,
    pub driver_version: *const c_char,
    pub pid: i64,
    pub session_id: i64,
    pub logical_nc_size: i64,
    pub num_neuron_cores: i64,
    pub data_version: i64,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct nxp_capture_file {
    pub struct_size: usize,
    pub path: *const c_char,
    pub kind: i32,
    pub size: i64,
    pub process_index: i64,
    pub name_hash: *const c_char,
    pub nc_idx: i64,
    pub vnc: i64,
    pub session: i64,
    pub instid: i64,
    pub has_uuid: i32,
    pub uuid: [u8; 16],
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct nxp_capture_process {
    pub struct_size: usize,
    pub dir: *const c_char,
    pub instance_id: *const c_char,
    pub pid: i64,
    pub timestamp: *const c_char,
    pub ntrace: i64,
    pub trace_info: i64,
    pub cpu_util: i64,
    pub host_mem: i64,
    pub trace_json: i64,
    pub complete: i32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct nxp_capture_profile {
    pub struct_size: usize,
    pub neff: i64,
    pub ntff: i64,
    pub process_index: i64,
    pub pairing: i32,
    pub nc_idx: i64,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct nxp_sysprof_writer_options {
    pub struct_size: usize,
    pub stream: i32,
    pub chunk_events: u32,
    pub arch: *const c_char,
    pub pid: i64,
    pub session_id: i64,
    pub data_version: i64,
    pub logical_nc_size: i64,
    pub instance_id: *const c_char,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct nxp_ntrace_event {
    pub struct_size: usize,
    pub timestamp: i64,
    pub name: *const c_char,
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
    pub attributes: *const *const c_char,
    pub n_attributes: usize,
}

impl nxp_ntrace_event {
    /// The header's nxp_ntrace_event_init(): every optional integer absent (-1).
    pub fn new() -> nxp_ntrace_event {
        nxp_ntrace_event {
            struct_size: std::mem::size_of::<nxp_ntrace_event>(),
            timestamp: 0,
            name: std::ptr::null(),
            phase: 0,
            duration: -1,
            nc_idx: -1,
            nd_idx: -1,
            thread_id: -1,
            id: -1,
            parent_id: -1,
            tracking_id: -1,
            nrta_seq_id: -1,
            data: -1,
            status: -1,
            event_type: -1,
            attributes: std::ptr::null(),
            n_attributes: 0,
        }
    }
}

impl Default for nxp_ntrace_event {
    fn default() -> Self {
        Self::new()
    }
}

/// A zeroed C struct with `struct_size` set: the equivalent of the header's
/// `_init()` helpers for structs whose zero value is the default.
///
/// # Safety
/// `T` must be one of this crate's `#[repr(C)]` structs that begin with
/// `size_t struct_size` (all-zero bytes are valid for every one of them).
pub unsafe fn sized<T>() -> T {
    let mut v: T = std::mem::zeroed();
    *(&mut v as *mut T as *mut usize) = std::mem::size_of::<T>();
    v
}

// ------------------------------------------------------------------ arrow.h, table.h
// The Arrow C Data / C Stream Interface structs, laid out as the Arrow
// specification (and arrow-rs's FFI_ArrowSchema / FFI_ArrowArray /
// FFI_ArrowArrayStream) declare them.
pub const ARROW_FLAG_DICTIONARY_ORDERED: i64 = 1;
pub const ARROW_FLAG_NULLABLE: i64 = 2;
pub const ARROW_FLAG_MAP_KEYS_SORTED: i64 = 4;

#[repr(C)]
#[derive(Debug)]
pub struct ArrowSchema {
    pub format: *const c_char,
    pub name: *const c_char,
    pub metadata: *const c_char,
    pub flags: i64,
    pub n_children: i64,
    pub children: *mut *mut ArrowSchema,
    pub dictionary: *mut ArrowSchema,
    pub release: Option<unsafe extern "C" fn(*mut ArrowSchema)>,
    pub private_data: *mut c_void,
}

#[repr(C)]
#[derive(Debug)]
pub struct ArrowArray {
    pub length: i64,
    pub null_count: i64,
    pub offset: i64,
    pub n_buffers: i64,
    pub n_children: i64,
    pub buffers: *mut *const c_void,
    pub children: *mut *mut ArrowArray,
    pub dictionary: *mut ArrowArray,
    pub release: Option<unsafe extern "C" fn(*mut ArrowArray)>,
    pub private_data: *mut c_void,
}

#[repr(C)]
#[derive(Debug)]
pub struct ArrowArrayStream {
    pub get_schema: Option<unsafe extern "C" fn(*mut ArrowArrayStream, *mut ArrowSchema) -> c_int>,
    pub get_next: Option<unsafe extern "C" fn(*mut ArrowArrayStream, *mut ArrowArray) -> c_int>,
    pub get_last_error: Option<unsafe extern "C" fn(*mut ArrowArrayStream) -> *const c_char>,
    pub release: Option<unsafe extern "C" fn(*mut ArrowArrayStream)>,
    pub private_data: *mut c_void,
}

macro_rules! arrow_empty {
    ($($t:ident),*) => {$(
        impl $t {
            /// A released (all-zero) struct, ready to be filled by a producer.
            pub const fn empty() -> $t {
                unsafe { std::mem::MaybeUninit::<$t>::zeroed().assume_init() }
            }
        }
    )*};
}
arrow_empty!(ArrowSchema, ArrowArray, ArrowArrayStream);

pub const NXP_PARQUET_ZSTD: c_int = 0;
pub const NXP_PARQUET_GZIP: c_int = 1;
pub const NXP_PARQUET_NONE: c_int = 2;

#[repr(C)]
#[derive(Clone, Copy)]
pub struct nxp_table_options {
    pub struct_size: usize,
    pub columns: *const *const c_char,
    pub start_ts: i64,
    pub end_ts: i64,
    pub engine: i32,
    pub pcore_idx: i64,
    pub queue_name: *const c_char,
    pub batch_rows: i64,
}

impl Default for nxp_table_options {
    fn default() -> Self {
        nxp_table_options {
            struct_size: std::mem::size_of::<nxp_table_options>(),
            columns: std::ptr::null(),
            start_ts: i64::MIN,
            end_ts: i64::MAX,
            engine: -1,
            pcore_idx: -1,
            queue_name: std::ptr::null(),
            batch_rows: 0,
        }
    }
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct nxp_parquet_options {
    pub struct_size: usize,
    pub codec: i32,
    pub level: i32,
    pub row_group_bytes: i64,
    pub overwrite: i32,
    pub key_values: *const *const c_char,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct nxp_export_report {
    pub struct_size: usize,
    pub skipped_records: i64,
    pub skipped_sections: i64,
    pub tables_written: i32,
}

impl Default for nxp_export_report {
    fn default() -> Self {
        nxp_export_report {
            struct_size: std::mem::size_of::<nxp_export_report>(),
            skipped_records: 0,
            skipped_sections: 0,
            tables_written: 0,
        }
    }
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct nxp_export_options {
    pub struct_size: usize,
    pub tables: *const *const c_char,
    pub codec: i32,
    pub level: i32,
    pub overwrite: i32,
    pub progress: Option<unsafe extern "C" fn(user: *mut c_void, table: *const c_char, done: c_int, total: c_int)>,
    pub progress_user: *mut c_void,
    pub threads: i32,
    pub report: *mut nxp_export_report,
}

impl Default for nxp_export_options {
    fn default() -> Self {
        nxp_export_options {
            struct_size: std::mem::size_of::<nxp_export_options>(),
            tables: std::ptr::null(),
            codec: NXP_PARQUET_ZSTD,
            level: 0,
            overwrite: 0,
            progress: None,
            progress_user: std::ptr::null_mut(),
            threads: 0,
            report: std::ptr::null_mut(),
        }
    }
}

extern "C" {
    // nxp.h
    pub fn nxp_version_number() -> c_uint;
    pub fn nxp_version_string() -> *const c_char;
    pub fn nxp_strerror(code: c_int) -> *const c_char;
    pub fn nxp_source_open_path(out: *mut *mut nxp_source, path: *const c_char, st: *mut nxp_status) -> c_int;
    pub fn nxp_source_open_fd(out: *mut *mut nxp_source, fd: c_int, st: *mut nxp_status) -> c_int;
    pub fn nxp_source_open_memory(out: *mut *mut nxp_source, data: *const c_void, size: usize,
                                  st: *mut nxp_status) -> c_int;
    pub fn nxp_source_open_callbacks(out: *mut *mut nxp_source, cb: *const nxp_source_callbacks,
                                     user: *mut c_void, st: *mut nxp_status) -> c_int;
    pub fn nxp_source_size(src: *const nxp_source) -> i64;
    pub fn nxp_source_seekable(src: *const nxp_source) -> c_int;
    pub fn nxp_source_close(src: *mut nxp_source);

    // neff.h
    pub fn nxp_engine_name(engine: c_int) -> *const c_char;
    pub fn nxp_engine_short_name(engine: c_int) -> *const c_char;
    pub fn nxp_engine_from_name(name: *const c_char) -> c_int;
    pub fn nxp_neff_parse_header(buf: *const c_void, len: usize, file_size: i64, out: *mut nxp_neff_header,
                                 st: *mut nxp_status) -> c_int;
    pub fn nxp_neff_open(out: *mut *mut nxp_neff, src: *mut nxp_source, opts: *const nxp_neff_options,
                         st: *mut nxp_status) -> c_int;
    pub fn nxp_neff_open_path(out: *mut *mut nxp_neff, path: *const c_char, opts: *const nxp_neff_options,
                              st: *mut nxp_status) -> c_int;
    pub fn nxp_neff_close(neff: *mut nxp_neff);
    pub fn nxp_neff_error(neff: *const nxp_neff, st: *mut nxp_status) -> c_int;
    pub fn nxp_neff_get_header(neff: *const nxp_neff, out: *mut nxp_neff_header) -> c_int;
    pub fn nxp_neff_subgraph_count(neff: *const nxp_neff) -> usize;
    pub fn nxp_neff_get_subgraph(neff: *const nxp_neff, index: usize, out: *mut nxp_neff_subgraph) -> c_int;
    pub fn nxp_neff_tensor_count(neff: *const nxp_neff) -> usize;
    pub fn nxp_neff_get_tensor(neff: *const nxp_neff, index: usize, out: *mut nxp_tensor_info) -> c_int;
    pub fn nxp_neff_dma_queue_count(neff: *const nxp_neff) -> usize;
    pub fn nxp_neff_get_dma_queue(neff: *const nxp_neff, index: usize, out: *mut nxp_dma_queue_info) -> c_int;
    pub fn nxp_dtype_name(dtype: c_int) -> *const c_char;
    pub fn nxp_neff_instruction_count(neff: *const nxp_neff, subgraph: usize, engine: c_int) -> i64;
    pub fn nxp_neff_get_instruction(neff: *const nxp_neff, subgraph: usize, engine: c_int, pc: u64,
                                    out: *mut nxp_neff_instruction) -> c_int;
    pub fn nxp_instruction_decode(raw: *const c_void, len: usize, engine: c_int, out: *mut nxp_neff_instruction,
                                  text: *mut c_char, text_len: usize) -> c_int;
    pub fn nxp_opcode_name(opcode: c_uint) -> *const c_char;
    pub fn nxp_neff_has_kernel_debug_info(neff: *const nxp_neff) -> c_int;
    pub fn nxp_neff_writer_open(out: *mut *mut nxp_neff_writer, opts: *const nxp_neff_writer_options,
                                st: *mut nxp_status) -> c_int;
    pub fn nxp_neff_writer_add(w: *mut nxp_neff_writer, path: *const c_char, data: *const c_void,
                               len: usize) -> c_int;
    pub fn nxp_neff_writer_save(w: *mut nxp_neff_writer, path: *const c_char) -> c_int;
    pub fn nxp_neff_writer_save_memory(w: *mut nxp_neff_writer, data: *mut *mut c_void, len: *mut usize) -> c_int;
    pub fn nxp_neff_writer_close(w: *mut nxp_neff_writer);
    pub fn nxp_instruction_encode(input: *const nxp_neff_instruction, out: *mut u8) -> c_int;

    // ntff.h
    pub fn nxp_profile_open(out: *mut *mut nxp_profile, neff: *mut nxp_source, ntff: *mut nxp_source,
                            opts: *const nxp_profile_options, st: *mut nxp_status) -> c_int;
    pub fn nxp_profile_open_path(out: *mut *mut nxp_profile, neff_path: *const c_char, ntff_path: *const c_char,
                                 opts: *const nxp_profile_options, st: *mut nxp_status) -> c_int;
    pub fn nxp_profile_close(p: *mut nxp_profile);
    pub fn nxp_profile_error(p: *const nxp_profile, st: *mut nxp_status) -> c_int;
    pub fn nxp_profile_neff(p: *const nxp_profile) -> *const nxp_neff;
    pub fn nxp_profile_get_metadata(p: *const nxp_profile, out: *mut nxp_metadata) -> c_int;
    pub fn nxp_cursor_open(out: *mut *mut nxp_cursor, p: *mut nxp_profile, table: c_int,
                           opts: *const nxp_cursor_options, st: *mut nxp_status) -> c_int;
    pub fn nxp_cursor_close(c: *mut nxp_cursor);
    pub fn nxp_cursor_error(c: *const nxp_cursor, st: *mut nxp_status) -> c_int;
    pub fn nxp_cursor_table(c: *const nxp_cursor) -> c_int;
    pub fn nxp_cursor_next_instruction(c: *mut nxp_cursor, rec: *mut nxp_instruction) -> c_int;
    pub fn nxp_cursor_next_dma_packet(c: *mut nxp_cursor, rec: *mut nxp_dma_packet) -> c_int;
    pub fn nxp_cursor_next_semaphore_update(c: *mut nxp_cursor, rec: *mut nxp_semaphore_update) -> c_int;
    pub fn nxp_cursor_next_throttle(c: *mut nxp_cursor, rec: *mut nxp_throttle) -> c_int;
    pub fn nxp_cursor_next_error(c: *mut nxp_cursor, rec: *mut nxp_error_record) -> c_int;
    pub fn nxp_cursor_next_execution(c: *mut nxp_cursor, rec: *mut nxp_execution) -> c_int;
    pub fn nxp_cursor_next_active_time(c: *mut nxp_cursor, rec: *mut nxp_active_time) -> c_int;
    pub fn nxp_cursor_next_batch(c: *mut nxp_cursor, records: *mut c_void, record_size: usize, max: usize,
                                 count: *mut usize) -> c_int;
    pub fn nxp_cursor_seek(c: *mut nxp_cursor, ts: i64) -> c_int;
    pub fn nxp_cursor_position(c: *mut nxp_cursor) -> i64;
    pub fn nxp_cursor_get_stats(c: *const nxp_cursor, out: *mut nxp_cursor_stats) -> c_int;
    pub fn nxp_ntff_writer_open_path(out: *mut *mut nxp_ntff_writer, path: *const c_char, info: *const nxp_ntff_info,
                                     opts: *const nxp_ntff_writer_options, st: *mut nxp_status) -> c_int;
    pub fn nxp_ntff_writer_string(w: *mut nxp_ntff_writer, s: *const c_char) -> i64;
    pub fn nxp_ntff_writer_add_queue(w: *mut nxp_ntff_writer, q: *const nxp_ntff_queue) -> i32;
    pub fn nxp_ntff_writer_instruction(w: *mut nxp_ntff_writer, queue: i32, n: *const nxp_ntff_instruction_note)
        -> c_int;
    pub fn nxp_ntff_writer_dma(w: *mut nxp_ntff_writer, queue: i32, n: *const nxp_ntff_dma_note) -> c_int;
    pub fn nxp_ntff_writer_semaphore(w: *mut nxp_ntff_writer, queue: i32, n: *const nxp_ntff_semaphore_note)
        -> c_int;
    pub fn nxp_ntff_writer_throttle(w: *mut nxp_ntff_writer, queue: i32, n: *const nxp_ntff_throttle_note) -> c_int;
    pub fn nxp_ntff_writer_error(w: *mut nxp_ntff_writer, queue: i32, n: *const nxp_ntff_error_note) -> c_int;
    pub fn nxp_ntff_writer_execution(w: *mut nxp_ntff_writer, queue: i32, n: *const nxp_ntff_execution_note)
        -> c_int;
    pub fn nxp_ntff_writer_tpb(w: *mut nxp_ntff_writer, queue: i32, n: *const nxp_ntff_tpb_note) -> c_int;
    pub fn nxp_ntff_writer_finish(w: *mut nxp_ntff_writer) -> c_int;
    pub fn nxp_ntff_writer_close(w: *mut nxp_ntff_writer);
    pub fn nxp_ntff_writer_error_status(w: *const nxp_ntff_writer, st: *mut nxp_status) -> c_int;

    // summary.h
    pub fn nxp_hardware_for_arch(arch: *const c_char, out: *mut nxp_hardware) -> c_int;
    pub fn nxp_hardware_max_ops(hw: *const nxp_hardware) -> f64;
    pub fn nxp_summary_new(out: *mut *mut nxp_summary) -> c_int;
    pub fn nxp_summary_close(s: *mut nxp_summary);
    pub fn nxp_summary_field_count(s: *const nxp_summary) -> usize;
    pub fn nxp_summary_get_field(s: *const nxp_summary, index: usize, out: *mut nxp_summary_field) -> c_int;
    pub fn nxp_summary_find(s: *const nxp_summary, name: *const c_char, out: *mut nxp_summary_field) -> c_int;
    pub fn nxp_summary_set(s: *mut nxp_summary, name: *const c_char, value: f64) -> c_int;
    pub fn nxp_summary_unset(s: *mut nxp_summary, name: *const c_char) -> c_int;
    pub fn nxp_summary_derive(s: *mut nxp_summary, hw: *const nxp_hardware) -> c_int;
    pub fn nxp_summary_opcode_count(s: *const nxp_summary) -> usize;
    pub fn nxp_summary_get_opcode(s: *const nxp_summary, index: usize, out: *mut nxp_opcode_summary) -> c_int;
    pub fn nxp_summary_throttle_count(s: *const nxp_summary) -> usize;
    pub fn nxp_summary_get_throttle(s: *const nxp_summary, index: usize, out: *mut nxp_throttle_summary) -> c_int;
    pub fn nxp_profile_summarize(p: *mut nxp_profile, hw: *const nxp_hardware, out: *mut *mut nxp_summary,
                                 st: *mut nxp_status) -> c_int;
    // system.h
    pub fn nxp_system_events_open(out: *mut *mut nxp_system_events, src: *mut nxp_source, kind: c_int,
                                  opts: *const nxp_system_options, st: *mut nxp_status) -> c_int;
    pub fn nxp_system_events_open_path(out: *mut *mut nxp_system_events, path: *const c_char,
                                       opts: *const nxp_system_options, st: *mut nxp_status) -> c_int;
    pub fn nxp_system_events_next(c: *mut nxp_system_events, ev: *mut nxp_system_event) -> c_int;
    pub fn nxp_system_events_get_stats(c: *const nxp_system_events, out: *mut nxp_system_stats) -> c_int;
    pub fn nxp_system_events_error(c: *const nxp_system_events, st: *mut nxp_status) -> c_int;
    pub fn nxp_system_events_close(c: *mut nxp_system_events);
    pub fn nxp_system_event_group(name: *const c_char) -> u32;
    pub fn nxp_host_stats_open(out: *mut *mut nxp_host_stats, src: *mut nxp_source, kind: c_int,
                               opts: *const nxp_system_options, st: *mut nxp_status) -> c_int;
    pub fn nxp_host_stats_next_cpu(h: *mut nxp_host_stats, out: *mut nxp_cpu_usage) -> c_int;
    pub fn nxp_host_stats_next_mem(h: *mut nxp_host_stats, out: *mut nxp_host_mem_usage) -> c_int;
    pub fn nxp_host_stats_error(h: *const nxp_host_stats, st: *mut nxp_status) -> c_int;
    pub fn nxp_host_stats_close(h: *mut nxp_host_stats);
    pub fn nxp_trace_info_open(out: *mut *mut nxp_trace_info, src: *mut nxp_source, opts: *const nxp_system_options,
                               st: *mut nxp_status) -> c_int;
    pub fn nxp_trace_info_get(ti: *const nxp_trace_info, out: *mut nxp_system_metadata) -> c_int;
    pub fn nxp_trace_info_close(ti: *mut nxp_trace_info);
    pub fn nxp_clock_map_build(out: *mut *mut nxp_clock_map, events: *mut nxp_system_events, max_points: u32,
                               st: *mut nxp_status) -> c_int;
    pub fn nxp_clock_map_new(out: *mut *mut nxp_clock_map) -> c_int;
    pub fn nxp_clock_map_add(m: *mut nxp_clock_map, nc_idx: i64, device_ts: i64, host_ts: i64) -> c_int;
    pub fn nxp_clock_map_count(m: *const nxp_clock_map) -> usize;
    pub fn nxp_clock_map_to_host(m: *const nxp_clock_map, nc_idx: i64, device_ts: i64, host_ts: *mut i64) -> c_int;
    pub fn nxp_clock_map_close(m: *mut nxp_clock_map);
    pub fn nxp_capture_open(out: *mut *mut nxp_capture, dir: *const c_char, st: *mut nxp_status) -> c_int;
    pub fn nxp_capture_close(c: *mut nxp_capture);
    pub fn nxp_capture_file_count(c: *const nxp_capture) -> usize;
    pub fn nxp_capture_get_file(c: *const nxp_capture, index: usize, out: *mut nxp_capture_file) -> c_int;
    pub fn nxp_capture_process_count(c: *const nxp_capture) -> usize;
    pub fn nxp_capture_get_process(c: *const nxp_capture, index: usize, out: *mut nxp_capture_process) -> c_int;
    pub fn nxp_capture_profile_count(c: *const nxp_capture) -> usize;
    pub fn nxp_capture_get_profile(c: *const nxp_capture, index: usize, out: *mut nxp_capture_profile) -> c_int;
    pub fn nxp_capture_problem_count(c: *const nxp_capture) -> usize;
    pub fn nxp_capture_problem(c: *const nxp_capture, index: usize) -> *const c_char;
    pub fn nxp_capture_open_profile(c: *const nxp_capture, index: usize, opts: *const nxp_profile_options,
                                    out: *mut *mut nxp_profile, st: *mut nxp_status) -> c_int;
    pub fn nxp_capture_open_events(c: *const nxp_capture, process_index: i64, opts: *const nxp_system_options,
                                   out: *mut *mut nxp_system_events, st: *mut nxp_status) -> c_int;
    pub fn nxp_sysprof_writer_open(out: *mut *mut nxp_sysprof_writer, path: *const c_char, kind: c_int,
                                   opts: *const nxp_sysprof_writer_options, st: *mut nxp_status) -> c_int;
    pub fn nxp_sysprof_writer_string(w: *mut nxp_sysprof_writer, s: *const c_char) -> c_int;
    pub fn nxp_sysprof_writer_event(w: *mut nxp_sysprof_writer, ev: *const nxp_ntrace_event) -> c_int;
    pub fn nxp_sysprof_writer_cpu(w: *mut nxp_sysprof_writer, s: *const nxp_cpu_usage) -> c_int;
    pub fn nxp_sysprof_writer_mem(w: *mut nxp_sysprof_writer, s: *const nxp_host_mem_usage) -> c_int;
    pub fn nxp_sysprof_writer_finish(w: *mut nxp_sysprof_writer) -> c_int;
    pub fn nxp_sysprof_writer_close(w: *mut nxp_sysprof_writer);
    pub fn nxp_sysprof_writer_error(w: *const nxp_sysprof_writer, st: *mut nxp_status) -> c_int;
    pub fn nxp_trace_info_write(path: *const c_char, md: *const nxp_system_metadata, stream: c_int,
                                st: *mut nxp_status) -> c_int;
    pub fn nxp_trace_json_write(path: *const c_char, events: *const nxp_system_event, n: usize, base_time_ns: i64,
                                gzip: c_int, st: *mut nxp_status) -> c_int;
    // table.h (0.2)
    pub fn nxp_table_name(index: c_int) -> *const c_char;
    pub fn nxp_profile_open_table(out: *mut ArrowArrayStream, p: *mut nxp_profile, table: *const c_char,
                                  opts: *const nxp_table_options, st: *mut nxp_status) -> c_int;
    pub fn nxp_system_open_table(out: *mut ArrowArrayStream, path: *const c_char, table: *const c_char,
                                 opts: *const nxp_table_options, st: *mut nxp_status) -> c_int;
    pub fn nxp_parquet_write(path: *const c_char, input: *mut ArrowArrayStream, opts: *const nxp_parquet_options,
                             st: *mut nxp_status) -> c_int;
    pub fn nxp_profile_export_parquet(p: *mut nxp_profile, dir: *const c_char, opts: *const nxp_export_options,
                                      st: *mut nxp_status) -> c_int;
    pub fn nxp_system_export_parquet(path: *const c_char, dir: *const c_char, opts: *const nxp_export_options,
                                     st: *mut nxp_status) -> c_int;
}

// ------------------------------------------------------------------ nxp.h file kinds, timeline.h, analysis.h (0.2)
pub const NXP_FILE_UNKNOWN: c_int = 0;
pub const NXP_FILE_EMPTY: c_int = 1;
pub const NXP_FILE_DIRECTORY: c_int = 2;
pub const NXP_FILE_NEFF: c_int = 3;
pub const NXP_FILE_NTFF: c_int = 4;
pub const NXP_FILE_JSON: c_int = 5;
pub const NXP_FILE_JSON_GZIP: c_int = 6;
pub const NXP_FILE_GZIP: c_int = 7;
pub const NXP_FILE_PROTOBUF: c_int = 8;
pub const NXP_FILE_STREAM: c_int = 9;

pub const NXP_TIMELINE_PERFETTO: c_int = 0;
pub const NXP_TIMELINE_CHROME_JSON: c_int = 1;

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct nxp_timeline_options {
    pub struct_size: usize,
    pub format: i32,
    pub start_ts: i64,
    pub end_ts: i64,
    pub engine: i32,
    pub execution: i32,
    pub max_events: i64,
    pub counter_window_ns: i64,
    pub gzip: i32,
    pub overwrite: i32,
    pub system_primary_group: *const c_char,
    pub system_secondary_group: *const c_char,
    pub combined: i32,
    pub device_flows: i32,
}

impl Default for nxp_timeline_options {
    /// nxp_timeline_options_init()
    fn default() -> Self {
        nxp_timeline_options {
            struct_size: std::mem::size_of::<nxp_timeline_options>(),
            format: NXP_TIMELINE_PERFETTO,
            start_ts: i64::MIN,
            end_ts: i64::MAX,
            engine: -1,
            execution: -1,
            max_events: 0,
            counter_window_ns: 0,
            gzip: -1,
            overwrite: 0,
            system_primary_group: std::ptr::null(),
            system_secondary_group: std::ptr::null(),
            combined: 0,
            device_flows: 1,
        }
    }
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct nxp_timeline_stats {
    pub struct_size: usize,
    pub events: i64,
    pub tracks: i64,
    pub bytes: i64,
    pub truncated: i32,
    pub read_errors: i32,
    pub bad_records: i64,
    pub input_bytes: i64,
    pub skipped_sections: i64,
    pub flows: i64,
    pub unplaced_profiles: i64,
}

pub const NXP_FLOW_SEMAPHORE_WAIT: c_int = 1;
pub const NXP_FLOW_DMA_TRIGGER: c_int = 2;
pub const NXP_FLOW_DMA_COMPLETION: c_int = 3;
pub const NXP_FLOW_SEMAPHORE_SIGNAL: c_int = 4;
pub const NXP_FLOW_DEFAULT_WINDOW_NS: i64 = 100000000;
pub const NXP_FLOW_WAITED_ON: c_int = 1;
pub const NXP_FLOW_UNBLOCKED: c_int = 2;

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct nxp_flow {
    pub struct_size: usize,
    pub in_id: i64,
    pub out_id: i64,
    pub in_table: *const c_char,
    pub out_table: *const c_char,
    pub dependency_type: *const c_char,
    pub gap_time: i64,
    pub kind: i32,
    pub in_table_id: i32,
    pub out_table_id: i32,
    pub exact: i32,
    pub in_ts: i64,
    pub out_ts: i64,
    pub pcore_idx: i64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct nxp_flow_options {
    pub struct_size: usize,
    pub start_ts: i64,
    pub end_ts: i64,
    pub pcore_idx: i64,
    pub window_ns: i64,
}

impl Default for nxp_flow_options {
    /// nxp_flow_options_init()
    fn default() -> Self {
        nxp_flow_options {
            struct_size: std::mem::size_of::<nxp_flow_options>(),
            start_ts: i64::MIN,
            end_ts: i64::MAX,
            pcore_idx: -1,
            window_ns: 0,
        }
    }
}

#[repr(C)]
pub struct nxp_flow_cursor {
    _private: [u8; 0],
}
#[repr(C)]
pub struct nxp_critical_path {
    _private: [u8; 0],
}
#[repr(C)]
pub struct nxp_insights {
    _private: [u8; 0],
}
#[repr(C)]
pub struct nxp_comparison {
    _private: [u8; 0],
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct nxp_critical_path_options {
    pub struct_size: usize,
    pub execution_index: i32,
    pub pcore_idx: i64,
}

impl Default for nxp_critical_path_options {
    /// nxp_critical_path_options_init()
    fn default() -> Self {
        nxp_critical_path_options {
            struct_size: std::mem::size_of::<nxp_critical_path_options>(),
            execution_index: -1,
            pcore_idx: -1,
        }
    }
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct nxp_critical_step {
    pub struct_size: usize,
    pub table: i32,
    pub id: i64,
    pub start_ts: i64,
    pub end_ts: i64,
    pub resource: *const c_char,
    pub label: *const c_char,
    pub via: *const c_char,
    pub ns: i64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct nxp_critical_resource {
    pub struct_size: usize,
    pub resource: *const c_char,
    pub ns: i64,
    pub busy_ns: i64,
    pub slack_ns: i64,
}

pub const NXP_SEVERITY_INFO: c_int = 1;
pub const NXP_SEVERITY_WARNING: c_int = 2;
pub const NXP_SEVERITY_CRITICAL: c_int = 3;

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct nxp_insight_evidence {
    pub name: *const c_char,
    pub value: f64,
    pub unit: *const c_char,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct nxp_insight {
    pub struct_size: usize,
    pub rule: *const c_char,
    pub severity_level: i32,
    pub severity: *const c_char,
    pub message: *const c_char,
    pub recommendation: *const c_char,
    pub start_ts: i64,
    pub end_ts: i64,
    pub evidence: *const nxp_insight_evidence,
    pub evidence_count: usize,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct nxp_comparison_row {
    pub struct_size: usize,
    pub profile_index: i64,
    pub ntff_path: *const c_char,
    pub instance_id: *const c_char,
    pub process_id: i64,
    pub nc_idx: i64,
    pub total_ns: i64,
    pub gap_ns: i64,
    pub mfu_present: i32,
    pub mfu: f64,
    pub engine_active_ns: [i64; NXP_ENGINE_COUNT],
    pub dma_active_ns: i64,
    pub dma_bytes: i64,
    pub throttle_ns: i64,
    pub host_execute_count: i64,
    pub host_execute_total_ns: i64,
    pub host_execute_max_ns: i64,
    pub host_start_skew_ns: i64,
    pub explaining_figure: *const c_char,
    pub explaining_delta_ns: i64,
    pub status: i32,
}

extern "C" {
    // nxp.h (0.2)
    pub fn nxp_file_kind_detect(path: *const c_char, kind: *mut c_int, st: *mut nxp_status) -> c_int;
    pub fn nxp_file_kind_detect_buffer(head: *const c_void, len: usize, total_size: i64, kind: *mut c_int) -> c_int;
    pub fn nxp_file_kind_name(kind: c_int) -> *const c_char;
    // timeline.h (0.2)
    pub fn nxp_profile_export_timeline(p: *mut nxp_profile, path: *const c_char, opts: *const nxp_timeline_options,
                                       stats: *mut nxp_timeline_stats, st: *mut nxp_status) -> c_int;
    pub fn nxp_capture_export_timeline(dir: *const c_char, out_dir: *const c_char, opts: *const nxp_timeline_options,
                                       stats: *mut nxp_timeline_stats, st: *mut nxp_status) -> c_int;
    // analysis.h (0.2)
    pub fn nxp_flow_cursor_open(out: *mut *mut nxp_flow_cursor, p: *mut nxp_profile, opts: *const nxp_flow_options,
                                st: *mut nxp_status) -> c_int;
    pub fn nxp_flow_cursor_next(c: *mut nxp_flow_cursor, f: *mut nxp_flow) -> c_int;
    pub fn nxp_flow_cursor_error(c: *const nxp_flow_cursor, st: *mut nxp_status) -> c_int;
    pub fn nxp_flow_cursor_close(c: *mut nxp_flow_cursor);
    pub fn nxp_profile_flows_of(p: *mut nxp_profile, table: c_int, id: i64, direction: c_int, flows: *mut c_void,
                                flow_size: usize, max: usize, count: *mut usize, st: *mut nxp_status) -> c_int;
    pub fn nxp_profile_critical_path(p: *mut nxp_profile, opts: *const nxp_critical_path_options,
                                     out: *mut *mut nxp_critical_path, st: *mut nxp_status) -> c_int;
    pub fn nxp_critical_path_close(cp: *mut nxp_critical_path);
    pub fn nxp_critical_path_interval(cp: *const nxp_critical_path, start_ts: *mut i64, end_ts: *mut i64,
                                      total_ns: *mut i64) -> c_int;
    pub fn nxp_critical_path_step_count(cp: *const nxp_critical_path) -> usize;
    pub fn nxp_critical_path_get_step(cp: *const nxp_critical_path, index: usize, out: *mut nxp_critical_step)
                                      -> c_int;
    pub fn nxp_critical_path_resource_count(cp: *const nxp_critical_path) -> usize;
    pub fn nxp_critical_path_get_resource(cp: *const nxp_critical_path, index: usize,
                                          out: *mut nxp_critical_resource) -> c_int;
    pub fn nxp_profile_insights(p: *mut nxp_profile, hw: *const nxp_hardware, out: *mut *mut nxp_insights,
                                st: *mut nxp_status) -> c_int;
    pub fn nxp_insights_close(i: *mut nxp_insights);
    pub fn nxp_insights_count(i: *const nxp_insights) -> usize;
    pub fn nxp_insights_get(i: *const nxp_insights, index: usize, out: *mut nxp_insight) -> c_int;
    pub fn nxp_capture_compare(c: *const nxp_capture, hw: *const nxp_hardware, out: *mut *mut nxp_comparison,
                               st: *mut nxp_status) -> c_int;
    pub fn nxp_comparison_close(cmp: *mut nxp_comparison);
    pub fn nxp_comparison_count(cmp: *const nxp_comparison) -> usize;
    pub fn nxp_comparison_get(cmp: *const nxp_comparison, index: usize, out: *mut nxp_comparison_row) -> c_int;
    pub fn nxp_comparison_insights(cmp: *const nxp_comparison) -> *const nxp_insights;
}

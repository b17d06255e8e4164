# SPDX-License-Identifier: MIT
"""ctypes mirrors of the public structs and constants of include/nxp/*.h.

Every struct here is checked field by field (offset and size) against the C
compiler's view by tests/test_layout.py, through the abi_layout tool.
"""
import ctypes
from ctypes import (POINTER, Structure, c_char, c_char_p, c_double, c_float, c_int, c_int16, c_int32,
                    c_int64, c_size_t, c_uint8, c_uint16, c_uint32, c_uint64, c_void_p)

# ---------------------------------------------------------------- nxp.h
NXP_VERSION_MAJOR = 0
NXP_VERSION_MINOR = 2
NXP_VERSION_PATCH = 0
NXP_VERSION_NUMBER = NXP_VERSION_MAJOR * 10000 + NXP_VERSION_MINOR * 100 + NXP_VERSION_PATCH
NXP_STATUS_MESSAGE_MAX = 256

NXP_OK = 0
NXP_END = 1
NXP_E_INVAL = -1
NXP_E_NOMEM = -2
NXP_E_IO = -3
NXP_E_TRUNCATED = -4
NXP_E_FORMAT = -5
NXP_E_VERSION = -6
NXP_E_LIMIT = -7
NXP_E_HASH = -8
NXP_E_CRC = -9
NXP_E_MISMATCH = -10
NXP_E_NOT_FOUND = -11
NXP_E_UNSAFE_PATH = -12
NXP_E_JSON = -13
NXP_E_UNSUPPORTED = -14
NXP_E_COMPRESSION = -15
NXP_E_RANGE = -16
NXP_E_PROTOBUF = -17

INT64_MIN = -(1 << 63)
INT64_MAX = (1 << 63) - 1


class nxp_status(Structure):
    _fields_ = [("struct_size", c_size_t), ("code", c_int), ("offset", c_int64),
                ("message", c_char * NXP_STATUS_MESSAGE_MAX)]


READ_FN = ctypes.CFUNCTYPE(c_int64, c_void_p, c_void_p, c_size_t)
SEEK_FN = ctypes.CFUNCTYPE(c_int, c_void_p, c_uint64)
SIZE_FN = ctypes.CFUNCTYPE(c_int64, c_void_p)
CLOSE_FN = ctypes.CFUNCTYPE(None, c_void_p)


class nxp_source_callbacks(Structure):
    _fields_ = [("struct_size", c_size_t), ("read", READ_FN), ("seek", SEEK_FN), ("get_size", SIZE_FN),
                ("close", CLOSE_FN)]


# ---------------------------------------------------------------- neff.h
NXP_NEFF_HEADER_SIZE = 1024
NXP_NEFF_INSTRUCTION_SIZE = 64

NXP_ENGINE_TENSOR = 0
NXP_ENGINE_VECTOR = 1
NXP_ENGINE_SCALAR = 2
NXP_ENGINE_GPSIMD = 3
NXP_ENGINE_SYNC = 4
NXP_ENGINE_COUNT = 5

NXP_NEFF_VERIFY_HASH = 0x1

NXP_MEMORY_NONE = 0
NXP_MEMORY_SBUF = 1
NXP_MEMORY_PSUM = 2
NXP_MEMORY_HBM = 3

NXP_NEFF_WRITE_PLAIN_TAR = 0x1
NXP_NEFF_WRITE_DOT_SLASH = 0x2


class nxp_neff_options(Structure):
    _fields_ = [("struct_size", c_size_t), ("flags", c_uint32), ("max_member_size", c_uint64),
                ("max_total_inflated", c_uint64), ("max_inflation_ratio", c_uint32),
                ("max_json_size", c_uint64), ("max_json_depth", c_uint32), ("max_members", c_uint32)]


class nxp_neff_header(Structure):
    _fields_ = [("struct_size", c_size_t), ("pkg_version", c_uint64), ("header_size", c_uint64),
                ("data_size", c_uint64), ("neff_version_major", c_uint64), ("neff_version_minor", c_uint64),
                ("build_version", c_char * 129), ("num_tpb", c_uint32), ("hash", c_uint8 * 32),
                ("uuid", c_uint8 * 16), ("name", c_char * 257), ("requested_tpb_count", c_uint32),
                ("tpb_per_node", c_uint8 * 64), ("feature_bits", c_uint64), ("lnc_size", c_uint32),
                ("hash_verified", c_int32), ("payload_gzip", c_int32)]


class nxp_neff_subgraph(Structure):
    _fields_ = [("struct_size", c_size_t), ("name", c_char_p), ("definition", c_char_p),
                ("pcore_idx", c_int64), ("tensor_count", c_uint64), ("dma_queue_count", c_uint64),
                ("instruction_count", c_uint64 * NXP_ENGINE_COUNT)]


class nxp_tensor_info(Structure):
    _fields_ = [("struct_size", c_size_t), ("variable_name", c_char_p), ("type", c_char_p),
                ("format", c_char_p), ("shape", c_char_p), ("size", c_int64), ("node", c_int64),
                ("pcore_idx", c_int64), ("file_name", c_char_p)]


class nxp_dma_queue_info(Structure):
    _fields_ = [("struct_size", c_size_t), ("name", c_char_p), ("type", c_char_p), ("neff_type", c_char_p),
                ("owner", c_char_p), ("pcore_idx", c_int64), ("idx", c_int64), ("engine_idx", c_int64),
                ("axi_port", c_int64), ("dram_channel", c_int64)]


class nxp_access_pattern(Structure):
    _fields_ = [("address", c_uint64), ("addr_mode", c_uint8), ("memory", c_uint8), ("dtype", c_uint8),
                ("pad", c_uint8), ("step_elem", c_int16 * 3), ("num_elem", c_uint16 * 3)]


class nxp_neff_instruction(Structure):
    _fields_ = [("struct_size", c_size_t), ("pc", c_int64), ("engine", c_int32), ("pcore_idx", c_int64),
                ("opcode_num", c_uint32), ("opcode", c_char_p), ("operands", c_char_p),
                ("wait_mode", c_uint8), ("wait_idx", c_uint8), ("update_mode", c_uint8), ("update_idx", c_uint8),
                ("semaphore_value", c_uint32), ("src", nxp_access_pattern), ("dst", nxp_access_pattern),
                ("tensor_instruction_type", c_char_p), ("tensor_elements", c_int64), ("raw_flops", c_int64),
                ("adjusted_flops", c_int64), ("hbm_read_bytes", c_int64), ("hbm_write_bytes", c_int64),
                ("sbuf_read_bytes", c_int64), ("sbuf_write_bytes", c_int64), ("psum_read_bytes", c_int64),
                ("psum_write_bytes", c_int64), ("scalar_activation_fn", c_char_p),
                ("raw", c_uint8 * NXP_NEFF_INSTRUCTION_SIZE),
                ("inst_word_len", c_uint8), ("debug_cmd", c_uint8), ("debug_hint", c_uint8), ("flags", c_uint8),
                ("func", c_uint8), ("partitions", c_uint16), ("active_cols", c_uint16), ("aux", c_uint32),
                ("immediate", c_float), ("performance_mode", c_char_p),
                ("psum_read_sbuf_write_bytes", c_int64)]


NXP_NEFF_INSTRUCTION_MIN_SIZE = nxp_neff_instruction.raw.offset + NXP_NEFF_INSTRUCTION_SIZE


class nxp_neff_writer_options(Structure):
    _fields_ = [("struct_size", c_size_t), ("flags", c_uint32), ("pkg_version", c_uint64),
                ("neff_version_major", c_uint64), ("neff_version_minor", c_uint64),
                ("build_version", c_char_p), ("name", c_char_p), ("uuid", c_uint8 * 16), ("num_tpb", c_uint32),
                ("lnc_size", c_uint32), ("feature_bits", c_uint64)]


# ---------------------------------------------------------------- ntff.h
NXP_PROFILE_ALLOW_MISMATCH = 0x1
NXP_PROFILE_SKIP_CRC = 0x2

NXP_TABLE_INSTRUCTION = 1
NXP_TABLE_DMA_PACKET = 2
NXP_TABLE_SEMAPHORE_UPDATE = 3
NXP_TABLE_THROTTLE = 4
NXP_TABLE_ERROR = 5
NXP_TABLE_EXECUTION = 6
NXP_TABLE_ACTIVE_TIME = 7

NXP_INSTRUCTION_PC_UNKNOWN = 0x1

NXP_QUEUE_INSTRUCTION = 1
NXP_QUEUE_DMA = 2
NXP_QUEUE_SEMAPHORE = 3
NXP_QUEUE_THROTTLE = 4
NXP_QUEUE_ERROR = 5
NXP_QUEUE_EXECUTION = 6
NXP_QUEUE_TPB = 7

NXP_NTFF_WRITE_COMPRESS = 0x1
NXP_DMA_SOFTWARE_DYNAMIC = 0x1
NXP_DMA_HARDWARE_DYNAMIC = 0x2


class nxp_profile_options(Structure):
    _fields_ = [("struct_size", c_size_t), ("flags", c_uint32), ("neff", POINTER(nxp_neff_options)),
                ("max_section_size", c_uint64)]


class nxp_metadata(Structure):
    _fields_ = [("struct_size", c_size_t), ("profile_schema_version", c_char_p), ("ntff_version", c_int32),
                ("layout_version", c_int32), ("num_physical_cores", c_int32), ("vnc_enabled", c_int32),
                ("first_hw_timestamp", c_int64), ("last_hw_timestamp", c_int64), ("dma_ddr_bandwidth", c_double),
                ("num_dma_engines_per_neuroncore", c_int32), ("hbm_ddr_bandwidth", c_double),
                ("tensor_engine_num_rows", c_int64), ("tensor_engine_num_cols", c_int64),
                ("tensor_engine_clock_freq", c_double), ("vector_engine_clock_freq", c_double),
                ("vector_engine_num_channels", c_int64), ("scalar_engine_clock_freq", c_double),
                ("scalar_engine_num_channels", c_int64), ("gpsimd_engine_clock_freq", c_double),
                ("gpsimd_engine_num_channels", c_int64), ("neuroncore_clock_freq", c_double),
                ("ticks_per_nanosec", c_int64), ("arch", c_char_p), ("instance_type", c_char_p),
                ("runtime_version", c_char_p), ("collectives_version", c_char_p), ("driver_version", c_char_p),
                ("compiler_version", c_char_p), ("profile_name", c_char_p), ("neuroncore_idx", c_int64),
                ("neuron_device_idx", c_int64), ("capture_time_ns", c_int64), ("is_simulation", c_int32),
                ("neff_uuid", c_uint8 * 16), ("neff_hash", c_uint8 * 32), ("trace_count", c_int64),
                ("event_count", c_int64), ("tpb_start_ts", c_int64), ("tpb_stop_ts", c_int64),
                ("unknown_sections", c_int64), ("tpb_damaged", c_int64)]


class nxp_instruction(Structure):
    _fields_ = [("struct_size", c_size_t), ("start_ts", c_int64), ("end_ts", c_int64), ("duration_ns", c_int64),
                ("engine", c_char_p), ("engine_id", c_int32), ("pcore_idx", c_int64), ("opcode", c_char_p),
                ("opcode_num", c_uint32), ("operands", c_char_p), ("id", c_int64), ("pc", c_int64),
                ("evt_wait_time_ns", c_int64), ("execution_index", c_int32), ("hbm_read_bytes", c_int64),
                ("hbm_write_bytes", c_int64), ("sbuf_read_bytes", c_int64), ("sbuf_write_bytes", c_int64),
                ("spill_save_bytes", c_int64), ("spill_reload_bytes", c_int64), ("psum_read_bytes", c_int64),
                ("psum_write_bytes", c_int64), ("psum_read_sbuf_write_bytes", c_int64),
                ("tensor_instruction_type", c_char_p), ("tensor_elements", c_int64), ("raw_flops", c_int64),
                ("adjusted_flops", c_int64), ("tensor_elements_transpose", c_int64),
                ("flops_transpose", c_int64), ("adjusted_flops_transpose", c_int64),
                ("scalar_activation_fn", c_char_p), ("performance_mode", c_char_p), ("flags", c_uint32)]


class nxp_dma_packet(Structure):
    _fields_ = [("struct_size", c_size_t), ("start_ts", c_int64), ("end_ts", c_int64), ("duration_ns", c_int64),
                ("pcore_idx", c_int64), ("id", c_int64), ("packet_idx", c_int32),
                ("packet_aggregation_id", c_int64), ("engine_idx", c_int64), ("read_bytes", c_int64),
                ("write_bytes", c_int64), ("transfer_bytes", c_int64), ("throughput", c_double),
                ("queue_type", c_char_p), ("variable", c_char_p), ("queue_name", c_char_p), ("queue_idx", c_int64),
                ("crc", c_int64), ("execution_index", c_int32), ("source", c_char_p), ("dest", c_char_p)]


class nxp_semaphore_update(Structure):
    _fields_ = [("struct_size", c_size_t), ("timestamp", c_int64), ("id", c_char_p), ("semaphore_idx", c_int32),
                ("value", c_int32), ("update_source", c_char_p), ("double_set_or_clear", c_int32),
                ("update_mode", c_int32), ("update_operation_type", c_char_p),
                ("update_trigger_timing", c_char_p), ("pcore_idx", c_int64)]


class nxp_throttle(Structure):
    _fields_ = [("struct_size", c_size_t), ("timestamp", c_int64), ("duration", c_int64), ("k", c_int32),
                ("n", c_int32), ("type", c_char_p), ("pcore_idx", c_int64)]


class nxp_error_record(Structure):
    _fields_ = [("struct_size", c_size_t), ("timestamp", c_int64), ("type", c_char_p),
                ("error_type_id", c_int32), ("description", c_char_p), ("metadata", c_char_p),
                ("metadata_hex", c_char_p), ("pcore_idx", c_int64)]


class nxp_execution(Structure):
    _fields_ = [("struct_size", c_size_t), ("execution_index", c_int32), ("neff_name", c_char_p),
                ("execution_start_ts", c_int64), ("execution_end_ts", c_int64), ("num_subgraphs", c_int32),
                ("row_count", c_int64), ("pcore_idx", c_int64)]


class nxp_active_time(Structure):
    _fields_ = [("struct_size", c_size_t), ("start_ts", c_int64), ("end_ts", c_int64), ("duration_ns", c_int64),
                ("engine", c_char_p), ("engine_id", c_int32), ("pcore_idx", c_int64)]


class nxp_cursor_options(Structure):
    _fields_ = [("struct_size", c_size_t), ("start_ts", c_int64), ("end_ts", c_int64), ("engine", c_int32),
                ("pcore_idx", c_int64), ("queue_name", c_char_p)]


class nxp_cursor_stats(Structure):
    _fields_ = [("struct_size", c_size_t), ("records", c_int64), ("bad_records", c_int64),
                ("skipped_sections", c_int64), ("bytes_read", c_int64), ("last_bad_offset", c_int64),
                ("unknown_pcs", c_int64)]


class nxp_ntff_writer_options(Structure):
    _fields_ = [("struct_size", c_size_t), ("flags", c_uint32), ("records_per_section", c_uint32),
                ("compression_level", c_int32)]


class nxp_ntff_info(Structure):
    _fields_ = [("struct_size", c_size_t), ("neff_uuid", c_uint8 * 16), ("neff_hash", c_uint8 * 32),
                ("ntff_version", c_int32), ("ticks_per_nanosec", c_int64), ("num_physical_cores", c_int32),
                ("arch", c_char_p), ("instance_type", c_char_p), ("runtime_version", c_char_p),
                ("collectives_version", c_char_p), ("driver_version", c_char_p), ("compiler_version", c_char_p),
                ("profile_name", c_char_p), ("tensor_engine_clock_freq", c_double),
                ("vector_engine_clock_freq", c_double), ("scalar_engine_clock_freq", c_double),
                ("gpsimd_engine_clock_freq", c_double), ("neuroncore_clock_freq", c_double),
                ("tensor_engine_num_rows", c_int64), ("tensor_engine_num_cols", c_int64),
                ("vector_engine_num_channels", c_int64), ("scalar_engine_num_channels", c_int64),
                ("gpsimd_engine_num_channels", c_int64), ("num_dma_engines_per_neuroncore", c_int32),
                ("dma_ddr_bandwidth", c_double), ("hbm_ddr_bandwidth", c_double), ("neuroncore_idx", c_int64),
                ("neuron_device_idx", c_int64), ("capture_time_ns", c_int64), ("is_simulation", c_int32)]


class nxp_ntff_queue(Structure):
    _fields_ = [("struct_size", c_size_t), ("kind", c_int32), ("engine", c_int32), ("pcore_idx", c_int32),
                ("name", c_char_p), ("queue_idx", c_int32), ("engine_idx", c_int32)]


class nxp_ntff_instruction_note(Structure):
    _fields_ = [("start_tick", c_uint64), ("end_tick", c_uint64), ("pc", c_uint32), ("wait_ticks", c_uint32),
                ("execution_index", c_int32)]


class nxp_ntff_dma_note(Structure):
    _fields_ = [("start_tick", c_uint64), ("end_tick", c_uint64), ("packet_aggregation_id", c_uint32),
                ("packet_idx", c_uint32), ("read_bytes", c_uint32), ("write_bytes", c_uint32), ("crc", c_uint32),
                ("flags", c_uint16), ("source", c_uint8), ("dest", c_uint8), ("execution_index", c_int32),
                ("variable", c_uint32)]


class nxp_ntff_semaphore_note(Structure):
    _fields_ = [("tick", c_uint64), ("semaphore_idx", c_uint16), ("update_source", c_uint8),
                ("operation", c_uint8), ("value", c_int32), ("trigger_complete", c_uint8),
                ("double_set_or_clear", c_uint8), ("update_mode", c_uint8)]


class nxp_ntff_throttle_note(Structure):
    _fields_ = [("tick", c_uint64), ("duration_ticks", c_uint64), ("k", c_uint16), ("n", c_uint16),
                ("type", c_uint32)]


class nxp_ntff_error_note(Structure):
    _fields_ = [("tick", c_uint64), ("error_type_id", c_int32), ("type", c_uint8), ("description", c_uint32),
                ("metadata", c_uint64)]


class nxp_ntff_execution_note(Structure):
    _fields_ = [("start_tick", c_uint64), ("end_tick", c_uint64), ("execution_index", c_int32),
                ("num_subgraphs", c_int32), ("neff_name", c_uint32), ("row_count", c_int64)]


class nxp_ntff_tpb_note(Structure):
    _fields_ = [("tick", c_uint64), ("is_stop", c_uint8)]


# ---------------------------------------------------------------- summary.h
NXP_VALUE_INT = 1
NXP_VALUE_FLOAT = 2


class nxp_hardware(Structure):
    _fields_ = [("struct_size", c_size_t), ("arch", c_char * 16), ("tensor_engine_num_rows", c_int64),
                ("tensor_engine_num_cols", c_int64), ("tensor_engine_clock_freq", c_double),
                ("vector_engine_clock_freq", c_double), ("scalar_engine_clock_freq", c_double),
                ("gpsimd_engine_clock_freq", c_double), ("neuroncore_clock_freq", c_double),
                ("hbm_bandwidth", c_double), ("dma_ddr_bandwidth", c_double), ("fp8_flops_multiplier", c_double),
                ("num_physical_cores", c_int32)]


NXP_HARDWARE_MIN_SIZE = nxp_hardware.fp8_flops_multiplier.offset + ctypes.sizeof(c_double)


class nxp_summary_field(Structure):
    _fields_ = [("struct_size", c_size_t), ("name", c_char_p), ("unit", c_char_p), ("group", c_char_p),
                ("kind", c_int32), ("present", c_int32), ("i", c_int64), ("f", c_double),
                ("extension", c_int32), ("derived", c_int32)]


class nxp_opcode_summary(Structure):
    _fields_ = [("struct_size", c_size_t), ("engine", c_char_p), ("opcode", c_char_p),
                ("instruction_count", c_int64), ("instruction_time_ns", c_int64), ("active_time_ns", c_int64),
                ("active_time_percent", c_double)]


class nxp_throttle_summary(Structure):
    _fields_ = [("struct_size", c_size_t), ("nc_idx", c_int32), ("throttle_type", c_char_p),
                ("throttle_active_time_ns", c_int64), ("throttle_active_time_percent", c_double),
                ("max_achievable_util_with_throttling_percent", c_double)]


# ---------------------------------------------------------------- system.h
NXP_SYSFILE_AUTO = 0
NXP_SYSFILE_NTRACE = 1
NXP_SYSFILE_TRACE_INFO = 2
NXP_SYSFILE_CPU_UTIL = 3
NXP_SYSFILE_HOST_MEM = 4
NXP_SYSFILE_TRACE_JSON = 5
NXP_SYSFILE_NEFF = 6
NXP_SYSFILE_NTFF = 7

NXP_SYSTEM_NO_PAIRING = 0x1
NXP_SYSTEM_NO_PRESCAN = 0x2

NXP_SYSEV_UNMATCHED_START = 0x1
NXP_SYSEV_UNMATCHED_STOP = 0x2
NXP_SYSEV_HARDWARE = 0x4
NXP_SYSEV_SOFTWARE = 0x8
NXP_SYSEV_NO_BASE_TIME = 0x10
NXP_SYSEV_UNPAIRED = 0x20

NXP_PAIRED_NONE = 0
NXP_PAIRED_BY_UUID = 1
NXP_PAIRED_BY_NAME = 2
NXP_PAIRED_SOLE = 3

NXP_NTRACE_PHASE_NONE = 0
NXP_NTRACE_PHASE_START = 1
NXP_NTRACE_PHASE_STOP = 2
NXP_NTRACE_PHASE_INSTANT = 3


class nxp_system_options(Structure):
    _fields_ = [("struct_size", c_size_t), ("flags", c_uint32), ("max_message_size", c_uint64),
                ("max_json_event", c_uint64), ("max_json_depth", c_uint32), ("max_pending", c_uint32),
                ("instance_id", c_char_p)]


class nxp_system_event(Structure):
    _fields_ = [("struct_size", c_size_t), ("id", c_int64), ("name", c_char_p), ("start_ts", c_int64),
                ("end_ts", c_int64), ("duration_ns", c_int64), ("trace_event_source", c_char_p),
                ("instance_id", c_char_p), ("process_id", c_int64), ("thread_id", c_int64), ("nc_idx", c_int64),
                ("pcore_idx", c_int64), ("worker_gid", c_int64), ("flow_id", c_char_p),
                ("framework_stream_id", c_char_p), ("extra_attributes_json", c_char_p), ("flags", c_uint32),
                ("phase", c_char_p), ("category", c_char_p), ("pid", c_char_p), ("tid", c_char_p),
                ("process_name", c_char_p), ("thread_name", c_char_p), ("tracking_id", c_int64),
                ("nrta_seq_id", c_int64), ("nd_idx", c_int64), ("file", c_char_p), ("offset", c_int64)]


class nxp_system_stats(Structure):
    _fields_ = [("struct_size", c_size_t), ("events", c_int64), ("neuron_rt", c_int64), ("neuron_hw", c_int64),
                ("framework", c_int64), ("unmatched_starts", c_int64), ("unmatched_stops", c_int64),
                ("skipped", c_int64), ("files", c_int64), ("bytes_read", c_int64), ("base_time_ns", c_int64),
                ("peak_pending", c_int64)]


class nxp_cpu_usage(Structure):
    _fields_ = [("struct_size", c_size_t), ("timestamp", c_int64), ("util_percent", c_double),
                ("cpu_id", c_char_p), ("instance_id", c_char_p)]


class nxp_host_mem_usage(Structure):
    _fields_ = [("struct_size", c_size_t), ("timestamp", c_int64), ("used_bytes", c_int64),
                ("used_percent", c_double), ("instance_id", c_char_p), ("total_bytes", c_int64)]


class nxp_system_metadata(Structure):
    _fields_ = [("struct_size", c_size_t), ("first_ts", c_char_p), ("last_ts", c_char_p),
                ("first_ts_ns", c_int64), ("last_ts_ns", c_int64), ("ntff_version", c_int64),
                ("hbm_capacity_bytes", c_int64), ("instance_id", c_char_p), ("instance_type", c_char_p),
                ("arch", c_char_p), ("runtime_version", c_char_p), ("driver_version", c_char_p), ("pid", c_int64),
                ("session_id", c_int64), ("logical_nc_size", c_int64), ("num_neuron_cores", c_int64),
                ("data_version", c_int64)]


class nxp_capture_file(Structure):
    _fields_ = [("struct_size", c_size_t), ("path", c_char_p), ("kind", c_int32), ("size", c_int64),
                ("process_index", c_int64), ("name_hash", c_char_p), ("nc_idx", c_int64), ("vnc", c_int64),
                ("session", c_int64), ("instid", c_int64), ("has_uuid", c_int32), ("uuid", c_uint8 * 16)]


class nxp_capture_process(Structure):
    _fields_ = [("struct_size", c_size_t), ("dir", c_char_p), ("instance_id", c_char_p), ("pid", c_int64),
                ("timestamp", c_char_p), ("ntrace", c_int64), ("trace_info", c_int64), ("cpu_util", c_int64),
                ("host_mem", c_int64), ("trace_json", c_int64), ("complete", c_int32)]


class nxp_capture_profile(Structure):
    _fields_ = [("struct_size", c_size_t), ("neff", c_int64), ("ntff", c_int64), ("process_index", c_int64),
                ("pairing", c_int32), ("nc_idx", c_int64)]


class nxp_sysprof_writer_options(Structure):
    _fields_ = [("struct_size", c_size_t), ("stream", c_int32), ("chunk_events", c_uint32), ("arch", c_char_p),
                ("pid", c_int64), ("session_id", c_int64), ("data_version", c_int64),
                ("logical_nc_size", c_int64), ("instance_id", c_char_p)]


class nxp_ntrace_event(Structure):
    _fields_ = [("struct_size", c_size_t), ("timestamp", c_int64), ("name", c_char_p), ("phase", c_int32),
                ("duration", c_int64), ("nc_idx", c_int64), ("nd_idx", c_int64), ("thread_id", c_int64),
                ("id", c_int64), ("parent_id", c_int64), ("tracking_id", c_int64), ("nrta_seq_id", c_int64),
                ("data", c_int64), ("status", c_int64), ("event_type", c_int64),
                ("attributes", POINTER(c_char_p)), ("n_attributes", c_size_t)]


# ---------------------------------------------------------------- arrow.h, table.h
ARROW_FLAG_DICTIONARY_ORDERED = 1
ARROW_FLAG_NULLABLE = 2
ARROW_FLAG_MAP_KEYS_SORTED = 4


class ArrowSchema(Structure):
    pass


ArrowSchema._fields_ = [("format", c_char_p), ("name", c_char_p), ("metadata", c_void_p), ("flags", c_int64),
                        ("n_children", c_int64), ("children", POINTER(POINTER(ArrowSchema))),
                        ("dictionary", POINTER(ArrowSchema)),
                        ("release", ctypes.CFUNCTYPE(None, POINTER(ArrowSchema))), ("private_data", c_void_p)]


class ArrowArray(Structure):
    pass


ArrowArray._fields_ = [("length", c_int64), ("null_count", c_int64), ("offset", c_int64), ("n_buffers", c_int64),
                       ("n_children", c_int64), ("buffers", POINTER(c_void_p)),
                       ("children", POINTER(POINTER(ArrowArray))), ("dictionary", POINTER(ArrowArray)),
                       ("release", ctypes.CFUNCTYPE(None, POINTER(ArrowArray))), ("private_data", c_void_p)]


class ArrowArrayStream(Structure):
    pass


STREAM_GET_SCHEMA = ctypes.CFUNCTYPE(c_int, POINTER(ArrowArrayStream), POINTER(ArrowSchema))
STREAM_GET_NEXT = ctypes.CFUNCTYPE(c_int, POINTER(ArrowArrayStream), POINTER(ArrowArray))
STREAM_GET_LAST_ERROR = ctypes.CFUNCTYPE(c_void_p, POINTER(ArrowArrayStream))
STREAM_RELEASE = ctypes.CFUNCTYPE(None, POINTER(ArrowArrayStream))
ArrowArrayStream._fields_ = [("get_schema", STREAM_GET_SCHEMA), ("get_next", STREAM_GET_NEXT),
                             ("get_last_error", STREAM_GET_LAST_ERROR), ("release", STREAM_RELEASE),
                             ("private_data", c_void_p)]

NXP_PARQUET_ZSTD = 0
NXP_PARQUET_GZIP = 1
NXP_PARQUET_NONE = 2


class nxp_table_options(Structure):
    _fields_ = [("struct_size", c_size_t), ("columns", POINTER(c_char_p)), ("start_ts", c_int64),
                ("end_ts", c_int64), ("engine", c_int32), ("pcore_idx", c_int64), ("queue_name", c_char_p),
                ("batch_rows", c_int64)]


class nxp_parquet_options(Structure):
    _fields_ = [("struct_size", c_size_t), ("codec", c_int32), ("level", c_int32), ("row_group_bytes", c_int64),
                ("overwrite", c_int32), ("key_values", POINTER(c_char_p))]


EXPORT_PROGRESS_FN = ctypes.CFUNCTYPE(None, c_void_p, c_char_p, c_int, c_int)


class nxp_export_report(Structure):
    _fields_ = [("struct_size", c_size_t), ("skipped_records", c_int64), ("skipped_sections", c_int64),
                ("tables_written", c_int32)]


class nxp_export_options(Structure):
    _fields_ = [("struct_size", c_size_t), ("tables", POINTER(c_char_p)), ("codec", c_int32), ("level", c_int32),
                ("overwrite", c_int32), ("progress", EXPORT_PROGRESS_FN), ("progress_user", c_void_p),
                ("threads", c_int32), ("report", POINTER(nxp_export_report))]


# ---------------------------------------------------------------- nxp.h file kinds (0.2)
NXP_FILE_UNKNOWN = 0
NXP_FILE_EMPTY = 1
NXP_FILE_DIRECTORY = 2
NXP_FILE_NEFF = 3
NXP_FILE_NTFF = 4
NXP_FILE_JSON = 5
NXP_FILE_JSON_GZIP = 6
NXP_FILE_GZIP = 7
NXP_FILE_PROTOBUF = 8
NXP_FILE_STREAM = 9

# ---------------------------------------------------------------- timeline.h (0.2)
NXP_TIMELINE_PERFETTO = 0
NXP_TIMELINE_CHROME_JSON = 1


class nxp_timeline_options(Structure):
    _fields_ = [("struct_size", c_size_t), ("format", c_int32), ("start_ts", c_int64), ("end_ts", c_int64),
                ("engine", c_int32), ("execution", c_int32), ("max_events", c_int64),
                ("counter_window_ns", c_int64), ("gzip", c_int32), ("overwrite", c_int32),
                ("system_primary_group", c_char_p), ("system_secondary_group", c_char_p), ("combined", c_int32),
                ("device_flows", c_int32)]


class nxp_timeline_stats(Structure):
    _fields_ = [("struct_size", c_size_t), ("events", c_int64), ("tracks", c_int64), ("bytes", c_int64),
                ("truncated", c_int32), ("read_errors", c_int32), ("bad_records", c_int64),
                ("input_bytes", c_int64), ("skipped_sections", c_int64), ("flows", c_int64),
                ("unplaced_profiles", c_int64)]


# ---------------------------------------------------------------- analysis.h (0.2)
NXP_FLOW_SEMAPHORE_WAIT = 1
NXP_FLOW_DMA_TRIGGER = 2
NXP_FLOW_DMA_COMPLETION = 3
NXP_FLOW_SEMAPHORE_SIGNAL = 4
NXP_FLOW_DEFAULT_WINDOW_NS = 100000000
NXP_FLOW_WAITED_ON = 1
NXP_FLOW_UNBLOCKED = 2

NXP_SEVERITY_INFO = 1
NXP_SEVERITY_WARNING = 2
NXP_SEVERITY_CRITICAL = 3


class nxp_flow(Structure):
    _fields_ = [("struct_size", c_size_t), ("in_id", c_int64), ("out_id", c_int64), ("in_table", c_char_p),
                ("out_table", c_char_p), ("dependency_type", c_char_p), ("gap_time", c_int64), ("kind", c_int32),
                ("in_table_id", c_int32), ("out_table_id", c_int32), ("exact", c_int32), ("in_ts", c_int64),
                ("out_ts", c_int64), ("pcore_idx", c_int64)]


class nxp_flow_options(Structure):
    _fields_ = [("struct_size", c_size_t), ("start_ts", c_int64), ("end_ts", c_int64), ("pcore_idx", c_int64),
                ("window_ns", c_int64)]


class nxp_critical_path_options(Structure):
    _fields_ = [("struct_size", c_size_t), ("execution_index", c_int32), ("pcore_idx", c_int64)]


class nxp_critical_step(Structure):
    _fields_ = [("struct_size", c_size_t), ("table", c_int32), ("id", c_int64), ("start_ts", c_int64),
                ("end_ts", c_int64), ("resource", c_char_p), ("label", c_char_p), ("via", c_char_p),
                ("ns", c_int64)]


class nxp_critical_resource(Structure):
    _fields_ = [("struct_size", c_size_t), ("resource", c_char_p), ("ns", c_int64), ("busy_ns", c_int64),
                ("slack_ns", c_int64)]


class nxp_insight_evidence(Structure):
    _fields_ = [("name", c_char_p), ("value", c_double), ("unit", c_char_p)]


class nxp_insight(Structure):
    _fields_ = [("struct_size", c_size_t), ("rule", c_char_p), ("severity_level", c_int32), ("severity", c_char_p),
                ("message", c_char_p), ("recommendation", c_char_p), ("start_ts", c_int64), ("end_ts", c_int64),
                ("evidence", POINTER(nxp_insight_evidence)), ("evidence_count", c_size_t)]


class nxp_comparison_row(Structure):
    _fields_ = [("struct_size", c_size_t), ("profile_index", c_int64), ("ntff_path", c_char_p),
                ("instance_id", c_char_p), ("process_id", c_int64), ("nc_idx", c_int64), ("total_ns", c_int64),
                ("gap_ns", c_int64), ("mfu_present", c_int32), ("mfu", c_double),
                ("engine_active_ns", c_int64 * NXP_ENGINE_COUNT), ("dma_active_ns", c_int64),
                ("dma_bytes", c_int64), ("throttle_ns", c_int64), ("host_execute_count", c_int64),
                ("host_execute_total_ns", c_int64), ("host_execute_max_ns", c_int64),
                ("host_start_skew_ns", c_int64), ("explaining_figure", c_char_p),
                ("explaining_delta_ns", c_int64), ("status", c_int32)]


#: Every mirrored struct by its C name (the layout test walks this).
STRUCTS = {cls.__name__: cls for cls in (
    nxp_status, nxp_source_callbacks, nxp_neff_options, nxp_neff_header, nxp_neff_subgraph, nxp_tensor_info,
    nxp_dma_queue_info, nxp_access_pattern, nxp_neff_instruction, nxp_neff_writer_options,
    nxp_profile_options, nxp_metadata, nxp_instruction, nxp_dma_packet, nxp_semaphore_update, nxp_throttle,
    nxp_error_record, nxp_execution, nxp_active_time, nxp_cursor_options, nxp_cursor_stats,
    nxp_ntff_writer_options, nxp_ntff_info, nxp_ntff_queue, nxp_ntff_instruction_note, nxp_ntff_dma_note,
    nxp_ntff_semaphore_note, nxp_ntff_throttle_note, nxp_ntff_error_note, nxp_ntff_execution_note,
    nxp_ntff_tpb_note, nxp_hardware, nxp_summary_field, nxp_opcode_summary, nxp_throttle_summary,
    nxp_system_options, nxp_system_event, nxp_system_stats, nxp_cpu_usage, nxp_host_mem_usage, nxp_system_metadata,
    nxp_capture_file, nxp_capture_process, nxp_capture_profile, nxp_sysprof_writer_options, nxp_ntrace_event,
    ArrowSchema, ArrowArray, ArrowArrayStream, nxp_table_options, nxp_parquet_options, nxp_export_report, nxp_export_options,
    nxp_timeline_options, nxp_timeline_stats, nxp_flow, nxp_flow_options, nxp_critical_path_options,
    nxp_critical_step, nxp_critical_resource, nxp_insight_evidence, nxp_insight, nxp_comparison_row)}

#: Every public constant mirrored here, by its C name.
CONSTANTS = {k: v for k, v in globals().items() if k.startswith("NXP_") and isinstance(v, int)}


def new(cls, **values):
    """A struct with struct_size set (when it has one) and the given fields."""
    s = cls()
    if cls._fields_[0][0] == "struct_size":
        s.struct_size = ctypes.sizeof(cls)
    for k, v in values.items():
        setattr(s, k, v)
    return s

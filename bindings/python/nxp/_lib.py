# SPDX-License-Identifier: MIT
"""Locating libnxp and declaring the C functions the binding calls."""
import ctypes
import os
from ctypes import (POINTER, c_char_p, c_double, c_int, c_int32, c_int64, c_size_t, c_uint, c_uint32, c_uint64,
                    c_void_p)

from . import _structs as S

# The soname of the ABI this binding declares (libnxp 0.x).
SONAME = "libnxp.so.0"


def _load():
    """Load libnxp: $NXP_LIBRARY when set (a path; then the only candidate),
    else the system loader's libnxp.so.0 (ld.so.cache, LD_LIBRARY_PATH, the
    default directories).  Never a build tree found by guessing."""
    env = os.environ.get("NXP_LIBRARY")
    if env:
        # An explicit choice is final: never fall back silently to another copy.
        if not os.path.exists(env):
            raise ImportError(f"libnxp not found: NXP_LIBRARY={env!r} does not exist "
                              f"(set NXP_LIBRARY to the path of {SONAME}, or unset it to use the system loader)")
        try:
            return ctypes.CDLL(env), env
        except OSError as e:
            raise ImportError(f"libnxp could not be loaded from NXP_LIBRARY={env!r}: {e}") from e
    try:
        return ctypes.CDLL(SONAME), SONAME
    except OSError as e:
        raise ImportError(
            f"libnxp not found: the system loader cannot load {SONAME} ({e}). Install libnxp "
            f"(meson install; then ldconfig, or LD_LIBRARY_PATH=<prefix>/lib/<arch>), or set NXP_LIBRARY "
            f"to the path of {SONAME}") from e


def _loaded_path(lib, name):
    """The file the loader actually mapped for `lib` (dladdr), else `name`."""
    class DlInfo(ctypes.Structure):
        _fields_ = [("dli_fname", ctypes.c_char_p), ("dli_fbase", c_void_p), ("dli_sname", ctypes.c_char_p),
                    ("dli_saddr", c_void_p)]
    try:
        dladdr = ctypes.CDLL(None).dladdr
        dladdr.argtypes = [c_void_p, ctypes.POINTER(DlInfo)]
        dladdr.restype = c_int
        info = DlInfo()
        if dladdr(ctypes.cast(lib.nxp_version_string, c_void_p), ctypes.byref(info)) and info.dli_fname:
            return os.fsdecode(info.dli_fname)
    except (AttributeError, OSError):
        pass
    return name


lib, _name = _load()
# Which copy loaded: $NXP_LIBRARY as given, else the file the loader found.
path = _name if os.sep in _name else _loaded_path(lib, _name)

P = c_void_p  # opaque handles
ST = POINTER(S.nxp_status)

# name: (restype, argtypes)
_PROTOS = {
    "nxp_version_number": (c_uint, []),
    "nxp_version_string": (c_char_p, []),
    "nxp_strerror": (c_char_p, [c_int]),
    "nxp_source_open_path": (c_int, [POINTER(P), c_char_p, ST]),
    "nxp_source_open_memory": (c_int, [POINTER(P), c_void_p, c_size_t, ST]),
    "nxp_source_close": (None, [P]),
    # neff.h
    "nxp_engine_name": (c_char_p, [c_int]),
    "nxp_engine_short_name": (c_char_p, [c_int]),
    "nxp_engine_from_name": (c_int, [c_char_p]),
    "nxp_neff_parse_header": (c_int, [c_void_p, c_size_t, c_int64, POINTER(S.nxp_neff_header), ST]),
    "nxp_neff_open": (c_int, [POINTER(P), P, POINTER(S.nxp_neff_options), ST]),
    "nxp_neff_open_path": (c_int, [POINTER(P), c_char_p, POINTER(S.nxp_neff_options), ST]),
    "nxp_neff_close": (None, [P]),
    "nxp_neff_error": (c_int, [P, ST]),
    "nxp_neff_get_header": (c_int, [P, POINTER(S.nxp_neff_header)]),
    "nxp_neff_subgraph_count": (c_size_t, [P]),
    "nxp_neff_get_subgraph": (c_int, [P, c_size_t, POINTER(S.nxp_neff_subgraph)]),
    "nxp_neff_tensor_count": (c_size_t, [P]),
    "nxp_neff_get_tensor": (c_int, [P, c_size_t, POINTER(S.nxp_tensor_info)]),
    "nxp_neff_dma_queue_count": (c_size_t, [P]),
    "nxp_neff_get_dma_queue": (c_int, [P, c_size_t, POINTER(S.nxp_dma_queue_info)]),
    "nxp_dtype_name": (c_char_p, [c_int]),
    "nxp_neff_instruction_count": (c_int64, [P, c_size_t, c_int]),
    "nxp_neff_get_instruction": (c_int, [P, c_size_t, c_int, c_uint64, POINTER(S.nxp_neff_instruction)]),
    "nxp_instruction_decode": (c_int, [c_void_p, c_size_t, c_int, POINTER(S.nxp_neff_instruction), c_void_p,
                                       c_size_t]),
    "nxp_opcode_name": (c_char_p, [c_uint]),
    "nxp_neff_has_kernel_debug_info": (c_int, [P]),
    "nxp_neff_writer_open": (c_int, [POINTER(P), POINTER(S.nxp_neff_writer_options), ST]),
    "nxp_neff_writer_add": (c_int, [P, c_char_p, c_void_p, c_size_t]),
    "nxp_neff_writer_save": (c_int, [P, c_char_p]),
    "nxp_neff_writer_save_memory": (c_int, [P, POINTER(c_void_p), POINTER(c_size_t)]),
    "nxp_neff_writer_close": (None, [P]),
    "nxp_instruction_encode": (c_int, [POINTER(S.nxp_neff_instruction), ctypes.c_uint8 * 64]),
    # ntff.h
    "nxp_profile_open": (c_int, [POINTER(P), P, P, POINTER(S.nxp_profile_options), ST]),
    "nxp_profile_open_path": (c_int, [POINTER(P), c_char_p, c_char_p, POINTER(S.nxp_profile_options), ST]),
    "nxp_profile_close": (None, [P]),
    "nxp_profile_error": (c_int, [P, ST]),
    "nxp_profile_neff": (P, [P]),
    "nxp_profile_get_metadata": (c_int, [P, POINTER(S.nxp_metadata)]),
    "nxp_cursor_open": (c_int, [POINTER(P), P, c_int, POINTER(S.nxp_cursor_options), ST]),
    "nxp_cursor_close": (None, [P]),
    "nxp_cursor_error": (c_int, [P, ST]),
    "nxp_cursor_table": (c_int, [P]),
    "nxp_cursor_next_batch": (c_int, [P, c_void_p, c_size_t, c_size_t, POINTER(c_size_t)]),
    "nxp_cursor_seek": (c_int, [P, c_int64]),
    "nxp_cursor_position": (c_int64, [P]),
    "nxp_cursor_get_stats": (c_int, [P, POINTER(S.nxp_cursor_stats)]),
    "nxp_ntff_writer_open_path": (c_int, [POINTER(P), c_char_p, POINTER(S.nxp_ntff_info),
                                          POINTER(S.nxp_ntff_writer_options), ST]),
    "nxp_ntff_writer_string": (c_int64, [P, c_char_p]),
    "nxp_ntff_writer_add_queue": (c_int32, [P, POINTER(S.nxp_ntff_queue)]),
    "nxp_ntff_writer_instruction": (c_int, [P, c_int32, POINTER(S.nxp_ntff_instruction_note)]),
    "nxp_ntff_writer_dma": (c_int, [P, c_int32, POINTER(S.nxp_ntff_dma_note)]),
    "nxp_ntff_writer_semaphore": (c_int, [P, c_int32, POINTER(S.nxp_ntff_semaphore_note)]),
    "nxp_ntff_writer_throttle": (c_int, [P, c_int32, POINTER(S.nxp_ntff_throttle_note)]),
    "nxp_ntff_writer_error": (c_int, [P, c_int32, POINTER(S.nxp_ntff_error_note)]),
    "nxp_ntff_writer_execution": (c_int, [P, c_int32, POINTER(S.nxp_ntff_execution_note)]),
    "nxp_ntff_writer_tpb": (c_int, [P, c_int32, POINTER(S.nxp_ntff_tpb_note)]),
    "nxp_ntff_writer_finish": (c_int, [P]),
    "nxp_ntff_writer_close": (None, [P]),
    "nxp_ntff_writer_error_status": (c_int, [P, ST]),
    # summary.h
    "nxp_hardware_for_arch": (c_int, [c_char_p, POINTER(S.nxp_hardware)]),
    "nxp_hardware_max_ops": (c_double, [POINTER(S.nxp_hardware)]),
    "nxp_summary_new": (c_int, [POINTER(P)]),
    "nxp_summary_close": (None, [P]),
    "nxp_summary_field_count": (c_size_t, [P]),
    "nxp_summary_get_field": (c_int, [P, c_size_t, POINTER(S.nxp_summary_field)]),
    "nxp_summary_find": (c_int, [P, c_char_p, POINTER(S.nxp_summary_field)]),
    "nxp_summary_set": (c_int, [P, c_char_p, c_double]),
    "nxp_summary_unset": (c_int, [P, c_char_p]),
    "nxp_summary_derive": (c_int, [P, POINTER(S.nxp_hardware)]),
    "nxp_summary_opcode_count": (c_size_t, [P]),
    "nxp_summary_get_opcode": (c_int, [P, c_size_t, POINTER(S.nxp_opcode_summary)]),
    "nxp_summary_throttle_count": (c_size_t, [P]),
    "nxp_summary_get_throttle": (c_int, [P, c_size_t, POINTER(S.nxp_throttle_summary)]),
    "nxp_profile_summarize": (c_int, [P, POINTER(S.nxp_hardware), POINTER(P), ST]),
    # system.h
    "nxp_system_events_open": (c_int, [POINTER(P), P, c_int, POINTER(S.nxp_system_options), ST]),
    "nxp_system_events_open_path": (c_int, [POINTER(P), c_char_p, POINTER(S.nxp_system_options), ST]),
    "nxp_system_events_next": (c_int, [P, c_void_p]),
    "nxp_system_events_get_stats": (c_int, [P, POINTER(S.nxp_system_stats)]),
    "nxp_system_events_error": (c_int, [P, ST]),
    "nxp_system_events_close": (None, [P]),
    "nxp_system_event_group": (c_uint, [c_char_p]),
    "nxp_host_stats_open": (c_int, [POINTER(P), P, c_int, POINTER(S.nxp_system_options), ST]),
    "nxp_host_stats_next_cpu": (c_int, [P, c_void_p]),
    "nxp_host_stats_next_mem": (c_int, [P, c_void_p]),
    "nxp_host_stats_error": (c_int, [P, ST]),
    "nxp_host_stats_close": (None, [P]),
    "nxp_trace_info_open": (c_int, [POINTER(P), P, POINTER(S.nxp_system_options), ST]),
    "nxp_trace_info_get": (c_int, [P, POINTER(S.nxp_system_metadata)]),
    "nxp_trace_info_close": (None, [P]),
    "nxp_clock_map_build": (c_int, [POINTER(P), P, c_uint32, ST]),
    "nxp_clock_map_new": (c_int, [POINTER(P)]),
    "nxp_clock_map_add": (c_int, [P, c_int64, c_int64, c_int64]),
    "nxp_clock_map_count": (c_size_t, [P]),
    "nxp_clock_map_to_host": (c_int, [P, c_int64, c_int64, POINTER(c_int64)]),
    "nxp_clock_map_close": (None, [P]),
    "nxp_capture_open": (c_int, [POINTER(P), c_char_p, ST]),
    "nxp_capture_close": (None, [P]),
    "nxp_capture_file_count": (c_size_t, [P]),
    "nxp_capture_get_file": (c_int, [P, c_size_t, POINTER(S.nxp_capture_file)]),
    "nxp_capture_process_count": (c_size_t, [P]),
    "nxp_capture_get_process": (c_int, [P, c_size_t, POINTER(S.nxp_capture_process)]),
    "nxp_capture_profile_count": (c_size_t, [P]),
    "nxp_capture_get_profile": (c_int, [P, c_size_t, POINTER(S.nxp_capture_profile)]),
    "nxp_capture_problem_count": (c_size_t, [P]),
    "nxp_capture_problem": (c_char_p, [P, c_size_t]),
    "nxp_capture_open_profile": (c_int, [P, c_size_t, POINTER(S.nxp_profile_options), POINTER(P), ST]),
    "nxp_capture_open_events": (c_int, [P, c_int64, POINTER(S.nxp_system_options), POINTER(P), ST]),
    "nxp_sysprof_writer_open": (c_int, [POINTER(P), c_char_p, c_int, POINTER(S.nxp_sysprof_writer_options), ST]),
    "nxp_sysprof_writer_string": (c_int, [P, c_char_p]),
    "nxp_sysprof_writer_event": (c_int, [P, POINTER(S.nxp_ntrace_event)]),
    "nxp_sysprof_writer_cpu": (c_int, [P, POINTER(S.nxp_cpu_usage)]),
    "nxp_sysprof_writer_mem": (c_int, [P, POINTER(S.nxp_host_mem_usage)]),
    "nxp_sysprof_writer_finish": (c_int, [P]),
    "nxp_sysprof_writer_close": (None, [P]),
    "nxp_sysprof_writer_error": (c_int, [P, ST]),
    "nxp_trace_info_write": (c_int, [c_char_p, POINTER(S.nxp_system_metadata), c_int, ST]),
    "nxp_trace_json_write": (c_int, [c_char_p, POINTER(S.nxp_system_event), c_size_t, c_int64, c_int, ST]),
    # table.h (0.2)
    "nxp_table_name": (c_char_p, [c_int]),
    "nxp_profile_open_table": (c_int, [POINTER(S.ArrowArrayStream), P, c_char_p, POINTER(S.nxp_table_options), ST]),
    "nxp_system_open_table": (c_int, [POINTER(S.ArrowArrayStream), c_char_p, c_char_p,
                                      POINTER(S.nxp_table_options), ST]),
    "nxp_profile_export_parquet": (c_int, [P, c_char_p, POINTER(S.nxp_export_options), ST]),
    "nxp_system_export_parquet": (c_int, [c_char_p, c_char_p, POINTER(S.nxp_export_options), ST]),
    # nxp.h file kinds (0.2)
    "nxp_file_kind_detect": (c_int, [c_char_p, POINTER(c_int), ST]),
    "nxp_file_kind_detect_buffer": (c_int, [c_void_p, c_size_t, c_int64, POINTER(c_int)]),
    "nxp_file_kind_name": (c_char_p, [c_int]),
    # timeline.h (0.2)
    "nxp_profile_export_timeline": (c_int, [P, c_char_p, POINTER(S.nxp_timeline_options),
                                            POINTER(S.nxp_timeline_stats), ST]),
    "nxp_capture_export_timeline": (c_int, [c_char_p, c_char_p, POINTER(S.nxp_timeline_options),
                                            POINTER(S.nxp_timeline_stats), ST]),
    # analysis.h (0.2)
    "nxp_flow_cursor_open": (c_int, [POINTER(P), P, POINTER(S.nxp_flow_options), ST]),
    "nxp_flow_cursor_next": (c_int, [P, POINTER(S.nxp_flow)]),
    "nxp_flow_cursor_error": (c_int, [P, ST]),
    "nxp_flow_cursor_close": (None, [P]),
    "nxp_profile_flows_of": (c_int, [P, c_int, c_int64, c_int, c_void_p, c_size_t, c_size_t, POINTER(c_size_t),
                                     ST]),
    "nxp_profile_critical_path": (c_int, [P, POINTER(S.nxp_critical_path_options), POINTER(P), ST]),
    "nxp_critical_path_close": (None, [P]),
    "nxp_critical_path_interval": (c_int, [P, POINTER(c_int64), POINTER(c_int64), POINTER(c_int64)]),
    "nxp_critical_path_step_count": (c_size_t, [P]),
    "nxp_critical_path_get_step": (c_int, [P, c_size_t, POINTER(S.nxp_critical_step)]),
    "nxp_critical_path_resource_count": (c_size_t, [P]),
    "nxp_critical_path_get_resource": (c_int, [P, c_size_t, POINTER(S.nxp_critical_resource)]),
    "nxp_profile_insights": (c_int, [P, POINTER(S.nxp_hardware), POINTER(P), ST]),
    "nxp_insights_close": (None, [P]),
    "nxp_insights_count": (c_size_t, [P]),
    "nxp_insights_get": (c_int, [P, c_size_t, POINTER(S.nxp_insight)]),
    "nxp_capture_compare": (c_int, [P, POINTER(S.nxp_hardware), POINTER(P), ST]),
    "nxp_comparison_close": (None, [P]),
    "nxp_comparison_count": (c_size_t, [P]),
    "nxp_comparison_get": (c_int, [P, c_size_t, POINTER(S.nxp_comparison_row)]),
    "nxp_comparison_insights": (P, [P]),
}


class _Missing:
    """Stands in for a function this build of libnxp does not export."""

    def __init__(self, name):
        self.name = name

    def __call__(self, *args):
        from ._errors import raise_code
        raise_code(S.NXP_E_UNSUPPORTED, f"{self.name} is not exported by {path}")


class _Functions:
    pass


fn = _Functions()
missing = []
for _name, (_res, _args) in _PROTOS.items():
    try:
        _f = getattr(lib, _name)
    except AttributeError:
        missing.append(_name)
        setattr(fn, _name[4:], _Missing(_name))
        continue
    _f.restype = _res
    _f.argtypes = _args
    setattr(fn, _name[4:], _f)

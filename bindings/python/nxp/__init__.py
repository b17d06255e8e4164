# SPDX-License-Identifier: MIT
"""libnxp for Python: read AWS Neuron profiles (NEFF + NTFF, system profiles)
through ctypes.

    import nxp
    with nxp.Profile("model.neff", "model.ntff") as p:
        for ins in p.instructions(engine="tensor"):
            print(ins.start_ts, ins.opcode, ins.duration_ns)
        print(p.summary()["mfu_estimated_percent"])
    for ev in nxp.system_events("capture-dir"):    # ntrace.pb, trace.json[.gz]
        print(ev.start_ts, ev.name, ev.trace_event_source)

Standard library only.  The shared library is $NXP_LIBRARY when set (a path),
else libnxp.so.0 as the system loader finds it (an installed libnxp; see
LD_LIBRARY_PATH, ldconfig); nxp.library_path says which file loaded.  Errors
raise subclasses of nxp.Error carrying .code, .message and .offset (the byte
offset of the fault in the input, or -1); a missing, unreadable or wrong-kind
path raises an nxp.InputOutputError that is also FileNotFoundError,
PermissionError, IsADirectoryError or NotADirectoryError.
"""
__version__ = "0.2.0"  # this package; nxp.library_version is the loaded libnxp's

from . import _structs as constants
from ._errors import (ChecksumError, CompressionError, Error, FormatError, InputOutputError, InvalidArgumentError,
                      IsDirectoryError, JSONError, LimitError, MismatchError, NoMemoryError, NoSuchFileError,
                      NotDirectoryError, NotFoundError, PermissionDeniedError, ProtobufError, RangeError,
                      TruncatedError, UnsafePathError, UnsupportedError, VersionError)
from ._lib import fn as _fn
from ._lib import path as library_path
from ._neff import (AccessPattern, DmaQueueInfo, Engine, Neff, NeffInstruction, Subgraph, TensorInfo,
                    decode_instruction, parse_header)
from ._profile import (BATCH, ActiveTime, Cursor, DmaPacket, ErrorRecord, Execution, Instruction, Profile,
                       SemaphoreUpdate, Throttle)
from ._records import Record
from ._summary import derive_summary, hardware_for_arch, summary_fields
from ._system import (SYSFILE_KINDS, ClockMap, CpuUsage, HostMemUsage, HostStats, SystemEvent, SystemEvents, clock_map,
                      cpu_usage, host_mem_usage, system_event_group, system_events, trace_info)
from ._capture import PAIRINGS, Capture, CaptureFile, CaptureProcess, CaptureProfile
from ._syswriter import SysprofWriter, trace_info_write, trace_json_write
from ._writer import NeffWriter, NtffWriter, encode_instruction
from ._analysis import (INSIGHT_RULES, TIMELINE_FORMATS, Comparison, ComparisonRow, CriticalPath, CriticalResource,
                        CriticalStep, FileKind, Flow, FlowCursor, compare_capture, export_capture_timeline,
                        file_kind, file_kind_of_bytes)

ENGINES = ("tensor", "vector", "scalar", "gpsimd", "sync")


def version():
    """Run-time version string of the loaded libnxp."""
    return _fn.version_string().decode()


library_version = version()


def strerror(code):
    return _fn.strerror(code).decode()


def opcode_name(num):
    """Profiler display name of an opcode number, or None."""
    r = _fn.opcode_name(num)
    return None if r is None else r.decode()


__all__ = [
    "Neff", "Profile", "Cursor", "derive_summary", "hardware_for_arch", "summary_fields", "parse_header",
    "decode_instruction", "encode_instruction", "NeffWriter", "NtffWriter", "Record", "Instruction", "DmaPacket",
    "SemaphoreUpdate", "Throttle", "ErrorRecord", "Execution", "ActiveTime", "Subgraph", "TensorInfo",
    "DmaQueueInfo", "AccessPattern", "NeffInstruction", "Engine", "Error", "InvalidArgumentError",
    "NoMemoryError", "InputOutputError", "FormatError", "TruncatedError", "ChecksumError", "UnsafePathError",
    "JSONError", "CompressionError", "ProtobufError", "VersionError", "LimitError", "MismatchError",
    "NotFoundError", "UnsupportedError", "RangeError", "constants", "version", "strerror", "opcode_name",
    "library_path", "library_version", "ENGINES", "BATCH", "NoSuchFileError", "PermissionDeniedError",
    "IsDirectoryError", "NotDirectoryError",
    "SystemEvents", "SystemEvent", "system_events", "HostStats", "CpuUsage", "HostMemUsage", "cpu_usage",
    "host_mem_usage", "trace_info", "ClockMap", "clock_map", "system_event_group", "Capture", "CaptureFile",
    "CaptureProcess", "CaptureProfile", "PAIRINGS", "SYSFILE_KINDS", "SysprofWriter", "trace_info_write",
    "trace_json_write", "FileKind", "file_kind", "file_kind_of_bytes", "Flow", "FlowCursor", "CriticalPath",
    "CriticalStep", "CriticalResource", "Comparison", "ComparisonRow", "compare_capture", "export_capture_timeline", "INSIGHT_RULES",
    "TIMELINE_FORMATS",
]

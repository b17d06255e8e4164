# SPDX-License-Identifier: MIT
"""System-profile writers: ntrace.pb / cpu_util.pb / host_mem.pb, trace_info.pb
and trace.json[.gz], exactly as libnxp's readers accept them."""
import ctypes

from . import _structs as S
from ._errors import closed, raise_code, raise_status
from ._lib import fn
from ._records import Record
from ._system import kind_arg
from ._util import fspath, status

PHASES = {"none": S.NXP_NTRACE_PHASE_NONE, "start": S.NXP_NTRACE_PHASE_START, "stop": S.NXP_NTRACE_PHASE_STOP,
          "instant": S.NXP_NTRACE_PHASE_INSTANT}

_EVENT_INTS = ("timestamp", "duration", "nc_idx", "nd_idx", "thread_id", "id", "parent_id", "tracking_id",
               "nrta_seq_id", "data", "status", "event_type")


def _text(v, what, keep):
    """A str (or None) as char* for C; the bytes go into `keep`."""
    if v is None:
        return None
    if not isinstance(v, str):
        raise TypeError(f"{what} must be a str or None, not {type(v).__name__}")
    b = v.encode()
    if b"\0" in b:
        raise ValueError(f"{what} contains a NUL byte")
    keep.append(b)
    return b


def _num(v, what, kind=int):
    if isinstance(v, bool) or not isinstance(v, (int, float) if kind is float else int):
        raise TypeError(f"{what} must be {'a number' if kind is float else 'an int'}")
    return v


def _set_struct(s, fields, keep, what):
    """Set the fields of ctypes struct `s` from a dict (unknown names: TypeError)."""
    types = dict(s._fields_)
    for k, v in fields.items():
        if k == "struct_size" or k not in types:
            raise TypeError(f"unknown {what} field {k!r}")
        t = types[k]
        if t is ctypes.c_char_p:
            setattr(s, k, _text(v, k, keep))
        elif t is ctypes.c_double:
            setattr(s, k, _num(v, k, float))
        else:
            setattr(s, k, _num(v, k))


class SysprofWriter:
    """Write an ntrace.pb (`kind` "ntrace"), cpu_util.pb ("cpu_util") or
    host_mem.pb ("host_mem").  stream=True writes length-delimited root messages
    of `chunk_events` events each; the root fields (arch, pid, session_id,
    data_version, logical_nc_size, instance_id) are optional.  As a context
    manager it finishes the file on a clean exit."""

    def __init__(self, path, kind, stream=False, chunk_events=0, arch=None, pid=-1, session_id=-1,
                 data_version=-1, logical_nc_size=-1, instance_id=None):
        self._h = None
        keep = []
        k = kind_arg(kind, ("ntrace", "cpu_util", "host_mem"))
        o = S.new(S.nxp_sysprof_writer_options, stream=1 if stream else 0)
        _set_struct(o, {"chunk_events": chunk_events, "arch": arch, "pid": pid, "session_id": session_id,
                        "data_version": data_version, "logical_nc_size": logical_nc_size,
                        "instance_id": instance_id}, keep, "writer option")
        h = ctypes.c_void_p()
        st = status()
        path = fspath(path, "path")
        rc = fn.sysprof_writer_open(ctypes.byref(h), path, k, ctypes.byref(o), ctypes.byref(st))
        if rc < 0:
            raise_status(rc, st, [(path, "write")])
        self._h = h
        # libnxp reads arch and instance_id again at the first event (it keeps
        # the pointers, not copies): they must live as long as the writer.
        self._keep = keep
        self._ev = S.nxp_ntrace_event()

    def _handle(self):
        if self._h is None:
            raise closed("system-profile writer")
        return self._h

    def _check(self, rc):
        if rc < 0:
            st = status()
            fn.sysprof_writer_error(self._h, ctypes.byref(st))
            if st.code < 0:
                raise_status(rc, st)
            raise_code(rc)

    def string(self, s):
        """Append to the ntrace string pool (event_type indexes it); only before the first event."""
        keep = []
        self._check(fn.sysprof_writer_string(self._handle(), _text(s, "string", keep)))

    def event(self, name=None, phase="none", attributes=None, **fields):
        """Append one ntrace event: `name` (written as hint), `phase` ("start",
        "stop", "instant", "none" or a number), `attributes` (a dict or pairs of
        str), and any of timestamp, duration, nc_idx, nd_idx, thread_id, id,
        parent_id, tracking_id, nrta_seq_id, data, status, event_type (absent:
        -1, timestamp 0)."""
        h = self._handle()
        keep = []
        e = self._ev
        ctypes.memset(ctypes.byref(e), 0, ctypes.sizeof(e))
        e.struct_size = ctypes.sizeof(e)
        for k in _EVENT_INTS:
            setattr(e, k, 0 if k == "timestamp" else -1)
        for k, v in fields.items():
            if k not in _EVENT_INTS:
                raise TypeError(f"unknown ntrace event field {k!r}")
            setattr(e, k, _num(v, k))
        e.name = _text(name, "name", keep)
        e.phase = PHASES[phase] if isinstance(phase, str) and phase in PHASES else _num(phase, "phase")
        arr = None
        if attributes:
            pairs = list(attributes.items()) if isinstance(attributes, dict) else list(attributes)
            arr = (ctypes.c_char_p * (2 * len(pairs)))()
            for i, (k, v) in enumerate(pairs):
                arr[2 * i] = _text(k, "attribute key", keep)
                arr[2 * i + 1] = _text(v, "attribute value", keep)
            e.attributes = ctypes.cast(arr, ctypes.POINTER(ctypes.c_char_p))
            e.n_attributes = len(pairs)
        self._check(fn.sysprof_writer_event(h, ctypes.byref(e)))

    def cpu(self, timestamp, util_percent, cpu_id):
        """Append a CpuUsage sample (cpu_id: "0", "1", ... or "average")."""
        keep = []
        s = S.new(S.nxp_cpu_usage)
        _set_struct(s, {"timestamp": timestamp, "util_percent": util_percent, "cpu_id": cpu_id}, keep, "sample")
        self._check(fn.sysprof_writer_cpu(self._handle(), ctypes.byref(s)))

    def mem(self, timestamp, used_bytes, used_percent, total_bytes=-1):
        """Append a HostMemUsage sample (total_bytes < 0: absent)."""
        s = S.new(S.nxp_host_mem_usage)
        _set_struct(s, {"timestamp": timestamp, "used_bytes": used_bytes, "used_percent": used_percent,
                        "total_bytes": total_bytes}, [], "sample")
        self._check(fn.sysprof_writer_mem(self._handle(), ctypes.byref(s)))

    def finish(self):
        self._check(fn.sysprof_writer_finish(self._handle()))

    def close(self):
        h, self._h = self._h, None
        if h is not None:
            fn.sysprof_writer_close(h)

    def __enter__(self):
        return self

    def __exit__(self, exc_type, *exc):
        try:
            if exc_type is None and self._h is not None:
                self.finish()
        finally:
            self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


def trace_info_write(path, stream=False, **metadata):
    """Write a trace_info.pb from nxp_system_metadata fields (integers left out
    are absent, as are strings left out or None; first_ts/last_ts derive from
    the _ns fields)."""
    keep = []
    md = S.new(S.nxp_system_metadata)
    for k, t in S.nxp_system_metadata._fields_:
        if t is ctypes.c_int64:
            setattr(md, k, -1)
    _set_struct(md, metadata, keep, "metadata")
    st = status()
    path = fspath(path, "path")
    rc = fn.trace_info_write(path, ctypes.byref(md), 1 if stream else 0, ctypes.byref(st))
    if rc < 0:
        raise_status(rc, st, [(path, "write")])


def trace_json_write(path, events, base_time_ns=0, gzip=False):
    """Write a Chrome-trace trace.json (gzip=True: .gz) of `events`: dicts with
    nxp_system_event field names (phase, name, pid, tid, start_ts, end_ts,
    category, flow_id, extra_attributes_json written as args, ...) or
    SystemEvent records.  Times are ns; written relative to base_time_ns, which
    goes into Kineto's baseTimeNanoseconds when non-zero."""
    events = list(events)
    keep = []
    arr = (S.nxp_system_event * max(1, len(events)))()
    for i, ev in enumerate(events):
        if isinstance(ev, Record):
            ev = ev._asdict()
        if not isinstance(ev, dict):
            raise TypeError("events must be dicts or SystemEvent records")
        arr[i].struct_size = ctypes.sizeof(S.nxp_system_event)
        _set_struct(arr[i], ev, keep, "system event")
    st = status()
    path = fspath(path, "path")
    rc = fn.trace_json_write(path, arr, len(events), _num(base_time_ns, "base_time_ns"), 1 if gzip else 0,
                             ctypes.byref(st))
    if rc < 0:
        raise_status(rc, st, [(path, "write")])

# SPDX-License-Identifier: MIT
"""File kinds (nxp.h), timeline export (timeline.h) and analysis (analysis.h):
dependency flows, the critical path, insights and the rank comparison of a
capture.  Every figure comes from libnxp; strings are copied out of C at once,
so the results stay valid after the profile or capture is closed."""
import collections
import ctypes
import enum

from . import _structs as S
from ._errors import closed, raise_code, raise_status
from ._lib import fn
from ._util import engine_arg, fspath, status, text, ts_arg

# ------------------------------------------------------------------ file kinds


class FileKind(str, enum.Enum):
    """What a file holds (nxp_file_kind).  A member is the kind's short name
    as a str ("neff" == FileKind.NEFF); `.code` is the C number and
    `.description` libnxp's noun phrase ("a NEFF", "an NTFF trace", ...)."""
    UNKNOWN = "unknown"
    EMPTY = "empty"
    DIRECTORY = "directory"
    NEFF = "neff"
    NTFF = "ntff"
    JSON = "json"
    JSON_GZIP = "json_gzip"
    GZIP = "gzip"
    PROTOBUF = "protobuf"
    STREAM = "stream"

    def __str__(self):
        return self.value

    @property
    def code(self):
        return getattr(S, "NXP_FILE_" + self.name)

    @property
    def description(self):
        return text(fn.file_kind_name(self.code))

    @classmethod
    def from_code(cls, code):
        for k in cls:
            if k.code == code:
                return k
        return cls.UNKNOWN


def file_kind(path):
    """The FileKind of the file at `path`, decided from its first bytes (never
    its name).  A missing or unreadable path raises NoSuchFileError /
    PermissionDeniedError (also FileNotFoundError / PermissionError)."""
    p = fspath(path, "path")
    kind = ctypes.c_int()
    st = status()
    rc = fn.file_kind_detect(p, ctypes.byref(kind), ctypes.byref(st))
    if rc < 0:
        raise_status(rc, st, [(p, "any")])
    return FileKind.from_code(kind.value)


def file_kind_of_bytes(data, total_size=None):
    """The FileKind of bytes in memory: `data` is the start of the input (4 KiB
    is enough), `total_size` the whole input's size (None: len(data), i.e.
    `data` is the whole input)."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError("data must be bytes-like")
    data = bytes(data)
    kind = ctypes.c_int()
    total = len(data) if total_size is None else total_size
    rc = fn.file_kind_detect_buffer(data, len(data), total, ctypes.byref(kind))
    if rc < 0:
        raise_code(rc)
    return FileKind.from_code(kind.value)


# ------------------------------------------------------------------ timeline

TIMELINE_FORMATS = {"perfetto": S.NXP_TIMELINE_PERFETTO, "chrome-json": S.NXP_TIMELINE_CHROME_JSON}


def export_timeline(profile, path, format="perfetto", start_ts=None, end_ts=None, engine=None, execution=None,
                    max_events=None, overwrite=False, gzip=None, counter_window_ns=None, device_flows=True):
    fmt = TIMELINE_FORMATS.get(format.replace("_", "-") if isinstance(format, str) else format)
    if fmt is None:
        raise_code(S.NXP_E_INVAL, f"unknown timeline format {format!r} (one of {', '.join(TIMELINE_FORMATS)})")
    o = S.new(S.nxp_timeline_options, format=fmt)
    o.device_flows = 1 if device_flows else 0   # C default 1 (nxp_timeline_options_init)
    o.start_ts = ts_arg(start_ts, S.INT64_MIN, "start_ts")
    o.end_ts = ts_arg(end_ts, S.INT64_MAX, "end_ts")
    o.engine = engine_arg(engine)
    o.execution = -1 if execution is None else _int(execution, "execution")
    o.max_events = 0 if max_events is None else _int(max_events, "max_events")
    o.counter_window_ns = 0 if counter_window_ns is None else _int(counter_window_ns, "counter_window_ns")
    o.gzip = -1 if gzip is None else (1 if gzip else 0)
    o.overwrite = 1 if overwrite else 0
    p = fspath(path, "path")
    stats = S.new(S.nxp_timeline_stats)
    st = status()
    rc = fn.profile_export_timeline(profile._handle(), p, ctypes.byref(o), ctypes.byref(stats), ctypes.byref(st))
    if rc < 0:
        if st.code == S.NXP_E_IO or rc == S.NXP_E_IO:
            raise_status(rc, st, [(p, "write")])
        raise_status(rc, st)
    return {f: getattr(stats, f) for f, _ in S.nxp_timeline_stats._fields_ if f != "struct_size"}


def export_capture_timeline(capture_dir, out_dir, combined=False, primary_group=None, secondary_group=None,
                            max_events=None, counter_window_ns=None, overwrite=False, device_flows=True):
    """Write a capture directory as Perfetto traces into `out_dir`
    (nxp_capture_export_timeline): device_profile_<NTFF name>.pftrace per
    device profile, system_profile.pftrace, and with combined=True
    combined_profile.pftrace (device activity on host time next to the
    nrt_execute that launched it).  primary_group / secondary_group: the
    system rows' grouping, comma-separated field names or a list of them
    (None = "instance_id,process_id" / "worker_gid,lnc_idx,thread_id").
    device_flows: the semaphore flow arrows of the device content.
    Returns the summed nxp_timeline_stats as a dict (events, tracks, bytes,
    flows, unplaced_profiles, ...)."""
    o = S.new(S.nxp_timeline_options, format=S.NXP_TIMELINE_PERFETTO)
    o.start_ts, o.end_ts, o.engine, o.execution, o.gzip = S.INT64_MIN, S.INT64_MAX, -1, -1, -1
    o.max_events = 0 if max_events is None else _int(max_events, "max_events")
    o.counter_window_ns = 0 if counter_window_ns is None else _int(counter_window_ns, "counter_window_ns")
    o.overwrite = 1 if overwrite else 0
    o.combined = 1 if combined else 0
    o.device_flows = 1 if device_flows else 0
    for attr, v in (("system_primary_group", primary_group), ("system_secondary_group", secondary_group)):
        if v is None:
            continue
        if not isinstance(v, str):
            v = ",".join(v)
        if "\0" in v:
            raise ValueError(f"{attr}: contains a NUL character")
        setattr(o, attr, v.encode())
    d, out = fspath(capture_dir, "capture_dir"), fspath(out_dir, "out_dir")
    stats = S.new(S.nxp_timeline_stats)
    st = status()
    rc = fn.capture_export_timeline(d, out, ctypes.byref(o), ctypes.byref(stats), ctypes.byref(st))
    if rc < 0:
        raise_status(rc, st)
    return {f: getattr(stats, f) for f, _ in S.nxp_timeline_stats._fields_ if f != "struct_size"}


def _int(v, what):
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError(f"{what} must be an int or None")
    return v


# ------------------------------------------------------------------ flows

Flow = collections.namedtuple("Flow", [f for f, _ in S.nxp_flow._fields_ if f != "struct_size"])
Flow.__doc__ = "A Flow row (nxp_flow): an edge from record in_id of in_table to out_id of out_table."

_TABLE_IDS = {"Instruction": S.NXP_TABLE_INSTRUCTION, "DmaPacket": S.NXP_TABLE_DMA_PACKET,
              "SemaphoreUpdate": S.NXP_TABLE_SEMAPHORE_UPDATE}
TABLE_NAMES = {v: k for k, v in _TABLE_IDS.items()}
_DIRECTIONS = {"waited_on": S.NXP_FLOW_WAITED_ON, "unblocked": S.NXP_FLOW_UNBLOCKED}


def _flow(f):
    return Flow(*[text(getattr(f, n)) if isinstance(getattr(f, n), bytes) or getattr(f, n) is None
                  else getattr(f, n) for n in Flow._fields])


class FlowCursor:
    """Iterator over a profile's dependency edges (nxp_flow_cursor): Flow rows
    in time order up to the window.  Closing the profile closes it."""

    def __init__(self, profile, start=None, end=None, pcore=None, window_ns=None):
        self._h = None
        self._profile = profile
        o = S.new(S.nxp_flow_options)
        o.start_ts = ts_arg(start, S.INT64_MIN, "start")
        o.end_ts = ts_arg(end, S.INT64_MAX, "end")
        o.pcore_idx = -1 if pcore is None else _int(pcore, "pcore")
        o.window_ns = 0 if window_ns is None else _int(window_ns, "window_ns")
        h = ctypes.c_void_p()
        st = status()
        rc = fn.flow_cursor_open(ctypes.byref(h), profile._handle(), ctypes.byref(o), ctypes.byref(st))
        if rc < 0:
            raise_status(rc, st)
        self._h = h
        profile._cursors.add(self)

    def __iter__(self):
        return self

    def __next__(self):
        if self._h is None:
            raise closed("flow cursor")
        f = S.new(S.nxp_flow)
        rc = fn.flow_cursor_next(self._h, ctypes.byref(f))
        if rc == S.NXP_END:
            raise StopIteration
        if rc < 0:
            st = status()
            fn.flow_cursor_error(self._h, ctypes.byref(st))
            raise_status(rc, st)
        return _flow(f)

    @property
    def closed(self):
        return self._h is None

    def close(self):
        h, self._h = self._h, None
        if h is not None:
            fn.flow_cursor_close(h)
            if self._profile is not None:
                self._profile._cursors.discard(self)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


def flows_of(profile, table, record_id, direction="waited_on"):
    """The Flow edges into (direction "waited_on") or out of ("unblocked")
    record `record_id` of `table` ("Instruction", "DmaPacket",
    "SemaphoreUpdate" or its nxp_table number)."""
    t = _TABLE_IDS.get(table, table)
    if isinstance(t, bool) or not isinstance(t, int):
        raise_code(S.NXP_E_INVAL, f"unknown table {table!r} (Instruction, DmaPacket or SemaphoreUpdate)")
    d = _DIRECTIONS.get(direction)
    if d is None:
        raise_code(S.NXP_E_INVAL, f"direction must be 'waited_on' or 'unblocked', not {direction!r}")
    _int(record_id, "record_id")
    h = profile._handle()
    size = ctypes.sizeof(S.nxp_flow)
    cap = 16
    while True:
        arr = (S.nxp_flow * cap)()
        count = ctypes.c_size_t()
        st = status()
        rc = fn.profile_flows_of(h, t, record_id, d, arr, size, cap, ctypes.byref(count), ctypes.byref(st))
        if rc < 0:
            raise_status(rc, st)
        if count.value <= cap:
            return [_flow(arr[i]) for i in range(count.value)]
        cap = count.value


# ------------------------------------------------------------------ critical path

CriticalStep = collections.namedtuple("CriticalStep", ["table", "table_name", "id", "start_ts", "end_ts", "resource",
                                                       "label", "via", "ns"])
CriticalResource = collections.namedtuple("CriticalResource", ["resource", "ns", "busy_ns", "slack_ns"])


class CriticalPath:
    """The critical path of an interval: start_ts, end_ts, total_ns; `path`
    (CriticalStep rows in path order: end_ts never decreases); `resources` (CriticalResource rows,
    largest first) and `breakdown` ((resource, ns) pairs; they sum to
    total_ns)."""

    __slots__ = ("start_ts", "end_ts", "total_ns", "path", "resources")

    def __init__(self, start_ts, end_ts, total_ns, path, resources):
        self.start_ts, self.end_ts, self.total_ns = start_ts, end_ts, total_ns
        self.path, self.resources = path, resources

    @property
    def breakdown(self):
        return [(r.resource, r.ns) for r in self.resources]

    def to_dict(self):
        return {"start_ts": self.start_ts, "end_ts": self.end_ts, "total_ns": self.total_ns,
                "breakdown": [r._asdict() for r in self.resources], "path": [s._asdict() for s in self.path]}

    def __repr__(self):
        return f"<nxp.CriticalPath {self.total_ns} ns, {len(self.path)} steps, {len(self.resources)} resources>"


def critical_path(profile, execution=None, pcore=None):
    o = S.new(S.nxp_critical_path_options)
    o.execution_index = -1 if execution is None else _int(execution, "execution")
    o.pcore_idx = -1 if pcore is None else _int(pcore, "pcore")
    cp = ctypes.c_void_p()
    st = status()
    rc = fn.profile_critical_path(profile._handle(), ctypes.byref(o), ctypes.byref(cp), ctypes.byref(st))
    if rc < 0:
        raise_status(rc, st)
    try:
        a, b, t = ctypes.c_int64(), ctypes.c_int64(), ctypes.c_int64()
        rc = fn.critical_path_interval(cp, ctypes.byref(a), ctypes.byref(b), ctypes.byref(t))
        if rc < 0:
            raise_code(rc)
        steps = []
        for i in range(fn.critical_path_step_count(cp)):
            s = S.new(S.nxp_critical_step)
            rc = fn.critical_path_get_step(cp, i, ctypes.byref(s))
            if rc < 0:
                raise_code(rc)
            steps.append(CriticalStep(s.table, TABLE_NAMES.get(s.table, ""), s.id, s.start_ts, s.end_ts,
                                      text(s.resource), text(s.label), text(s.via), s.ns))
        res = []
        for i in range(fn.critical_path_resource_count(cp)):
            r = S.new(S.nxp_critical_resource)
            rc = fn.critical_path_get_resource(cp, i, ctypes.byref(r))
            if rc < 0:
                raise_code(rc)
            res.append(CriticalResource(text(r.resource), r.ns, r.busy_ns, r.slack_ns))
        return CriticalPath(a.value, b.value, t.value, steps, res)
    finally:
        fn.critical_path_close(cp)


# ------------------------------------------------------------------ insights

#: The rules of doc/insights.md.
INSIGHT_RULES = ("dma_bound", "low_mfu_semaphore_waits", "critical_path_dominated", "throttling",
                 "small_dma_transfers", "spill_traffic", "idle_gaps_between_executions", "straggler")


def _insights(h):
    out = []
    for i in range(fn.insights_count(h)):
        x = S.new(S.nxp_insight)
        rc = fn.insights_get(h, i, ctypes.byref(x))
        if rc < 0:
            raise_code(rc)
        ev = [{"name": text(x.evidence[j].name), "value": x.evidence[j].value, "unit": text(x.evidence[j].unit)}
              for j in range(x.evidence_count)]
        out.append({"rule": text(x.rule), "severity": text(x.severity), "severity_level": x.severity_level,
                    "message": text(x.message), "recommendation": text(x.recommendation),
                    "start_ts": None if x.start_ts == S.INT64_MIN else x.start_ts,
                    "end_ts": None if x.end_ts == S.INT64_MIN else x.end_ts, "evidence": ev})
    return out


def _hw(arch):
    if arch is None:
        return None
    from ._summary import _hardware
    return ctypes.byref(_hardware(arch, {}))


def insights(profile, arch=None):
    hw = _hw(arch)
    h = ctypes.c_void_p()
    st = status()
    rc = fn.profile_insights(profile._handle(), hw, ctypes.byref(h), ctypes.byref(st))
    if rc < 0:
        raise_status(rc, st)
    try:
        return _insights(h)
    finally:
        fn.insights_close(h)


# ------------------------------------------------------------------ capture comparison

ComparisonRow = collections.namedtuple("ComparisonRow", [f for f, _ in S.nxp_comparison_row._fields_
                                                         if f != "struct_size"])
ComparisonRow.__doc__ = ("One device profile of a capture (nxp_comparison_row); engine_active_ns is a dict "
                         "engine name -> ns.")

_ENGINE_NAMES = ("tensor", "vector", "scalar", "gpsimd", "sync")


class Comparison(list):
    """ComparisonRow rows, slowest first, with `.insights` (the capture-level
    findings, e.g. "straggler")."""
    insights = ()


def compare_capture(capture, arch=None):
    """Open and summarize every device profile of a capture (a directory or an
    nxp.Capture) and compare them: a Comparison (list of ComparisonRow, slowest
    first) with .insights."""
    from ._capture import Capture
    own = not isinstance(capture, Capture)
    cap = Capture(capture) if own else capture
    try:
        hw = _hw(arch)
        h = ctypes.c_void_p()
        st = status()
        rc = fn.capture_compare(cap._handle(), hw, ctypes.byref(h), ctypes.byref(st))
        if rc < 0:
            raise_status(rc, st)
        try:
            out = Comparison()
            for i in range(fn.comparison_count(h)):
                r = S.new(S.nxp_comparison_row)
                rc = fn.comparison_get(h, i, ctypes.byref(r))
                if rc < 0:
                    raise_code(rc)
                d = {}
                for f in ComparisonRow._fields:
                    v = getattr(r, f)
                    if f == "engine_active_ns":
                        v = dict(zip(_ENGINE_NAMES, list(v)))
                    elif isinstance(v, bytes) or v is None:
                        v = text(v)
                    d[f] = v
                out.append(ComparisonRow(**d))
            out.insights = _insights(fn.comparison_insights(h))
            return out
        finally:
            fn.comparison_close(h)
    finally:
        if own:
            cap.close()

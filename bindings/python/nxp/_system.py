# SPDX-License-Identifier: MIT
"""System profiles: the system-event cursor (ntrace.pb, trace.json[.gz], capture
directories), CpuUsage / HostMemUsage samples, trace_info.pb metadata and the
device -> host clock map (include/nxp/system.h).

The C cursors return one row per call and own the row's strings only until the
next call, so they cannot hand out a whole batch the way the profile cursors
do.  The binding still works in batches: it calls next() BATCH times into one
ctypes array (numeric columns are decoded later, on demand, by the same
column-wise machinery as the profile records), and copies each row's strings
right after its call.  Strings are decoded once per distinct value per batch.
"""
import ctypes
import itertools
import operator

from . import _structs as S
from ._errors import closed, raise_code, raise_status
from ._lib import fn
from ._neff import struct_values
from ._profile import BATCH, _Source
from ._records import Batch, record_type, register
from ._util import Closable, fspath, status

SystemEvent = register(record_type("SystemEvent", S.nxp_system_event,
                                   "SystemProfileEvents row (plus libnxp's extras after `flags`)."))
CpuUsage = register(record_type("CpuUsage", S.nxp_cpu_usage, "CpuUsage row."))
HostMemUsage = register(record_type("HostMemUsage", S.nxp_host_mem_usage, "HostMemUsage row."))

#: File kinds by name (nxp_sysfile_kind).
SYSFILE_KINDS = {"auto": S.NXP_SYSFILE_AUTO, "ntrace": S.NXP_SYSFILE_NTRACE, "trace_info": S.NXP_SYSFILE_TRACE_INFO,
                 "cpu_util": S.NXP_SYSFILE_CPU_UTIL, "host_mem": S.NXP_SYSFILE_HOST_MEM,
                 "trace_json": S.NXP_SYSFILE_TRACE_JSON, "neff": S.NXP_SYSFILE_NEFF, "ntff": S.NXP_SYSFILE_NTFF}


def kind_arg(kind, allowed, what="kind"):
    """A file kind given as a name or an nxp_sysfile_kind number, checked against `allowed` names."""
    if isinstance(kind, bool):
        raise TypeError(f"{what} must be a name or an int")
    if isinstance(kind, str):
        if kind not in allowed:
            raise_code(S.NXP_E_INVAL, f"{what} must be one of {', '.join(allowed)}, not {kind!r}")
        return SYSFILE_KINDS[kind]
    if isinstance(kind, int):
        return kind  # C checks the number
    raise TypeError(f"{what} must be a name or an int, not {type(kind).__name__}")


def _is_data(obj):
    return isinstance(obj, (bytes, bytearray, memoryview))


def _uint(v, what):
    if v is None:
        return 0
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError(f"{what} must be an int or None")
    if v < 0:
        raise_code(S.NXP_E_RANGE, f"{what} must not be negative")
    return v


def options(pairing=True, prescan=True, instance_id=None, max_message_size=None, max_json_event=None,
            max_json_depth=None, max_pending=None):
    """An nxp_system_options (and the bytes it points to, to keep alive)."""
    o = S.new(S.nxp_system_options)
    o.flags = (0 if pairing else S.NXP_SYSTEM_NO_PAIRING) | (0 if prescan else S.NXP_SYSTEM_NO_PRESCAN)
    o.max_message_size = _uint(max_message_size, "max_message_size")
    o.max_json_event = _uint(max_json_event, "max_json_event")
    o.max_json_depth = _uint(max_json_depth, "max_json_depth")
    o.max_pending = _uint(max_pending, "max_pending")
    keep = None
    if instance_id is not None:
        if not isinstance(instance_id, str):
            raise TypeError("instance_id must be a str or None")
        keep = instance_id.encode()
        o.instance_id = keep
    return o, keep


class _Strings(dict):
    """bytes -> str, decoded once per distinct value (NULL -> '')."""
    __slots__ = ()

    def __missing__(self, b):
        v = self[b] = "" if b is None else b.decode("utf-8", "replace")
        return v


class _RowCursor(Closable):
    """Base of the per-row C cursors: batching, iteration, close, errors."""
    _record = None   # Record class
    _what = "cursor"

    def _setup(self, h, next_fn, error_fn, close_fn, src=None, keep=None):
        self._h = h
        self._next_fn = next_fn
        self._error_fn = error_fn
        self._close_fn = close_fn
        self._src = src
        self._keep = keep
        self._iter = None

    def _handle(self):
        if getattr(self, "_h", None) is None:
            raise closed(self._what)
        return self._h

    def close(self):
        h, self._h = getattr(self, "_h", None), None
        if h is not None:
            self._close_fn(h)
        src, self._src = getattr(self, "_src", None), None
        if src is not None:
            src.close()  # after the cursor that reads it
        self._iter = None

    @property
    def closed(self):
        return getattr(self, "_h", None) is None


    def __iter__(self):
        return self

    def __next__(self):
        if getattr(self, "_h", None) is None:
            raise closed(self._what)
        if self._iter is None:
            self._iter = self._records()
        return next(self._iter)

    def _raise(self, rc):
        st = status()
        self._error_fn(self._h, ctypes.byref(st))
        raise_status(rc, st)

    def _records(self):
        rec = self._record
        spec = rec._spec
        stride = spec.stride
        arr_t = spec.struct * BATCH
        template = bytes(S.new(spec.struct)) * BATCH  # struct_size set in every element
        names = [spec.fields[k] for k in spec.string_idx]
        get = operator.attrgetter(*names)
        if len(names) == 1:
            one = get
            get = lambda o: (one(o),)  # noqa: E731
        nxt = self._next_fn
        str_idx = spec.string_idx
        while True:
            h = self._h
            if h is None:
                raise closed(self._what)
            arr = arr_t.from_buffer_copy(template)
            base = ctypes.addressof(arr)
            rows = []
            n = 0
            rc = 0
            while n < BATCH:
                rc = nxt(h, base + n * stride)
                if rc != 0:
                    break
                rows.append(get(arr[n]))  # now: the strings die at the next call
                n += 1
            if n:
                batch = Batch(spec, arr, n, None, None)
                strings = _Strings()
                for k, col in zip(str_idx, zip(*rows)):
                    batch.cols[k] = list(map(strings.__getitem__, col))
                yield from map(rec, zip(itertools.repeat(batch, n), range(n)))
            if rc == S.NXP_END:
                return
            if rc < 0:
                if self._h is None:
                    raise closed(self._what)
                self._raise(rc)

    def batches(self):
        """Iterate lists of records, up to BATCH at a time (for bulk consumers)."""
        while True:
            recs = list(itertools.islice(self, BATCH))
            if not recs:
                return
            yield recs


class SystemEvents(_RowCursor):
    """SystemProfileEvents rows from an ntrace.pb, a trace.json[.gz], a whole
    capture directory (a path), or the bytes of one file.  Rows come in file
    order (neither format is sorted by time).

    kind: "auto" (by content), "ntrace" or "trace_json".  pairing=False returns
    ntrace START/STOP events alone; prescan=False never looks past traceEvents
    for baseTimeNanoseconds.  instance_id fills rows whose file has none.  The
    max_* limits are nxp_system_options' (None = libnxp's default)."""
    _record = SystemEvent
    _what = "system-event cursor"

    def __init__(self, source, kind="auto", **opts):
        self._h = None
        self._src = None
        k = kind_arg(kind, ("auto", "ntrace", "trace_json"))
        o, keep = options(**opts)
        h = ctypes.c_void_p()
        st = status()
        src = None
        if not _is_data(source) and k == S.NXP_SYSFILE_AUTO:
            path = fspath(source, "source")
            rc = fn.system_events_open_path(ctypes.byref(h), path, ctypes.byref(o), ctypes.byref(st))
            if rc < 0:
                raise_status(rc, st, [(path, "any")])
        else:
            src = _Source(source, "source")
            rc = fn.system_events_open(ctypes.byref(h), src.h, k, ctypes.byref(o), ctypes.byref(st))
        if rc < 0:
            if src is not None:
                src.close()
            raise_status(rc, st)
        self._setup(h, fn.system_events_next, fn.system_events_error, fn.system_events_close, src, keep)

    @classmethod
    def _adopt(cls, h, keep=None):
        self = cls.__new__(cls)
        self._setup(h, fn.system_events_next, fn.system_events_error, fn.system_events_close, None, keep)
        return self

    def stats(self):
        """The cursor's counters (nxp_system_stats) as a dict."""
        out = S.new(S.nxp_system_stats)
        rc = fn.system_events_get_stats(self._handle(), ctypes.byref(out))
        if rc < 0:
            raise_code(rc)
        return struct_values(out)

    def __repr__(self):
        return "<nxp.SystemEvents closed>" if self.closed else "<nxp.SystemEvents open>"


def system_events(source, kind="auto", **opts):
    """A SystemEvents cursor (see its documentation)."""
    return SystemEvents(source, kind, **opts)


class HostStats(_RowCursor):
    """CpuUsage rows of a cpu_util.pb or HostMemUsage rows of a host_mem.pb
    (`kind` "cpu_util" or "host_mem"), from a path or bytes."""
    _what = "host-stats cursor"

    def __init__(self, source, kind, max_message_size=None, instance_id=None):
        self._h = None
        self._src = None
        k = kind_arg(kind, ("cpu_util", "host_mem"))
        o, keep = options(max_message_size=max_message_size, instance_id=instance_id)
        src = _Source(source, "source")
        h = ctypes.c_void_p()
        st = status()
        rc = fn.host_stats_open(ctypes.byref(h), src.h, k, ctypes.byref(o), ctypes.byref(st))
        if rc < 0:
            src.close()
            raise_status(rc, st)
        if k == S.NXP_SYSFILE_CPU_UTIL:
            self._record = CpuUsage
            nxt = fn.host_stats_next_cpu
        else:
            self._record = HostMemUsage
            nxt = fn.host_stats_next_mem
        self._setup(h, nxt, fn.host_stats_error, fn.host_stats_close, src, keep)

    def __repr__(self):
        return "<nxp.HostStats closed>" if self.closed else f"<nxp.HostStats {self._record.__name__}>"


def cpu_usage(source, **opts):
    """CpuUsage rows (timestamp, util_percent, cpu_id, instance_id) of a cpu_util.pb."""
    return HostStats(source, "cpu_util", **opts)


def host_mem_usage(source, **opts):
    """HostMemUsage rows (timestamp, used_bytes, used_percent, instance_id, total_bytes) of a host_mem.pb."""
    return HostStats(source, "host_mem", **opts)


def trace_info(source, max_message_size=None):
    """SystemProfileMetadata (and the other facts libnxp keeps) of a
    trace_info.pb, path or bytes, as a dict with the C field names.  Absent
    integers are -1 and absent strings "", as in C."""
    o, _ = options(max_message_size=max_message_size)
    src = _Source(source, "source")
    try:
        h = ctypes.c_void_p()
        st = status()
        rc = fn.trace_info_open(ctypes.byref(h), src.h, ctypes.byref(o), ctypes.byref(st))
        if rc < 0:
            raise_status(rc, st)
        try:
            out = S.new(S.nxp_system_metadata)
            rc = fn.trace_info_get(h, ctypes.byref(out))
            if rc < 0:
                raise_code(rc)
            return struct_values(out)
        finally:
            fn.trace_info_close(h)
    finally:
        src.close()


def system_event_group(name):
    """NXP_SYSEV_HARDWARE, NXP_SYSEV_SOFTWARE or 0 for an event name."""
    if not isinstance(name, str):
        raise TypeError("name must be a str")
    return fn.system_event_group(name.encode())


def _int(v, what):
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError(f"{what} must be an int")
    return v


class ClockMap(Closable):
    """Device -> host time, from the timestamp_sync_point events of a capture.

    ClockMap() is empty (fill it with add()); ClockMap.build(source) reads a
    SystemEvents cursor (or opens one on a path or bytes) to its end."""

    def __init__(self):
        self._h = None
        h = ctypes.c_void_p()
        rc = fn.clock_map_new(ctypes.byref(h))
        if rc < 0:
            raise_code(rc)
        self._h = h

    @classmethod
    def build(cls, source, max_points=None, **opts):
        """Keep every sync point read from `source` (a SystemEvents cursor, which
        is read to its end, or anything SystemEvents accepts)."""
        own = not isinstance(source, SystemEvents)
        events = SystemEvents(source, **opts) if own else source
        try:
            h = ctypes.c_void_p()
            st = status()
            rc = fn.clock_map_build(ctypes.byref(h), events._handle(), _uint(max_points, "max_points"),
                                    ctypes.byref(st))
            if rc < 0:
                raise_status(rc, st)
        finally:
            if own:
                events.close()
        self = cls.__new__(cls)
        self._h = h
        return self

    def _handle(self):
        if self._h is None:
            raise closed("clock map")
        return self._h

    def add(self, nc_idx, device_ts, host_ts):
        rc = fn.clock_map_add(self._handle(), _int(nc_idx, "nc_idx"), _int(device_ts, "device_ts"),
                              _int(host_ts, "host_ts"))
        if rc < 0:
            raise_code(rc)

    def __len__(self):
        return fn.clock_map_count(self._handle())

    def to_host(self, nc_idx, device_ts):
        """Host Unix ns of device time `device_ts` on core `nc_idx` (NotFoundError: no sync point for that core)."""
        out = ctypes.c_int64()
        rc = fn.clock_map_to_host(self._handle(), _int(nc_idx, "nc_idx"), _int(device_ts, "device_ts"),
                                  ctypes.byref(out))
        if rc < 0:
            raise_code(rc, f"no sync point for core {nc_idx}" if rc == S.NXP_E_NOT_FOUND else None)
        return out.value

    def close(self):
        h, self._h = self._h, None
        if h is not None:
            fn.clock_map_close(h)


def clock_map(source, max_points=None, **opts):
    """ClockMap.build(source, ...)."""
    return ClockMap.build(source, max_points, **opts)


__all__ = ["SystemEvent", "CpuUsage", "HostMemUsage", "SystemEvents", "HostStats", "ClockMap", "system_events",
           "cpu_usage", "host_mem_usage", "trace_info", "clock_map", "system_event_group", "SYSFILE_KINDS"]

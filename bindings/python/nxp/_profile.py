# SPDX-License-Identifier: MIT
"""nxp.Profile: a NEFF + NTFF pair, its Metadata, and time-ordered cursors."""
import ctypes
import errno
import operator
import weakref

from . import _structs as S
from ._errors import closed, path_error, path_problem, raise_code, raise_status
from ._lib import fn
from ._neff import Neff, struct_values
from ._records import record_type, register
from ._summary import summary_dict, summary_opcodes, summary_throttles
from ._util import Closable, engine_arg, fspath, hexbytes, status, ts_arg

#: Records fetched from C per nxp_cursor_next_batch call.
BATCH = 4096

Instruction = register(record_type("Instruction", S.nxp_instruction, "Instruction table row."))
DmaPacket = register(record_type("DmaPacket", S.nxp_dma_packet, "DmaPacket table row."))
SemaphoreUpdate = register(record_type("SemaphoreUpdate", S.nxp_semaphore_update, "SemaphoreUpdate table row."))
Throttle = register(record_type("Throttle", S.nxp_throttle, "Throttle table row."))
ErrorRecord = register(record_type("ErrorRecord", S.nxp_error_record, "Error table row."))
Execution = register(record_type("Execution", S.nxp_execution, "ExecutionInfo table row."))
ActiveTime = register(record_type("ActiveTime", S.nxp_active_time, "ActiveTime table row."))

TABLES = {
    S.NXP_TABLE_INSTRUCTION: Instruction,
    S.NXP_TABLE_DMA_PACKET: DmaPacket,
    S.NXP_TABLE_SEMAPHORE_UPDATE: SemaphoreUpdate,
    S.NXP_TABLE_THROTTLE: Throttle,
    S.NXP_TABLE_ERROR: ErrorRecord,
    S.NXP_TABLE_EXECUTION: Execution,
    S.NXP_TABLE_ACTIVE_TIME: ActiveTime,
}

_METADATA_HEX = ("neff_uuid", "neff_hash")
_METADATA_NONE_IF_MIN = ("tpb_start_ts", "tpb_stop_ts")


class _Source:
    """A path or an in-memory buffer as an nxp_source (memory kept alive here)."""

    def __init__(self, obj, what):
        self.h = ctypes.c_void_p()
        self.mem = None
        st = status()
        if isinstance(obj, (bytes, bytearray, memoryview)):
            data = bytes(obj)
            self.mem = ctypes.create_string_buffer(data, len(data))
            rc = fn.source_open_memory(ctypes.byref(self.h), self.mem, len(data), ctypes.byref(st))
        else:
            path = fspath(obj, what)
            rc = fn.source_open_path(ctypes.byref(self.h), path, ctypes.byref(st))
            if rc < 0:
                raise_status(rc, st, [(path, "file")])
            # open(2) accepts a directory; reading it would fail later, vaguely.
            if path_problem(path, "file") == errno.EISDIR:
                self.close()
                raise path_error(path, errno.EISDIR)
        if rc < 0:
            raise_status(rc, st)

    def close(self):
        if self.h:
            fn.source_close(self.h)
        self.h = None
        self.mem = None


class Cursor(Closable):
    """An iterator over one table of a profile, in time order.  Records come
    from C in batches of BATCH.  Close it (or let it be collected) to free it;
    closing the profile closes its cursors."""

    def __init__(self, profile, table, start=None, end=None, engine=None, pcore=None, queue=None):
        self._h = None
        self._profile = profile
        rec = TABLES.get(table)
        if rec is None:
            raise_code(S.NXP_E_INVAL, f"unknown table {table!r}")
        self._spec = rec._spec
        opts = S.new(S.nxp_cursor_options)
        opts.start_ts = ts_arg(start, S.INT64_MIN, "start")
        opts.end_ts = ts_arg(end, S.INT64_MAX, "end")
        opts.engine = engine_arg(engine)
        if pcore is not None and (isinstance(pcore, bool) or not isinstance(pcore, int)):
            raise TypeError("pcore must be an int or None")
        opts.pcore_idx = -1 if pcore is None else pcore
        if queue is not None:
            if not isinstance(queue, str):
                raise TypeError("queue must be a str or None")
            self._queue = queue.encode()
            opts.queue_name = self._queue
        h = ctypes.c_void_p()
        st = status()
        rc = fn.cursor_open(ctypes.byref(h), profile._handle(), table, ctypes.byref(opts), ctypes.byref(st))
        if rc < 0:
            raise_status(rc, st)
        self._h = h
        self._iter = None
        self._pending = None  # (array, n, index iterator) of the batch being handed out
        profile._cursors.add(self)

    def _handle(self):
        if self._h is None:
            raise closed("cursor")
        return self._h

    def close(self):
        h, self._h = self._h, None
        if h is not None:
            fn.cursor_close(h)
            p = self._profile
            if p is not None:
                p._cursors.discard(self)
        self._iter = None
        self._pending = None


    def __iter__(self):
        return self

    def __next__(self):
        if self._h is None:
            raise closed("cursor")
        if self._iter is None:
            self._iter = self._records()
        return next(self._iter)

    def _records(self):
        spec = self._spec
        stride = spec.stride
        arr_t = spec.struct * BATCH
        count = ctypes.c_size_t()
        next_batch = fn.cursor_next_batch
        profile = self._profile
        while True:
            h = self._h
            if h is None:
                raise closed("cursor")
            arr = arr_t()
            rc = next_batch(h, arr, stride, BATCH, ctypes.byref(count))
            n = count.value
            if n:
                index = iter(range(n))
                self._pending = (arr, n, index)
                yield from spec.records(arr, n, profile, profile._strings, index)
                self._pending = None
            if rc == S.NXP_END:
                return
            if rc < 0:
                st = status()
                fn.cursor_error(h, ctypes.byref(st))
                raise_status(rc, st)

    def batches(self):
        """Iterate lists of records, one list per C batch (for bulk consumers)."""
        while True:
            recs = []
            for _ in range(BATCH):
                try:
                    recs.append(next(self))
                except StopIteration:
                    break
            if not recs:
                return
            yield recs

    def seek(self, ts):
        """Position at the first record with start time >= ts."""
        rc = fn.cursor_seek(self._handle(), ts_arg(ts, S.INT64_MIN, "ts"))
        self._iter = None
        self._pending = None
        if rc < 0:
            st = status()
            fn.cursor_error(self._h, ctypes.byref(st))
            raise_status(rc, st)

    @property
    def position(self):
        """Start time (ns) of the next record this iterator yields, or None at
        the end.  As in C (nxp_cursor_position) it is a lower bound: when the
        next record comes from the C cursor and fails its checks, it is skipped
        and a later one is returned.  Records the binding has already fetched
        from C but not yet handed out count: None means nothing remains."""
        h = self._handle()
        pending = self._pending
        if pending is not None:
            arr, n, index = pending
            left = operator.length_hint(index)
            if left:
                return getattr(arr[n - left], self._spec.time_field)
        p = fn.cursor_position(h)
        return None if p == S.INT64_MAX else p

    def stats(self):
        out = S.new(S.nxp_cursor_stats)
        rc = fn.cursor_get_stats(self._handle(), ctypes.byref(out))
        if rc < 0:
            raise_code(rc)
        return struct_values(out)


def profile_options(allow_mismatch=False, skip_crc=False):
    flags = (S.NXP_PROFILE_ALLOW_MISMATCH if allow_mismatch else 0) | (S.NXP_PROFILE_SKIP_CRC if skip_crc else 0)
    return S.new(S.nxp_profile_options, flags=flags)


class Profile(Closable):
    """A NEFF/NTFF pair.  `neff` and `ntff` are paths or bytes."""

    def __init__(self, neff, ntff, allow_mismatch=False, skip_crc=False):
        self._init_state()
        opts = profile_options(allow_mismatch, skip_crc)
        h = ctypes.c_void_p()
        st = status()
        if isinstance(neff, (bytes, bytearray, memoryview)) or isinstance(ntff, (bytes, bytearray, memoryview)):
            try:
                self._srcs.append(_Source(neff, "neff"))
                self._srcs.append(_Source(ntff, "ntff"))
                rc = fn.profile_open(ctypes.byref(h), self._srcs[0].h, self._srcs[1].h, ctypes.byref(opts),
                                     ctypes.byref(st))
            except BaseException:
                self._close_sources()
                raise
        else:
            paths = [(fspath(neff, "neff"), "file"), (fspath(ntff, "ntff"), "file")]
            rc = fn.profile_open_path(ctypes.byref(h), paths[0][0], paths[1][0], ctypes.byref(opts), ctypes.byref(st))
            if rc < 0:
                raise_status(rc, st, paths)
        if rc < 0:
            self._close_sources()
            raise_status(rc, st)
        self._h = h

    def _init_state(self):
        self._h = None
        self._srcs = []
        self._cursors = weakref.WeakSet()
        self.batches = weakref.WeakSet()  # live record batches pointing at our strings
        self._strings = {}
        self._neff = None
        self._summary = None

    @classmethod
    def _adopt(cls, h):
        """A Profile owning an nxp_profile opened elsewhere (e.g. by a Capture)."""
        self = cls.__new__(cls)
        self._init_state()
        self._h = h
        return self

    def _close_sources(self):
        for s in self._srcs:
            s.close()
        self._srcs = []

    def _handle(self):
        if self._h is None:
            raise closed("profile")
        return self._h

    def close(self):
        """Close the profile and its open cursors.  Records already returned
        stay usable: their strings are resolved before C frees them."""
        if self._h is None:
            return
        for c in list(self._cursors):
            c.close()
        for b in list(self.batches):
            b.intern()
        if self._neff is not None:
            self._neff._h = None
        h, self._h = self._h, None
        fn.profile_close(h)
        self._close_sources()


    @property
    def neff(self):
        """The profile's NEFF (valid while the profile is open)."""
        h = self._handle()
        if self._neff is None:
            self._neff = Neff._borrowed(fn.profile_neff(h), self)
        return self._neff

    @property
    def metadata(self):
        """The Metadata table as a dict (hex uuid/hash; None for absent TPB times)."""
        out = S.new(S.nxp_metadata)
        rc = fn.profile_get_metadata(self._handle(), ctypes.byref(out))
        if rc < 0:
            raise_code(rc)
        d = struct_values(out)
        for k in _METADATA_HEX:
            d[k] = hexbytes(getattr(out, k))
        for k in _METADATA_NONE_IF_MIN:
            if d[k] == S.INT64_MIN:
                d[k] = None
        return d

    # -- cursors
    def cursor(self, table, **kw):
        return Cursor(self, table, **kw)

    def instructions(self, start=None, end=None, engine=None, pcore=None):
        """Instruction rows with start in [start, end), optionally of one engine / core."""
        return Cursor(self, S.NXP_TABLE_INSTRUCTION, start, end, engine, pcore)

    def dma_packets(self, start=None, end=None, queue=None, pcore=None):
        return Cursor(self, S.NXP_TABLE_DMA_PACKET, start, end, None, pcore, queue)

    def semaphore_updates(self, start=None, end=None, pcore=None):
        return Cursor(self, S.NXP_TABLE_SEMAPHORE_UPDATE, start, end, None, pcore)

    def throttles(self, start=None, end=None, pcore=None):
        return Cursor(self, S.NXP_TABLE_THROTTLE, start, end, None, pcore)

    def errors(self, start=None, end=None, pcore=None):
        return Cursor(self, S.NXP_TABLE_ERROR, start, end, None, pcore)

    def executions(self, start=None, end=None, pcore=None):
        return Cursor(self, S.NXP_TABLE_EXECUTION, start, end, None, pcore)

    def active_time(self, start=None, end=None, engine=None, pcore=None):
        return Cursor(self, S.NXP_TABLE_ACTIVE_TIME, start, end, engine, pcore)

    # -- summary
    def _summarize(self):
        if self._summary is None:
            s = ctypes.c_void_p()
            st = status()
            rc = fn.profile_summarize(self._handle(), None, ctypes.byref(s), ctypes.byref(st))
            if rc < 0:
                raise_status(rc, st)
            try:
                self._summary = (summary_dict(s), summary_opcodes(s), summary_throttles(s))
            finally:
                fn.summary_close(s)
        return self._summary

    def summary(self):
        """The Summary table as a dict of present fields (fractions for *_percent)."""
        self._handle()
        return dict(self._summarize()[0])

    def opcode_summary(self):
        """OpcodeSummary rows as dicts."""
        self._handle()
        return [dict(r) for r in self._summarize()[1]]

    def throttle_summary(self):
        """ThrottleSummary rows as dicts."""
        self._handle()
        return [dict(r) for r in self._summarize()[2]]

    # -- columnar tables (nxp/table.h; see nxp._table for nulls and dictionaries)
    def arrow_stream(self, table, columns=None, **filters):
        """Table `table` ("Instruction", "DmaPacket", ..., "SchemaFields") as an
        object implementing the Arrow PyCapsule interface (__arrow_c_stream__):
        ``pyarrow.RecordBatchReader.from_stream(p.arrow_stream("Instruction"))``.
        Filters: start, end, engine, pcore, queue, batch_rows."""
        from ._table import ArrowStream
        return ArrowStream(self, table, columns, **filters)

    def to_numpy(self, table, columns=None, dictionary="strings", **filters):
        """Dict of numpy arrays (column name -> array), rows in time order.
        Columns with nulls are numpy.ma.MaskedArray (numeric, bool) or object
        arrays with None; dictionary columns are decoded str object arrays, or
        (codes, categories) with dictionary="codes"."""
        from ._table import to_numpy
        return to_numpy(self, table, columns, dictionary, **filters)

    def to_pandas(self, table, columns=None, **filters):
        """pandas.DataFrame of a table; dictionary columns are category."""
        from ._table import to_pandas
        return to_pandas(self, table, columns, **filters)

    def export_parquet(self, directory, tables=None, compression="zstd", overwrite=False, level=0, threads=0):
        """Write DIR/<Table>.parquet for every table of the default set (all
        but Flow) or those in `tables` ("all" = every table, "default" = the
        default set, e.g. ["default", "Flow"]); compression "zstd", "gzip" or
        "none".  Existing files are refused unless overwrite=True.  threads:
        tables written at once (0 = one per CPU, 1 = serial; the files are the
        same).  Returns {"tables_written", "skipped_records",
        "skipped_sections"} (the skipped counts None when Warning was not
        written)."""
        from ._table import export_parquet
        return export_parquet(self, directory, tables, compression, overwrite, level, threads)

    # -- timeline and analysis (nxp/timeline.h, nxp/analysis.h; see nxp._analysis)
    def export_timeline(self, path, format="perfetto", start_ts=None, end_ts=None, engine=None, execution=None,
                        max_events=None, overwrite=False, gzip=None, counter_window_ns=None, device_flows=True):
        """Write the timeline to `path`: format "perfetto" (protobuf .pftrace;
        gzip=True: its packets deflated in compressed_packets bundles, about
        a sixth of the size) or "chrome-json" (gzip'd when gzip=True, or by
        default when `path` ends in ".gz").  Filters: records starting in [start_ts, end_ts), one
        engine's instructions, one execution's time; max_events stops early
        (stats["truncated"] = 1).  An existing file is refused unless
        overwrite=True.  device_flows=False leaves out the semaphore
        dependency arrows (Perfetto flows; `nxp export --no-flows`).  Returns
        the nxp_timeline_stats as a dict (events, tracks, bytes, truncated,
        read_errors, bad_records, input_bytes, skipped_sections, flows, ...)."""
        from ._analysis import export_timeline
        return export_timeline(self, path, format, start_ts, end_ts, engine, execution, max_events, overwrite,
                               gzip, counter_window_ns, device_flows)

    def flows(self, start=None, end=None, pcore=None, window_ns=None):
        """A FlowCursor: the dependency edges (nxp.Flow rows) whose out_ts is
        in [start, end), in time order up to the window."""
        from ._analysis import FlowCursor
        return FlowCursor(self, start, end, pcore, window_ns)

    def flows_of(self, table, record_id, direction="waited_on"):
        """The edges into ("waited_on") or out of ("unblocked") one record."""
        from ._analysis import flows_of
        return flows_of(self, table, record_id, direction)

    def critical_path(self, execution=None, pcore=None):
        """nxp.CriticalPath of execution N, or (None) of the interval of the
        summary's total_exec_time: total_ns, breakdown [(resource, ns)] summing
        to total_ns, resources (with busy_ns, slack_ns), path (steps)."""
        from ._analysis import critical_path
        return critical_path(self, execution, pcore)

    def insights(self, arch=None):
        """Rule-based findings (doc/insights.md) as dicts: rule, severity,
        severity_level, message, recommendation, start_ts, end_ts (None when
        the finding has no time range), evidence [{name, value, unit}]."""
        from ._analysis import insights
        return insights(self, arch)

    @staticmethod
    def table_names():
        """Tables the columnar functions accept for a device profile."""
        from ._table import table_names
        return table_names()

    def __repr__(self):
        return "<nxp.Profile closed>" if self._h is None else "<nxp.Profile open>"

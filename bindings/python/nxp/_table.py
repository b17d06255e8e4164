# SPDX-License-Identifier: MIT
"""Columnar tables: Profile.arrow_stream (the Arrow PyCapsule interface),
Profile.to_numpy, Profile.to_pandas and Profile.export_parquet.

The C library hands out Arrow C streams (include/nxp/table.h, arrow.h).  This
module reads them through the ctypes mirrors of the Arrow C Data Interface
structs (nxp._structs.ArrowSchema/ArrowArray/ArrowArrayStream), wrapping each
buffer with numpy.frombuffer: no Python work per row for numeric, boolean and
dictionary columns (plain utf8 columns decode one str per row).  numpy and
pandas are imported only by the functions that return their types.

Nulls (optional columns without a value) in to_numpy: integer, float and
boolean columns that have at least one null in the result are
numpy.ma.MaskedArray (mask True = null; columns without nulls are plain
ndarrays); utf8 and decoded dictionary columns are object arrays holding None.
Dictionary columns are decoded to object arrays of str by default, or with
dictionary="codes" returned as (codes int32 ndarray, categories list) with code
-1 for null.  to_pandas gives category columns for dictionary columns, the
nullable Int64/Int32/boolean dtypes for integer/boolean columns with nulls, and
NaN for null floats.
"""
import ctypes
import errno
import itertools
import weakref
from ctypes import POINTER, byref, c_char_p, c_void_p

from . import _structs as S
from ._errors import raise_code, raise_status
from ._lib import fn
from ._util import engine_arg, fspath, status, ts_arg

_FILTERS = ("start", "end", "engine", "pcore", "queue", "batch_rows")

_ERRNO_CODES = {errno.EINVAL: S.NXP_E_INVAL, errno.ENOMEM: S.NXP_E_NOMEM, errno.EIO: S.NXP_E_IO,
                errno.ERANGE: S.NXP_E_RANGE, errno.ENOENT: S.NXP_E_NOT_FOUND}


def table_options(columns=None, start=None, end=None, engine=None, pcore=None, queue=None, batch_rows=None):
    """An nxp_table_options and the ctypes objects it points into (keep both alive)."""
    o = S.new(S.nxp_table_options)
    keep = []
    if columns is not None:
        if isinstance(columns, (str, bytes)):
            raise TypeError("columns must be a list of column names, not a single string")
        names = []
        for c in columns:
            if not isinstance(c, str):
                raise TypeError(f"column names must be str, not {type(c).__name__}")
            if "\0" in c:
                raise ValueError("column name contains a NUL byte")
            names.append(c.encode())
        arr = (c_char_p * (len(names) + 1))(*names, None)
        keep.append(arr)
        o.columns = ctypes.cast(arr, POINTER(c_char_p))
    o.start_ts = ts_arg(start, S.INT64_MIN, "start")
    o.end_ts = ts_arg(end, S.INT64_MAX, "end")
    o.engine = engine_arg(engine)
    if pcore is not None and (isinstance(pcore, bool) or not isinstance(pcore, int)):
        raise TypeError("pcore must be an int or None")
    o.pcore_idx = -1 if pcore is None else pcore
    if queue is not None:
        if not isinstance(queue, str):
            raise TypeError("queue must be a str or None")
        q = queue.encode()
        keep.append(q)
        o.queue_name = q
    if batch_rows is not None:
        if isinstance(batch_rows, bool) or not isinstance(batch_rows, int) or batch_rows <= 0:
            raise ValueError("batch_rows must be a positive int")
        o.batch_rows = batch_rows
    return o, keep


def _check_filters(filters):
    bad = sorted(set(filters) - set(_FILTERS))
    if bad:
        raise TypeError(f"unknown filter(s) {', '.join(bad)}; known: {', '.join(_FILTERS)}")


def open_c_stream(profile, table, columns=None, **filters):
    """Open nxp_profile_open_table into a new ctypes ArrowArrayStream (the caller releases it)."""
    if not isinstance(table, str):
        raise TypeError("table must be a table name such as 'Instruction'")
    _check_filters(filters)
    opts, keep = table_options(columns, **filters)
    stream = S.ArrowArrayStream()
    st = status()
    rc = fn.profile_open_table(byref(stream), profile._handle(), table.encode(), byref(opts), byref(st))
    del keep
    if rc < 0:
        raise_status(rc, st)
    return stream


def table_names():
    """The tables nxp_profile_open_table() produces for a device profile."""
    out = []
    for i in itertools.count():
        n = fn.table_name(i)
        if n is None:
            return out
        out.append(n.decode())


# ------------------------------------------------------------------ reading a C stream


def _stream_error(stream, rc, what):
    msg = None
    if stream.get_last_error:
        p = stream.get_last_error(byref(stream))
        if p:
            msg = ctypes.string_at(p).decode("utf-8", "replace")
    raise_code(_ERRNO_CODES.get(rc, S.NXP_E_IO), f"{what}: {msg or errno.errorcode.get(rc, rc)}")


def _release(x):
    if x.release:
        x.release(byref(x))


class _Reader:
    """Owns one ArrowArrayStream: its schema and batches (each released by the caller)."""

    def __init__(self, stream):
        self.stream = stream

    def schema(self):
        sch = S.ArrowSchema()
        rc = self.stream.get_schema(byref(self.stream), byref(sch))
        if rc:
            _stream_error(self.stream, rc, "get_schema")
        return sch

    def batches(self):
        while True:
            arr = S.ArrowArray()
            rc = self.stream.get_next(byref(self.stream), byref(arr))
            if rc:
                _stream_error(self.stream, rc, "get_next")
            if not arr.release:
                return
            yield arr

    def close(self):
        _release(self.stream)


_NUMERIC = {b"c": "i1", b"C": "u1", b"s": "<i2", b"S": "<u2", b"i": "<i4", b"I": "<u4", b"l": "<i8", b"L": "<u8",
            b"e": "<f2", b"f": "<f4", b"g": "<f8"}


def _view(np, addr, dtype, count):
    """numpy view of `count` items of `dtype` at C address `addr` (no copy)."""
    dt = np.dtype(dtype)
    if count <= 0 or not addr:
        return np.empty(0, dt)
    return np.frombuffer((ctypes.c_char * (count * dt.itemsize)).from_address(addr), dtype=dt)


def _bits(np, addr, offset, length):
    raw = _view(np, addr, "u1", (offset + length + 7) // 8)
    return np.unpackbits(raw, bitorder="little")[offset:offset + length].view(bool)


def _valid(np, a):
    """Validity of an array as a bool ndarray, or None when it has no nulls."""
    if a.null_count == 0 or not a.buffers[0]:
        return None
    v = _bits(np, a.buffers[0], a.offset, a.length)
    return None if v.all() else v


def _strings(np, fmt, a, valid):
    """utf8 / large utf8 values of an array as a list of str (None for nulls)."""
    n, off = a.length, a.offset
    offs = _view(np, a.buffers[1], "<i4" if fmt == b"u" else "<i8", off + n + 1)[off:]
    if n == 0:
        return []
    base = int(offs[0])
    data = ctypes.string_at(a.buffers[2], int(offs[-1]) - base) if offs[-1] > base else b""
    bounds = (offs - base).tolist()
    out = [data[bounds[i]:bounds[i + 1]].decode("utf-8", "replace") for i in range(n)]
    if valid is not None:
        for i in np.flatnonzero(~valid).tolist():
            out[i] = None
    return out


class _Column:
    """The chunks of one column across batches, converted per chunk without per-row work."""

    def __init__(self, name, fmt, dict_fmt, nullable):
        self.name, self.fmt, self.dict_fmt, self.nullable = name, fmt, dict_fmt, nullable
        self.values = []   # ndarray chunks (views into C buffers until finish)
        self.valid = []    # bool ndarray or None per chunk
        self.cats = {}     # dictionary: category -> global code
        if dict_fmt is None and fmt not in _NUMERIC and fmt not in (b"b", b"u", b"U"):
            raise_code(S.NXP_E_UNSUPPORTED, f"column {name}: Arrow format {fmt.decode()!r} not supported")
        if dict_fmt is not None and (fmt not in _NUMERIC or dict_fmt not in (b"u", b"U")):
            raise_code(S.NXP_E_UNSUPPORTED, f"column {name}: dictionary {fmt.decode()!r} of "
                                            f"{dict_fmt.decode()!r} not supported")

    def add(self, np, a):
        n, off = a.length, a.offset
        valid = _valid(np, a)
        if self.dict_fmt is not None:
            idx = _view(np, a.buffers[1], _NUMERIC[self.fmt], off + n)[off:]
            d = a.dictionary.contents
            words = _strings(np, self.dict_fmt, d, _valid(np, d))
            remap = np.fromiter((self.cats.setdefault(w, len(self.cats)) for w in words), dtype=np.int32,
                                count=len(words))
            codes = remap[idx] if len(words) else np.zeros(n, np.int32)
            if valid is not None:
                codes = np.where(valid, codes, np.int32(-1))
            self.values.append(codes)
        elif self.fmt == b"b":
            self.values.append(_bits(np, a.buffers[1], off, n))
        elif self.fmt in (b"u", b"U"):
            self.values.append(np.array(_strings(np, self.fmt, a, valid), dtype=object))
        else:
            self.values.append(_view(np, a.buffers[1], _NUMERIC[self.fmt], off + n)[off:])
        self.valid.append(valid)

    def finish(self, np):
        """(kind, values, valid-or-None, categories) with every buffer copied out of C memory."""
        dt = {b"b": np.dtype(bool)}.get(self.fmt, np.dtype(object) if self.fmt in (b"u", b"U") else None)
        if self.dict_fmt is not None:
            dt = np.dtype(np.int32)
        elif dt is None:
            dt = np.dtype(_NUMERIC[self.fmt])
        values = np.concatenate(self.values) if self.values else np.empty(0, dt)
        valid = None
        if any(v is not None for v in self.valid):
            valid = np.concatenate([np.ones(len(x), bool) if v is None else v
                                    for x, v in zip(self.values, self.valid)])
        self.values, self.valid = [], []
        if self.dict_fmt is not None:
            return "dict", values, valid, list(self.cats)
        if self.fmt in (b"u", b"U"):
            return "str", values, valid, None
        return ("bool" if self.fmt == b"b" else "num"), values, valid, None


def _columns_of(schema):
    if not schema.format or schema.format != b"+s":
        raise_code(S.NXP_E_UNSUPPORTED, f"stream schema is {schema.format!r}, expected a struct (+s)")
    cols = []
    for i in range(schema.n_children):
        c = schema.children[i].contents
        d = c.dictionary.contents.format if c.dictionary else None
        cols.append(_Column(c.name.decode(), c.format, d, bool(c.flags & S.ARROW_FLAG_NULLABLE)))
    return cols


def read_columns(stream):
    """Read (and release) a whole C stream: [(name, kind, values, valid, categories)]."""
    import numpy as np
    r = _Reader(stream)
    try:
        sch = r.schema()
        try:
            cols = _columns_of(sch)
        finally:
            _release(sch)
        held = []
        try:
            for batch in r.batches():
                held.append(batch)
                if batch.n_children != len(cols):
                    raise_code(S.NXP_E_FORMAT, f"batch has {batch.n_children} columns, schema {len(cols)}")
                for i, c in enumerate(cols):
                    c.add(np, batch.children[i].contents)
            # One copy out of the C buffers, then the batches go.
            return [(c.name,) + c.finish(np) for c in cols]
        finally:
            for b in held:
                _release(b)
    finally:
        r.close()


def to_numpy(profile, table, columns=None, dictionary="strings", **filters):
    """Profile.to_numpy: see the module docstring."""
    import numpy as np
    if dictionary not in ("strings", "codes"):
        raise ValueError("dictionary must be 'strings' or 'codes'")
    out = {}
    for name, kind, values, valid, cats in read_columns(open_c_stream(profile, table, columns, **filters)):
        if kind == "dict":
            if dictionary == "codes":
                out[name] = (values, cats)
            else:
                lookup = np.empty(len(cats) + 1, dtype=object)
                lookup[:len(cats)] = cats
                lookup[len(cats)] = None
                out[name] = lookup[values]
        elif kind == "str" or valid is None:
            out[name] = values
        else:
            out[name] = np.ma.MaskedArray(values, mask=~valid)
    return out


def to_pandas(profile, table, columns=None, **filters):
    """Profile.to_pandas: a DataFrame; dictionary columns become category."""
    import numpy as np
    import pandas as pd
    data = {}
    for name, kind, values, valid, cats in read_columns(open_c_stream(profile, table, columns, **filters)):
        if kind == "dict":
            data[name] = pd.Categorical.from_codes(values, categories=cats)
        elif valid is None or kind == "str":
            data[name] = values
        elif kind == "bool":
            data[name] = pd.arrays.BooleanArray(values, ~valid)
        elif values.dtype.kind in "iu":
            data[name] = pd.arrays.IntegerArray(values, ~valid)
        else:
            data[name] = np.where(valid, values, np.nan)
    return pd.DataFrame(data)


# ------------------------------------------------------------------ the PyCapsule interface

_libc = ctypes.CDLL(None)
_malloc = _libc.malloc
_malloc.restype = c_void_p
_malloc.argtypes = [ctypes.c_size_t]
_free = _libc.free
_free.restype = None
_free.argtypes = [c_void_p]

_CAPSULE_NAME = b"arrow_array_stream"
_CAPSULE_DESTRUCTOR = ctypes.CFUNCTYPE(None, c_void_p)
_PyCapsule_New = ctypes.pythonapi.PyCapsule_New
_PyCapsule_New.restype = ctypes.py_object
_PyCapsule_New.argtypes = [c_void_p, c_char_p, _CAPSULE_DESTRUCTOR]
# Takes the capsule as an address: the destructor runs while it is being freed.
_PyCapsule_GetPointer = ctypes.PYFUNCTYPE(c_void_p, c_void_p, c_char_p)(("PyCapsule_GetPointer", ctypes.pythonapi))
_PyErr_Clear = ctypes.pythonapi.PyErr_Clear

# State of every stream handed out, by its private_data token: the C stream it
# forwards to, the profile (weakly), and the last error of our own making.
_live = {}
_tokens = itertools.count(1)


class _Forward:
    __slots__ = ("inner", "profile", "error")

    def __init__(self, inner, profile):
        self.inner = inner
        self.profile = weakref.ref(profile)
        self.error = None


def _state(sp):
    return _live.get(sp.contents.private_data)


def _fail(w, message, code=errno.EINVAL):
    if w is not None:
        w.error = ctypes.create_string_buffer(message.encode())
    return code


@S.STREAM_GET_SCHEMA
def _fw_get_schema(sp, out):
    w = None
    try:
        w = _state(sp)
        if w is None:
            return errno.EINVAL
        w.error = None
        return w.inner.get_schema(byref(w.inner), out)
    except Exception as e:  # never let an exception cross into C
        return _fail(w, f"nxp: {e}", errno.EIO)


@S.STREAM_GET_NEXT
def _fw_get_next(sp, out):
    w = None
    try:
        w = _state(sp)
        if w is None:
            return errno.EINVAL
        w.error = None
        p = w.profile()
        if p is None or p._h is None:
            return _fail(w, "nxp: the profile was closed before this Arrow stream was consumed")
        return w.inner.get_next(byref(w.inner), out)
    except Exception as e:
        return _fail(w, f"nxp: {e}", errno.EIO)


@S.STREAM_GET_LAST_ERROR
def _fw_get_last_error(sp):
    try:
        w = _state(sp)
        if w is None:
            return None
        if w.error is not None:
            return ctypes.addressof(w.error)
        return w.inner.get_last_error(byref(w.inner))
    except Exception:
        return None


@S.STREAM_RELEASE
def _fw_release(sp):
    s = sp.contents
    w = _live.pop(s.private_data, None)
    if w is not None:
        _release(w.inner)
    s.release = S.STREAM_RELEASE()
    s.private_data = None


@_CAPSULE_DESTRUCTOR
def _capsule_destructor(cap):
    ptr = _PyCapsule_GetPointer(cap, _CAPSULE_NAME)
    if not ptr:
        _PyErr_Clear()
        return
    s = S.ArrowArrayStream.from_address(ptr)
    if s.release:  # not moved out by a consumer
        s.release(ctypes.cast(ptr, POINTER(S.ArrowArrayStream)))
    _free(ptr)


def export_stream(inner, profile, dest):
    """Fill `dest` (an ArrowArrayStream in memory that outlives this call) with
    a stream forwarding to `inner`, refusing get_next once the profile closed."""
    token = next(_tokens)
    _live[token] = _Forward(inner, profile)
    dest.get_schema = _fw_get_schema
    dest.get_next = _fw_get_next
    dest.get_last_error = _fw_get_last_error
    dest.release = _fw_release
    dest.private_data = token


class ArrowStream:
    """A table of a profile as an Arrow stream source (Profile.arrow_stream).

    Implements the Arrow PyCapsule interface: ``__arrow_c_stream__()`` returns a
    PyCapsule named "arrow_array_stream" holding a ``struct ArrowArrayStream``
    that the consumer moves out; every call opens a new stream over the table.
    With pyarrow installed::

        reader = pyarrow.RecordBatchReader.from_stream(profile.arrow_stream("Instruction"))
        table = reader.read_all()

    (polars.from_arrow / duckdb take the same object.)  Consume the stream
    before closing the profile: afterwards its get_next fails with EINVAL and a
    message; batches already received stay valid.
    """

    def __init__(self, profile, table, columns=None, **filters):
        # Opening once checks the table, the columns and the filters now.
        self._first = open_c_stream(profile, table, columns, **filters)
        self._profile = profile
        self._args = (table, None if columns is None else list(columns), filters)
        self.table = table

    def _take(self):
        s, self._first = self._first, None
        if s is None:
            table, columns, filters = self._args
            s = open_c_stream(self._profile, table, columns, **filters)
        return s

    def __arrow_c_stream__(self, requested_schema=None):
        """A PyCapsule "arrow_array_stream" (requested_schema is not applied:
        the stream has the table's own schema, which the consumer may cast)."""
        self._profile._handle()  # raises once the profile is closed
        inner = self._take()
        ptr = _malloc(ctypes.sizeof(S.ArrowArrayStream))
        if not ptr:
            _release(inner)
            raise MemoryError("ArrowArrayStream")
        dest = S.ArrowArrayStream.from_address(ptr)
        export_stream(inner, self._profile, dest)
        try:
            return _PyCapsule_New(ptr, _CAPSULE_NAME, _capsule_destructor)
        except BaseException:
            _fw_release(ctypes.cast(ptr, POINTER(S.ArrowArrayStream)))
            _free(ptr)
            raise

    def close(self):
        s, self._first = self._first, None
        if s is not None:
            _release(s)

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def __repr__(self):
        return f"<nxp.ArrowStream {self.table}>"


# ------------------------------------------------------------------ Parquet

_CODECS = {"zstd": S.NXP_PARQUET_ZSTD, "gzip": S.NXP_PARQUET_GZIP, "none": S.NXP_PARQUET_NONE, None: S.NXP_PARQUET_NONE}


def export_options(tables=None, compression="zstd", overwrite=False, level=0, threads=0):
    o = S.new(S.nxp_export_options)
    keep = []
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 0:
        raise ValueError(f"threads must be an int >= 0 (0 = one per CPU), not {threads!r}")
    o.threads = threads
    if compression not in _CODECS:
        raise ValueError(f"compression must be 'zstd', 'gzip' or 'none', not {compression!r}")
    o.codec = _CODECS[compression]
    if isinstance(level, bool) or not isinstance(level, int):
        raise TypeError("level must be an int")
    o.level = level
    o.overwrite = 1 if overwrite else 0
    if tables is not None:
        if isinstance(tables, (str, bytes)):
            raise TypeError("tables must be a list of table names, not a single string")
        names = [t.encode() for t in tables]
        arr = (c_char_p * (len(names) + 1))(*names, None)
        keep.append(arr)
        o.tables = ctypes.cast(arr, POINTER(c_char_p))
    return o, keep


def export_parquet(profile, directory, tables=None, compression="zstd", overwrite=False, level=0, threads=0):
    """Profile.export_parquet: DIR/<Table>.parquet for every table of the
    default set (or `tables`); returns the export's report as a dict."""
    d = fspath(directory, "directory")
    opts, keep = export_options(tables, compression, overwrite, level, threads)
    rep = S.new(S.nxp_export_report)
    opts.report = ctypes.pointer(rep)
    st = status()
    rc = fn.profile_export_parquet(profile._handle(), d, byref(opts), byref(st))
    del keep
    if rc < 0:
        raise_status(rc, st)
    return {"tables_written": rep.tables_written,
            "skipped_records": None if rep.skipped_records < 0 else rep.skipped_records,
            "skipped_sections": None if rep.skipped_sections < 0 else rep.skipped_sections}

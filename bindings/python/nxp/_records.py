# SPDX-License-Identifier: MIT
"""Light record objects over batches of C structs.

A cursor fetches records from C in batches (nxp_cursor_next_batch into a ctypes
array).  Converting every field of every record into Python objects is what
costs, so a record converts nothing up front: it is a 2-tuple (batch, index),
built at C speed, and each attribute is a property that reads one column of
its batch.  A batch decodes a column the first time any of its records asks for
it, in one C-speed strided slice over the raw bytes (memoryview.cast), so the
cost is paid per column per batch, not per field per record.

String fields are `const char *` owned by the profile.  Each distinct pointer
is resolved once into the profile's pointer -> str cache.  Before the profile
frees its strings (close), it resolves the string columns of every batch still
alive, so records stay valid after the profile is closed.
"""
import ctypes
import itertools

_PTR = "Q" if ctypes.sizeof(ctypes.c_void_p) == 8 else "I"

_CODES = {
    ctypes.c_int8: "b", ctypes.c_uint8: "B", ctypes.c_int16: "h", ctypes.c_uint16: "H",
    ctypes.c_int32: "i", ctypes.c_uint32: "I", ctypes.c_int64: "q", ctypes.c_uint64: "Q",
    ctypes.c_double: "d", ctypes.c_float: "f", ctypes.c_char_p: _PTR, ctypes.c_void_p: _PTR,
}
# ctypes aliases (c_int is c_int32, c_long is c_int64, ...) resolve through these.
for _t in (ctypes.c_int, ctypes.c_uint, ctypes.c_long, ctypes.c_ulong, ctypes.c_longlong, ctypes.c_ulonglong,
           ctypes.c_short, ctypes.c_ushort, ctypes.c_size_t, ctypes.c_ssize_t, ctypes.c_byte, ctypes.c_ubyte):
    _CODES.setdefault(_t, {1: "b", 2: "h", 4: "i", 8: "q"}[ctypes.sizeof(_t)]
                      if _t in (ctypes.c_int, ctypes.c_long, ctypes.c_longlong, ctypes.c_short, ctypes.c_ssize_t,
                                ctypes.c_byte)
                      else {1: "B", 2: "H", 4: "I", 8: "Q"}[ctypes.sizeof(_t)])


def decode_str(ptr_value):
    """Resolve a C string pointer now (NULL -> None)."""
    if not ptr_value:
        return None
    return ctypes.string_at(ptr_value).decode("utf-8", "replace")


class Batch:
    """Up to `n` structs in a ctypes array, decoded column by column on demand.

    `owner` is the handle that owns the strings the structs point to (it keeps
    a weak set of its live batches and calls intern() on each before it frees
    them); `strings` is its pointer -> str cache."""
    __slots__ = ("spec", "n", "array", "views", "cols", "owner", "strings", "_rows", "__weakref__")

    def __init__(self, spec, array, n, owner, strings):
        self.spec = spec
        self.n = n
        self.array = array
        self.views = None
        self.cols = [None] * len(spec.fields)
        self.owner = owner
        self.strings = strings
        self._rows = None

    def _slice(self, k):
        code, off, size = self.spec.columns[k]
        if self.views is None:
            self.views = {"B": memoryview(self.array).cast("B")}
        v = self.views.get(code)
        if v is None:
            v = self.views[code] = self.views["B"].cast(code)
        step = self.spec.stride // size
        start = off // size
        return v[start:start + step * self.n:step].tolist()

    def column(self, k):
        col = self.cols[k]
        if col is None:
            col = self._slice(k)
            if k in self.spec.string_set:
                strings = self.strings
                if self.owner is None:
                    # Only reachable for pointers the owner never handed out.
                    col = [strings.get(p) for p in col]
                else:
                    for p in set(col).difference(strings):
                        strings[p] = decode_str(p)
                    col = list(map(strings.__getitem__, col))
            self.cols[k] = col
        return col

    def intern(self):
        """Resolve every string column now: the owner is about to free them."""
        if self.owner is not None:
            for k in self.spec.string_idx:
                self.column(k)
            self.owner = None
            self.views = None

    def rows(self):
        if self._rows is None:
            self._rows = list(zip(*[self.column(k) for k in range(len(self.spec.fields))]))
        return self._rows


class Spec:
    """How to decode one struct type: its fields, their columns, the record class."""

    def __init__(self, struct, record_cls):
        self.struct = struct
        self.stride = ctypes.sizeof(struct)
        self.fields = []
        self.columns = []
        self.string_idx = []
        for name, ctype in struct._fields_:
            if name == "struct_size":
                continue
            desc = getattr(struct, name)
            code = _CODES.get(ctype)
            if code is None:
                raise TypeError(f"{struct.__name__}.{name}: no column code for {ctype}")
            size = ctypes.sizeof(ctype)
            if desc.offset % size or self.stride % size:
                raise TypeError(f"{struct.__name__}.{name}: misaligned column")
            if ctype is ctypes.c_char_p:
                self.string_idx.append(len(self.fields))
            self.fields.append(name)
            self.columns.append((code, desc.offset, size))
        self.string_set = frozenset(self.string_idx)
        self.record_cls = record_cls
        # The field a cursor orders by (what nxp_cursor_position reports).
        self.time_field = next((f for f in ("start_ts", "timestamp", "execution_start_ts") if f in self.fields), None)

    def records(self, array, n, owner, strings, index=None):
        """Records of the first `n` structs of `array` (a ctypes array that is
        not reused).  `owner` must call Batch.intern() on its live batches
        (owner.batches, a WeakSet) before it frees the strings.  `index`, when
        given, must be iter(range(n)): its length_hint() then tells how many
        records the returned iterator has not yielded yet."""
        batch = Batch(self, array, n, owner, strings)
        if self.string_idx and owner is not None:
            owner.batches.add(batch)
        return map(self.record_cls, zip(itertools.repeat(batch, n), range(n) if index is None else index))


_tget = tuple.__getitem__


def _getter(k):
    def get(self, _tget=_tget):
        b = _tget(self, 0)
        col = b.cols[k]
        if col is None:
            col = b.column(k)
        return col[_tget(self, 1)]
    return get


class Record(tuple):
    """Base of the light records.  Attributes are the public field names;
    `_fields` lists them, `_asdict()` / `_astuple()` convert a whole record."""
    __slots__ = ()
    _fields = ()

    def _astuple(self):
        return _tget(self, 0).rows()[_tget(self, 1)]

    def _asdict(self):
        return dict(zip(self._fields, self._astuple()))

    def __repr__(self):
        body = ", ".join(f"{k}={v!r}" for k, v in zip(self._fields, self._astuple()))
        return f"{type(self).__name__}({body})"

    def __eq__(self, other):
        if isinstance(other, Record):
            return type(self) is type(other) and self._astuple() == other._astuple()
        return NotImplemented

    def __ne__(self, other):
        r = self.__eq__(other)
        return r if r is NotImplemented else not r

    def __hash__(self):
        return hash(self._astuple())

    def __reduce__(self):
        return (_rebuild, (type(self).__name__, self._asdict()))

    # A record is not a sequence of its fields: hide the tuple protocol.
    def __len__(self):
        return len(self._fields)

    def __iter__(self):
        return iter(self._astuple())

    def __getitem__(self, i):
        return self._astuple()[i]


def record_type(name, struct, doc):
    """Define a Record subclass with one property per field of `struct`."""
    spec = Spec(struct, None)
    ns = {"__slots__": (), "__doc__": doc, "_fields": tuple(spec.fields)}
    for k, f in enumerate(spec.fields):
        ns[f] = property(_getter(k))
    cls = type(name, (Record,), ns)
    spec.record_cls = cls
    cls._spec = spec
    return cls


_TYPES = {}


def _rebuild(name, values):
    """Unpickle: a detached record holding converted values."""
    return _TYPES[name]._from_values(values)


def register(cls):
    _TYPES[cls.__name__] = cls

    def _from_values(values, cls=cls):
        spec = cls._spec
        batch = Batch(spec, None, 1, None, {})
        batch.cols = [[values[f]] for f in spec.fields]
        return cls((batch, 0))
    cls._from_values = staticmethod(_from_values)
    return cls

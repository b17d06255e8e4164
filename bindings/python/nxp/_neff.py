# SPDX-License-Identifier: MIT
"""nxp.Neff: the compiled program (header, subgraphs, tensors, DMA queues, instructions)."""
import collections
import ctypes

from . import _structs as S
from ._errors import closed, raise_code, raise_status
from ._lib import fn
from ._util import Closable, engine_arg, fspath, hexbytes, status, text

HEADER_KEYS = ("pkg_version", "header_size", "data_size", "neff_version_major", "neff_version_minor",
               "build_version", "num_tpb", "hash", "uuid", "name", "requested_tpb_count", "feature_bits",
               "lnc_size")

ENGINE_NAMES = ("tensor", "vector", "scalar", "gpsimd", "sync")


def _convert(v):
    if isinstance(v, bytes):
        return v.decode("utf-8", "replace")
    if v is None:
        return ""
    if isinstance(v, ctypes.Array):
        if v._type_ is ctypes.c_uint8:
            return bytes(v)
        return list(v)
    if isinstance(v, ctypes.Structure):
        return struct_values(v)
    return v


def struct_values(s, tuple_type=None):
    """All public fields of a ctypes struct (struct_size left out), converted."""
    names = [f for f, _ in s._fields_ if f != "struct_size"]
    vals = [_convert(getattr(s, f)) for f in names]
    if tuple_type is not None:
        return tuple_type(*vals)
    return dict(zip(names, vals))


def _fields(struct):
    return [f for f, _ in struct._fields_ if f != "struct_size"]


Subgraph = collections.namedtuple("Subgraph", _fields(S.nxp_neff_subgraph))
TensorInfo = collections.namedtuple("TensorInfo", _fields(S.nxp_tensor_info))
DmaQueueInfo = collections.namedtuple("DmaQueueInfo", _fields(S.nxp_dma_queue_info))
AccessPattern = collections.namedtuple("AccessPattern", _fields(S.nxp_access_pattern))
NeffInstruction = collections.namedtuple("NeffInstruction", _fields(S.nxp_neff_instruction))


def _instruction(s):
    d = struct_values(s)
    d["src"] = AccessPattern(**d["src"])
    d["dst"] = AccessPattern(**d["dst"])
    return NeffInstruction(**d)


def decode_instruction(raw, engine):
    """Statically decode one 64-byte instruction (no NEFF needed)."""
    if not isinstance(raw, (bytes, bytearray, memoryview)):
        raise TypeError("raw must be bytes")
    raw = bytes(raw)
    out = S.new(S.nxp_neff_instruction)
    text_buf = ctypes.create_string_buffer(256)
    rc = fn.instruction_decode(raw, len(raw), engine_arg(engine), ctypes.byref(out), text_buf, 256)
    if rc < 0:
        raise_code(rc)
    return _instruction(out)


class Engine:
    """One engine's instruction stream in one subgraph."""

    def __init__(self, neff, subgraph, engine_id):
        self._neff = neff
        self.subgraph = subgraph
        self.engine_id = engine_id
        self.name = ENGINE_NAMES[engine_id]

    @property
    def instruction_count(self):
        return self._neff.instruction_count(self.subgraph, self.engine_id)

    def __len__(self):
        return self.instruction_count

    def instructions(self):
        return self._neff.instructions(self.subgraph, self.engine_id)

    def __iter__(self):
        return self.instructions()

    def __repr__(self):
        return f"Engine(subgraph={self.subgraph}, name={self.name!r}, instruction_count={self.instruction_count})"


class Neff(Closable):
    """A NEFF opened from a path or from bytes.  Use as a context manager or
    call close(); every method raises nxp.InvalidArgumentError once closed."""

    def __init__(self, source, verify_hash=False):
        self._h = None
        self._src = None
        self._mem = None
        self._owner = None
        self._header = None
        opts = S.new(S.nxp_neff_options, flags=S.NXP_NEFF_VERIFY_HASH if verify_hash else 0)
        h = ctypes.c_void_p()
        st = status()
        if isinstance(source, (bytes, bytearray, memoryview)):
            data = bytes(source)
            self._mem = ctypes.create_string_buffer(data, len(data))
            src = ctypes.c_void_p()
            rc = fn.source_open_memory(ctypes.byref(src), self._mem, len(data), ctypes.byref(st))
            if rc < 0:
                raise_status(rc, st)
            rc = fn.neff_open(ctypes.byref(h), src, ctypes.byref(opts), ctypes.byref(st))
            if rc < 0:
                fn.source_close(src)
                raise_status(rc, st)
            self._src = src
        else:
            path = fspath(source, "source")
            rc = fn.neff_open_path(ctypes.byref(h), path, ctypes.byref(opts), ctypes.byref(st))
            if rc < 0:
                raise_status(rc, st, [(path, "file")])
        self._h = h

    @classmethod
    def _borrowed(cls, handle, owner):
        """A view of a NEFF owned by another handle (a Profile)."""
        self = cls.__new__(cls)
        self._h = ctypes.c_void_p(handle)
        self._src = None
        self._mem = None
        self._owner = owner
        self._header = None
        return self

    # -- lifetime
    def close(self):
        """Free the NEFF (a NEFF borrowed from a Profile is freed with it)."""
        h, self._h = self._h, None
        if h is not None and self._owner is None:
            fn.neff_close(h)
            if self._src is not None:
                fn.source_close(self._src)
        self._src = None
        self._mem = None


    def _handle(self):
        if self._h is None:
            raise closed("NEFF")
        return self._h

    # -- header
    @property
    def header(self):
        """The NEFF header as a dict with the keys of `nxp info --json`."""
        h = self._handle()
        if self._header is None:
            out = S.new(S.nxp_neff_header)
            rc = fn.neff_get_header(h, ctypes.byref(out))
            if rc < 0:
                raise_code(rc)
            d = {}
            for k in HEADER_KEYS:
                v = getattr(out, k)
                if k in ("hash", "uuid"):
                    v = hexbytes(v)
                elif isinstance(v, bytes):
                    v = text(v)
                d[k] = v
            d["tpb_per_node"] = list(out.tpb_per_node)
            d["hash_verified"] = bool(out.hash_verified)
            d["payload_gzip"] = bool(out.payload_gzip)
            self._header = d
        return dict(self._header)

    # -- tables
    def _rows(self, count_fn, get_fn, struct, tuple_type):
        h = self._handle()
        out = []
        for i in range(count_fn(h)):
            s = S.new(struct)
            rc = get_fn(h, i, ctypes.byref(s))
            if rc < 0:
                raise_code(rc)
            out.append(struct_values(s, tuple_type))
        return out

    @property
    def subgraphs(self):
        """Subgraph records (instruction_count is a list indexed by engine number)."""
        return self._rows(fn.neff_subgraph_count, fn.neff_get_subgraph, S.nxp_neff_subgraph, Subgraph)

    @property
    def tensors(self):
        """TensorInfo records of all subgraphs."""
        return self._rows(fn.neff_tensor_count, fn.neff_get_tensor, S.nxp_tensor_info, TensorInfo)

    @property
    def dma_queues(self):
        """DmaQueuesInfo records, one per queue instance."""
        return self._rows(fn.neff_dma_queue_count, fn.neff_get_dma_queue, S.nxp_dma_queue_info, DmaQueueInfo)

    @property
    def engines(self):
        """Every (subgraph, engine) instruction stream, as Engine objects."""
        n = fn.neff_subgraph_count(self._handle())
        return [Engine(self, sg, e) for sg in range(n) for e in range(S.NXP_ENGINE_COUNT)]

    def instruction_count(self, subgraph, engine):
        n = fn.neff_instruction_count(self._handle(), subgraph, engine_arg(engine))
        if n < 0:
            raise_code(S.NXP_E_RANGE, f"no subgraph {subgraph}")
        return n

    def instruction(self, subgraph, engine, pc):
        """The statically decoded instruction `pc` of an engine stream."""
        out = S.new(S.nxp_neff_instruction)
        rc = fn.neff_get_instruction(self._handle(), subgraph, engine_arg(engine), pc, ctypes.byref(out))
        if rc < 0:
            raise_code(rc)
        return _instruction(out)

    def instructions(self, subgraph, engine):
        """Iterator over an engine stream's instructions in pc order."""
        e = engine_arg(engine)
        n = self.instruction_count(subgraph, e)
        for pc in range(n):
            yield self.instruction(subgraph, e, pc)

    @property
    def has_kernel_debug_info(self):
        return bool(fn.neff_has_kernel_debug_info(self._handle()))

    def __repr__(self):
        if self._h is None:
            return "<nxp.Neff closed>"
        return f"<nxp.Neff {self.header['name']!r}>"


def parse_header(data, file_size=-1):
    """Parse a 1024-byte NEFF header from bytes (pure, no handle)."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError("data must be bytes")
    data = bytes(data)
    out = S.new(S.nxp_neff_header)
    st = status()
    rc = fn.neff_parse_header(data, len(data), file_size, ctypes.byref(out), ctypes.byref(st))
    if rc < 0:
        raise_status(rc, st)
    d = {k: getattr(out, k) for k in HEADER_KEYS}
    d["hash"] = hexbytes(out.hash)
    d["uuid"] = hexbytes(out.uuid)
    d["build_version"] = text(out.build_version)
    d["name"] = text(out.name)
    return d

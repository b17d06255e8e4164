# SPDX-License-Identifier: MIT
"""NEFF and NTFF writers (what tests, benchmarks and simulators use to make files)."""
import ctypes

from . import _structs as S
from ._errors import closed, path_error, path_problem, raise_code, raise_status
from ._lib import fn
from ._util import Closable, engine_arg, fspath, status

_libc_free = ctypes.CDLL(None).free
_libc_free.argtypes = [ctypes.c_void_p]
_libc_free.restype = None


def _uuid_bytes(v, n, what):
    if isinstance(v, str):
        v = bytes.fromhex(v)
    if not isinstance(v, (bytes, bytearray)):
        raise TypeError(f"{what} must be bytes or a hex str")
    if len(v) > n:
        raise ValueError(f"{what} is longer than {n} bytes")
    return bytes(v).ljust(n, b"\0")


def encode_instruction(opcode_num, engine=0, **fields):
    """Encode one 64-byte instruction from nxp_neff_instruction field values
    (src / dst may be dicts of nxp_access_pattern fields)."""
    ins = S.new(S.nxp_neff_instruction, opcode_num=opcode_num, engine=engine_arg(engine))
    for k, v in fields.items():
        if k in ("src", "dst"):
            ap = getattr(ins, k)
            for kk, vv in v.items():
                if kk in ("step_elem", "num_elem"):
                    getattr(ap, kk)[:len(vv)] = list(vv)
                else:
                    setattr(ap, kk, vv)
        elif not hasattr(ins, k) or k == "struct_size":
            raise TypeError(f"unknown instruction field {k!r}")
        else:
            setattr(ins, k, v)
    out = (ctypes.c_uint8 * 64)()
    rc = fn.instruction_encode(ctypes.byref(ins), out)
    if rc < 0:
        raise_code(rc)
    return bytes(out)


class NeffWriter(Closable):
    """Build a NEFF from archive members: add(path, data), then save(path) or to_bytes()."""

    def __init__(self, name="", uuid=b"", plain_tar=False, pkg_version=0, neff_version=(2, 0), num_tpb=0,
                 lnc_size=0, feature_bits=0, build_version=None):
        self._h = None
        self._keep = [name.encode()] + ([build_version.encode()] if build_version else [])
        opts = S.new(S.nxp_neff_writer_options, flags=S.NXP_NEFF_WRITE_PLAIN_TAR if plain_tar else 0,
                     pkg_version=pkg_version, neff_version_major=neff_version[0],
                     neff_version_minor=neff_version[1], name=self._keep[0], num_tpb=num_tpb, lnc_size=lnc_size,
                     feature_bits=feature_bits)
        if build_version:
            opts.build_version = self._keep[1]
        ctypes.memmove(opts.uuid, _uuid_bytes(uuid, 16, "uuid"), 16)
        h = ctypes.c_void_p()
        st = status()
        rc = fn.neff_writer_open(ctypes.byref(h), ctypes.byref(opts), ctypes.byref(st))
        if rc < 0:
            raise_status(rc, st)
        self._h = h

    def _handle(self):
        if self._h is None:
            raise closed("NEFF writer")
        return self._h

    def add(self, path, data):
        if isinstance(data, str):
            data = data.encode()
        data = bytes(data)
        rc = fn.neff_writer_add(self._handle(), path.encode(), data, len(data))
        if rc < 0:
            raise_code(rc)

    def save(self, path):
        path = fspath(path, "path")
        rc = fn.neff_writer_save(self._handle(), path)
        if rc < 0:
            err = path_problem(path, "write")
            if err is not None:
                raise path_error(path, err, fn.strerror(rc).decode())
            raise_code(rc)

    def to_bytes(self):
        p = ctypes.c_void_p()
        n = ctypes.c_size_t()
        rc = fn.neff_writer_save_memory(self._handle(), ctypes.byref(p), ctypes.byref(n))
        if rc < 0:
            raise_code(rc)
        try:
            return ctypes.string_at(p, n.value)
        finally:
            _libc_free(p)

    def close(self):
        h, self._h = self._h, None
        if h is not None:
            fn.neff_writer_close(h)


_NOTES = {
    "instruction": (S.nxp_ntff_instruction_note, "ntff_writer_instruction"),
    "dma": (S.nxp_ntff_dma_note, "ntff_writer_dma"),
    "semaphore": (S.nxp_ntff_semaphore_note, "ntff_writer_semaphore"),
    "throttle": (S.nxp_ntff_throttle_note, "ntff_writer_throttle"),
    "error": (S.nxp_ntff_error_note, "ntff_writer_error"),
    "execution": (S.nxp_ntff_execution_note, "ntff_writer_execution"),
    "tpb": (S.nxp_ntff_tpb_note, "ntff_writer_tpb"),
}

QUEUE_KINDS = {"instruction": S.NXP_QUEUE_INSTRUCTION, "dma": S.NXP_QUEUE_DMA, "semaphore": S.NXP_QUEUE_SEMAPHORE,
               "throttle": S.NXP_QUEUE_THROTTLE, "error": S.NXP_QUEUE_ERROR, "execution": S.NXP_QUEUE_EXECUTION,
               "tpb": S.NXP_QUEUE_TPB}


class NtffWriter:
    """Write an NTFF.  `info` holds nxp_ntff_info fields (neff_uuid / neff_hash as
    bytes or hex).  Declare queues with add_queue(), append notes with
    note(kind, queue, **fields) or the per-kind methods, then finish()."""

    def __init__(self, path, compress=False, records_per_section=0, **info):
        self._h = None
        self._keep = []
        inf = S.new(S.nxp_ntff_info, ntff_version=6, ticks_per_nanosec=1, num_physical_cores=1)
        for k, v in info.items():
            if k in ("neff_uuid", "neff_hash"):
                n = 16 if k == "neff_uuid" else 32
                ctypes.memmove(getattr(inf, k), _uuid_bytes(v, n, k), n)
            elif k == "struct_size" or not hasattr(inf, k):
                raise TypeError(f"unknown NTFF info field {k!r}")
            elif isinstance(v, str):
                b = v.encode()
                self._keep.append(b)
                setattr(inf, k, b)
            else:
                setattr(inf, k, v)
        opts = S.new(S.nxp_ntff_writer_options, flags=S.NXP_NTFF_WRITE_COMPRESS if compress else 0,
                     records_per_section=records_per_section, compression_level=-1)
        h = ctypes.c_void_p()
        st = status()
        path = fspath(path, "path")
        rc = fn.ntff_writer_open_path(ctypes.byref(h), path, ctypes.byref(inf), ctypes.byref(opts), ctypes.byref(st))
        if rc < 0:
            raise_status(rc, st, [(path, "write")])
        self._h = h
        self._notes = {k: (cls(), getattr(fn, f)) for k, (cls, f) in _NOTES.items()}

    def _handle(self):
        if self._h is None:
            raise closed("NTFF writer")
        return self._h

    def _fail(self, rc):
        st = status()
        fn.ntff_writer_error_status(self._h, ctypes.byref(st))
        raise_status(rc, st)

    def string(self, s):
        rc = fn.ntff_writer_string(self._handle(), s.encode())
        if rc < 0:
            self._fail(rc)
        return rc

    def add_queue(self, kind, engine=None, pcore_idx=0, name=None, queue_idx=0, engine_idx=0):
        kind = QUEUE_KINDS.get(kind, kind)
        q = S.new(S.nxp_ntff_queue, kind=kind, engine=-1 if engine is None else engine_arg(engine),
                  pcore_idx=pcore_idx, queue_idx=queue_idx, engine_idx=engine_idx)
        if name is not None:
            nb = name.encode()
            self._keep.append(nb)
            q.name = nb
        rc = fn.ntff_writer_add_queue(self._handle(), ctypes.byref(q))
        if rc < 0:
            self._fail(rc)
        return rc

    def note(self, kind, queue, **fields):
        h = self._handle()
        note, f = self._notes[kind]
        ctypes.memset(ctypes.byref(note), 0, ctypes.sizeof(note))
        for k, v in fields.items():
            setattr(note, k, v)
        rc = f(h, queue, ctypes.byref(note))
        if rc < 0:
            self._fail(rc)

    def instruction(self, queue, start_tick, end_tick, pc, wait_ticks=0, execution_index=-1):
        """Fast path for the most common note."""
        note, f = self._notes["instruction"]
        note.start_tick = start_tick
        note.end_tick = end_tick
        note.pc = pc
        note.wait_ticks = wait_ticks
        note.execution_index = execution_index
        rc = f(self._handle(), queue, ctypes.byref(note))
        if rc < 0:
            self._fail(rc)

    def finish(self):
        rc = fn.ntff_writer_finish(self._handle())
        if rc < 0:
            self._fail(rc)

    def close(self):
        h, self._h = self._h, None
        if h is not None:
            fn.ntff_writer_close(h)

    def __enter__(self):
        return self

    def __exit__(self, exc_type, *exc):
        if exc_type is None and self._h is not None:
            self.finish()
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

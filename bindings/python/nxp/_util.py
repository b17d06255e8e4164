# SPDX-License-Identifier: MIT
"""Small helpers shared by the modules of the binding."""
import ctypes
import os

from . import _structs as S
from ._errors import raise_code


def status():
    st = S.nxp_status()
    st.struct_size = ctypes.sizeof(st)
    st.code = 0
    st.offset = -1
    return st


def fspath(p, what):
    """A path argument as bytes for C, or TypeError."""
    if isinstance(p, (str, bytes, os.PathLike)):
        p = os.fsencode(p)
        if b"\0" in p:
            raise ValueError(f"{what}: path contains a NUL byte")
        return p
    raise TypeError(f"{what} must be a path (str, bytes or os.PathLike), not {type(p).__name__}")


def text(b):
    """A char* or char[] value from ctypes as str ('' for NULL)."""
    if b is None:
        return ""
    return b.decode("utf-8", "replace")


def hexbytes(arr):
    return bytes(arr).hex()


def check(rc, what="libnxp call"):
    if rc < 0:
        raise_code(rc)
    return rc


def engine_arg(engine):
    """An engine given as a name ('tensor', 'pe', ...) or a number -> number; None -> -1."""
    from ._lib import fn
    if engine is None:
        return -1
    if isinstance(engine, bool):
        raise TypeError("engine must be a name or an int")
    if isinstance(engine, int):
        if not 0 <= engine < S.NXP_ENGINE_COUNT:
            raise_code(S.NXP_E_RANGE, f"engine {engine} out of range (0..{S.NXP_ENGINE_COUNT - 1})")
        return engine
    if isinstance(engine, str):
        e = fn.engine_from_name(engine.encode())
        if e < 0:
            raise_code(S.NXP_E_INVAL, f"unknown engine {engine!r}")
        return e
    raise TypeError(f"engine must be a name or an int, not {type(engine).__name__}")


def ts_arg(v, default, what):
    if v is None:
        return default
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError(f"{what} must be an int (nanoseconds) or None")
    return v


class Closable:
    """Context manager and finaliser of every class that owns a C handle:
    subclasses define close() (idempotent) and keep the handle in self._h."""

    __slots__ = ()

    @property
    def closed(self):
        return self._h is None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

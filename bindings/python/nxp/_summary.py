# SPDX-License-Identifier: MIT
"""Summary metrics: conversion of nxp_summary objects, hardware tables, derive_summary()."""
import ctypes
import math

from . import _structs as S
from ._errors import raise_code
from ._lib import fn
from ._util import text

_HW_FIELDS = tuple(f for f, _ in S.nxp_hardware._fields_ if f != "struct_size")


def _field(s, i):
    f = S.new(S.nxp_summary_field)
    rc = fn.summary_get_field(s, i, ctypes.byref(f))
    if rc < 0:
        raise_code(rc)
    return f


def summary_dict(s):
    """Present fields of a C summary as {name: int or float}."""
    out = {}
    for i in range(fn.summary_field_count(s)):
        f = _field(s, i)
        if f.present:
            out[text(f.name)] = f.i if f.kind == S.NXP_VALUE_INT else f.f
    return out


def summary_fields():
    """Every Summary field this library knows: list of dicts (name, unit, group,
    kind 'int'/'float', extension, derived)."""
    s = ctypes.c_void_p()
    rc = fn.summary_new(ctypes.byref(s))
    if rc < 0:
        raise_code(rc)
    try:
        out = []
        for i in range(fn.summary_field_count(s)):
            f = _field(s, i)
            out.append({"name": text(f.name), "unit": text(f.unit), "group": text(f.group),
                        "kind": "int" if f.kind == S.NXP_VALUE_INT else "float",
                        "extension": bool(f.extension), "derived": bool(f.derived)})
        return out
    finally:
        fn.summary_close(s)


def _rows(s, count_fn, get_fn, struct):
    out = []
    for i in range(count_fn(s)):
        r = S.new(struct)
        rc = get_fn(s, i, ctypes.byref(r))
        if rc < 0:
            raise_code(rc)
        d = {}
        for name, _ in struct._fields_:
            if name == "struct_size":
                continue
            v = getattr(r, name)
            d[name] = text(v) if isinstance(v, bytes) or v is None else v
        out.append(d)
    return out


def summary_opcodes(s):
    return _rows(s, fn.summary_opcode_count, fn.summary_get_opcode, S.nxp_opcode_summary)


def summary_throttles(s):
    return _rows(s, fn.summary_throttle_count, fn.summary_get_throttle, S.nxp_throttle_summary)


def _hardware(arch, overrides):
    if not isinstance(arch, str):
        raise TypeError(f"arch must be a str, not {type(arch).__name__}")
    hw = S.new(S.nxp_hardware)
    rc = fn.hardware_for_arch(arch.encode(), ctypes.byref(hw))
    if rc < 0:
        raise_code(rc, f"unknown arch {arch!r}" if rc == S.NXP_E_NOT_FOUND else None)
    for k, v in overrides.items():
        if k not in _HW_FIELDS or k == "arch":
            raise TypeError(f"unknown hardware field {k!r} (known: {', '.join(_HW_FIELDS[1:])})")
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise TypeError(f"hardware field {k!r} must be a number")
        setattr(hw, k, v)
    return hw


def hardware_for_arch(arch, **overrides):
    """libnxp's hardware description of an arch ("trn1", "inf2", "trn2", "trn3")
    as a dict, with optional overrides; max_ops is added (FLOP/s)."""
    hw = _hardware(arch, overrides)
    d = {k: getattr(hw, k) for k in _HW_FIELDS}
    d["arch"] = text(hw.arch)
    d["max_ops"] = fn.hardware_max_ops(ctypes.byref(hw))
    return d


def derive_summary(counters, arch, **hardware_overrides):
    """The pure derivation: raw counters (Summary field names -> numbers) plus the
    hardware of `arch` (with overrides) -> every Summary field they support."""
    if not isinstance(counters, dict):
        raise TypeError("counters must be a dict of Summary field names to numbers")
    hw = _hardware(arch, hardware_overrides)
    s = ctypes.c_void_p()
    rc = fn.summary_new(ctypes.byref(s))
    if rc < 0:
        raise_code(rc)
    try:
        for k, v in counters.items():
            if not isinstance(k, str):
                raise TypeError("counter names must be str")
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise TypeError(f"counter {k!r} must be a number")
            if isinstance(v, float) and not math.isfinite(v):
                raise_code(S.NXP_E_INVAL, f"counter {k!r} is not finite")
            rc = fn.summary_set(s, k.encode(), float(v))
            if rc < 0:
                raise_code(rc, f"unknown Summary field {k!r}" if rc == S.NXP_E_NOT_FOUND else None)
        rc = fn.summary_derive(s, ctypes.byref(hw))
        if rc < 0:
            raise_code(rc)
        return summary_dict(s)
    finally:
        fn.summary_close(s)

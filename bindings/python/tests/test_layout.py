# SPDX-License-Identifier: MIT
"""The ctypes mirrors match the C headers (sizes, alignments, field offsets and
sizes, constants), as printed by tests/abi_layout."""
import ctypes

from nxp import _structs as S


def test_every_struct_matches(layout):
    c_structs = layout["structs"]
    assert len(c_structs) >= 46
    problems = []
    for name, c in c_structs.items():
        py = S.STRUCTS.get(name)
        if py is None:
            problems.append(f"{name}: no Python mirror")
            continue
        if (ctypes.sizeof(py), ctypes.alignment(py)) != (c["size"], c["align"]):
            problems.append(f"{name}: C {c['size']}/{c['align']}, Python {ctypes.sizeof(py)}/{ctypes.alignment(py)}")
        py_fields = [f for f, _ in py._fields_]
        if py_fields != list(c["fields"]):
            problems.append(f"{name}: fields differ: C {list(c['fields'])} Python {py_fields}")
        for f, cf in c["fields"].items():
            d = getattr(py, f, None)
            if d is not None and (d.offset, d.size) != (cf["offset"], cf["size"]):
                problems.append(f"{name}.{f}: C {cf['offset']}+{cf['size']}, Python {d.offset}+{d.size}")
    for name in S.STRUCTS:
        if name not in c_structs:
            problems.append(f"{name}: not printed by abi_layout")
    assert not problems, "\n".join(problems)


def test_every_constant_matches(layout):
    c = layout["constants"]
    assert len(c) >= 84
    mismatched = {k: (v, S.CONSTANTS.get(k)) for k, v in c.items() if S.CONSTANTS.get(k) != v}
    assert not mismatched, mismatched
    missing = set(S.CONSTANTS) - set(c)
    assert not missing, f"Python constants the C tool does not know: {missing}"


def test_error_classes_cover_every_code(layout):
    import nxp
    codes = {k: v for k, v in layout["constants"].items() if k.startswith("NXP_E_")}
    for name, code in codes.items():
        e = nxp._errors.error_for(code, "m", 5)
        assert e.code == code and e.offset == 5 and e.name == name
        assert type(e) is not nxp.Error, f"{name} has no specific class"
        assert nxp.strerror(code) and nxp.strerror(code) != "unknown error"

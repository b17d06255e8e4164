# SPDX-License-Identifier: MIT
"""The PEP 517 build backend of the `nxp` package, standard library only.

The package is pure Python (ctypes): a wheel is the `nxp/` directory plus its
metadata.  Keeping the backend in the tree means `pip install ./bindings/python`
needs nothing from an index: it works offline, with or without build isolation,
with any pip >= 21.  (Debian 12's venv setuptools 66 cannot build wheels without
the separate `wheel` package, which an offline venv does not have.)
"""
import base64
import hashlib
import io
import os
import re
import tarfile
import time
import zipfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAME = "nxp"
SUMMARY = "Read AWS Neuron profiles (NEFF programs, NTFF device traces, system profiles) through libnxp"
TAG = "py3-none-any"
# Reproducible archives: a fixed date unless SOURCE_DATE_EPOCH says otherwise.
EPOCH = int(os.environ.get("SOURCE_DATE_EPOCH", "1704067200"))


def _version():
    with open(os.path.join(HERE, NAME, "__init__.py"), encoding="utf-8") as f:
        m = re.search(r'^__version__ = "([0-9][0-9A-Za-z.+-]*)"', f.read(), re.M)
    if not m:
        raise RuntimeError("nxp/__init__.py: no __version__ line")
    return m.group(1)


def _metadata():
    return (f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {_version()}\nSummary: {SUMMARY}\n"
            "License: MIT\nRequires-Python: >=3.9\n"
            "Classifier: License :: OSI Approved :: MIT License\n"
            "Classifier: Programming Language :: Python :: 3\n"
            "Classifier: Operating System :: POSIX :: Linux\n"
            "Description-Content-Type: text/plain\n\n"
            "Python (ctypes) binding of libnxp. It loads libnxp.so.0 through the system loader\n"
            "(an installed libnxp) or the file NXP_LIBRARY names.\n")


def _sources():
    """(archive name, path) of every module of the package, sorted."""
    out = []
    for root, dirs, files in os.walk(os.path.join(HERE, NAME)):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for f in sorted(files):
            if f.endswith(".py"):
                p = os.path.join(root, f)
                out.append((os.path.relpath(p, HERE).replace(os.sep, "/"), p))
    return out


def _wheel(wheel_directory, files):
    """Write a wheel of `files` ((name, bytes) pairs) plus its dist-info."""
    ver = _version()
    info = f"{NAME}-{ver}.dist-info"
    files = list(files) + [
        (f"{info}/METADATA", _metadata().encode()),
        (f"{info}/WHEEL", f"Wheel-Version: 1.0\nGenerator: nxp_build\nRoot-Is-Purelib: true\nTag: {TAG}\n".encode()),
        (f"{info}/top_level.txt", f"{NAME}\n".encode()),
    ]
    record = []
    for name, data in files:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{name},sha256={digest},{len(data)}")
    record.append(f"{info}/RECORD,,")
    files.append((f"{info}/RECORD", ("\n".join(record) + "\n").encode()))
    wheel_name = f"{NAME}-{ver}-{TAG}.whl"
    date = time.gmtime(max(EPOCH, 315532800))[:6]
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel_name), "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files:
            zi = zipfile.ZipInfo(name, date)
            zi.external_attr = 0o644 << 16
            zi.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(zi, data)
    return wheel_name


def _read(path):
    with open(path, "rb") as f:
        return f.read()


# ---- PEP 517 -------------------------------------------------------------------------------

def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _wheel(wheel_directory, [(name, _read(p)) for name, p in _sources()])


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    """PEP 660: a wheel whose .pth puts this source directory on sys.path."""
    return _wheel(wheel_directory, [(f"_{NAME}_editable.pth", (HERE + "\n").encode())])


def build_sdist(sdist_directory, config_settings=None):
    ver = _version()
    base = f"{NAME}-{ver}"
    name = f"{base}.tar.gz"
    members = [(rel, p) for rel, p in _sources()]
    members += [("pyproject.toml", os.path.join(HERE, "pyproject.toml")),
                ("_build/nxp_build.py", os.path.abspath(__file__))]
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz", format=tarfile.PAX_FORMAT) as t:
        for rel, p in members + [("PKG-INFO", None)]:
            data = _metadata().encode() if p is None else _read(p)
            ti = tarfile.TarInfo(f"{base}/{rel}")
            ti.size, ti.mtime, ti.mode = len(data), EPOCH, 0o644
            t.addfile(ti, io.BytesIO(data))
    return name

# SPDX-License-Identifier: MIT
"""A missing, unreadable or wrong-kind path raises what a Python user catches:
FileNotFoundError, PermissionError, IsADirectoryError, NotADirectoryError (each
also an nxp.InputOutputError, with errno and filename set); and the loader's
rules (NXP_LIBRARY, the system loader, never a guessed build tree)."""
import errno
import os
import shutil
import subprocess
import sys
import tempfile

import pytest

import nxp

PKG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(nxp.__file__)))


def _check(ei, cls, err, path):
    e = ei.value
    assert isinstance(e, cls) and isinstance(e, nxp.InputOutputError) and isinstance(e, OSError)
    assert e.errno == err and e.filename == os.fsdecode(path)
    assert e.code == nxp.constants.NXP_E_IO
    assert str(e).startswith(f"{os.fsdecode(path)}: {os.strerror(err)}")


def _readers(pair):
    """Every reading entry point given `path` where the pair's file would go."""
    neff, ntff = pair["neff"], pair["ntff"]
    return {
        "Profile(neff=path)": lambda p: nxp.Profile(p, ntff),
        "Profile(ntff=path)": lambda p: nxp.Profile(neff, p),
        "Neff": nxp.Neff,
        "system_events": lambda p: list(nxp.system_events(p)),
        "cpu_usage": lambda p: list(nxp.cpu_usage(p)),
        "host_mem_usage": lambda p: list(nxp.host_mem_usage(p)),
        "trace_info": nxp.trace_info,
        "clock_map": nxp.clock_map,
    }


def test_missing_file(pair, tmp_path):
    missing = tmp_path / "nosuch.neff"
    for what, f in _readers(pair).items():
        with pytest.raises(FileNotFoundError) as ei:
            f(str(missing))
        _check(ei, nxp.NoSuchFileError, errno.ENOENT, missing)
    with pytest.raises(FileNotFoundError) as ei:
        nxp.Capture(missing)
    _check(ei, nxp.NoSuchFileError, errno.ENOENT, missing)
    # Writers: the directory to write into does not exist.
    out = tmp_path / "nodir" / "x.pb"
    for f in (lambda p: nxp.SysprofWriter(p, "ntrace"), lambda p: nxp.trace_info_write(p, arch="trn2"),
              lambda p: nxp.trace_json_write(p, [])):
        with pytest.raises(FileNotFoundError) as ei:
            f(out)
        _check(ei, nxp.NoSuchFileError, errno.ENOENT, out)


def test_directory_where_a_file_is_expected(pair, tmp_path):
    d = tmp_path / "adir"
    d.mkdir()
    for what, f in _readers(pair).items():
        if what in ("system_events", "clock_map"):
            continue  # a directory is a capture there
        with pytest.raises(IsADirectoryError) as ei:
            f(d)
        _check(ei, nxp.IsDirectoryError, errno.EISDIR, d)
    with pytest.raises(IsADirectoryError) as ei:
        nxp.trace_info_write(d, arch="trn2")
    _check(ei, nxp.IsDirectoryError, errno.EISDIR, d)
    # Directories in memory are not a thing: bytes keep their meaning.
    with pytest.raises(nxp.FormatError):
        nxp.Neff(b"x" * 10)


def test_file_where_a_directory_is_expected(pair):
    with pytest.raises(NotADirectoryError) as ei:
        nxp.Capture(pair["neff"])
    _check(ei, nxp.NotDirectoryError, errno.ENOTDIR, pair["neff"])
    inside = os.path.join(pair["neff"], "x.neff")  # a file used as a directory in the path
    with pytest.raises(NotADirectoryError) as ei:
        nxp.Neff(inside)
    _check(ei, nxp.NotDirectoryError, errno.ENOTDIR, inside)


_UNREADABLE = r"""
import errno, os, sys
import nxp
path, neff = sys.argv[1], sys.argv[2]
cases = [("Neff", lambda: nxp.Neff(path)), ("Profile", lambda: nxp.Profile(neff, path)),
         ("system_events", lambda: list(nxp.system_events(path))), ("trace_info", lambda: nxp.trace_info(path)),
         ("write", lambda: nxp.trace_info_write(path, arch="trn2"))]
for what, f in cases:
    try:
        f()
    except PermissionError as e:
        assert isinstance(e, nxp.PermissionDeniedError) and isinstance(e, nxp.InputOutputError), what
        assert e.errno == errno.EACCES and e.filename == path, (what, e.errno, e.filename)
        assert str(e).startswith(path + ": " + os.strerror(errno.EACCES)), (what, str(e))
        print(what, "PermissionError")
    else:
        raise SystemExit(what + ": no error")
"""


def test_unreadable_file(pair):
    """As root every file is readable, so the check then runs as `nobody`."""
    d = tempfile.mkdtemp(prefix="nxp-perm-")
    try:
        os.chmod(d, 0o755)
        path = os.path.join(d, "locked.ntff")
        shutil.copy(pair["ntff"], path)
        os.chmod(path, 0)
        neff = os.path.join(d, "pair.neff")
        shutil.copy(pair["neff"], neff)
        os.chmod(neff, 0o644)
        env = dict(os.environ, PYTHONPATH=PKG_DIR)
        kw = {}
        if os.geteuid() == 0:
            kw = {"user": 65534, "group": 65534, "extra_groups": []}
        r = subprocess.run([sys.executable, "-c", _UNREADABLE, path, neff], env=env, capture_output=True, text=True,
                           cwd=d, **kw)
        assert r.returncode == 0, r.stderr
        assert r.stdout.split() == ["Neff", "PermissionError", "Profile", "PermissionError", "system_events",
                                    "PermissionError", "trace_info", "PermissionError", "write", "PermissionError"]
    finally:
        shutil.rmtree(d)


def test_version():
    assert nxp.__version__ == nxp.library_version == nxp.version()
    parts = nxp.__version__.split(".")
    assert len(parts) == 3 and all(p.isdigit() for p in parts)
    assert os.path.exists(nxp.library_path)


def _import(env, cwd):
    code = "import nxp; print(nxp.library_path)"
    return subprocess.run([sys.executable, "-c", code], env=env, cwd=cwd, capture_output=True, text=True)


def test_loader_rules(tmp_path):
    """NXP_LIBRARY is final; without it only the system loader is asked (here
    it is told nothing, so the import fails with a message naming NXP_LIBRARY,
    although this checkout may hold a build tree)."""
    lib = os.environ.get("NXP_LIBRARY")
    if not lib:
        pytest.skip("NXP_LIBRARY not set (run through `meson test python`)")
    base = {k: v for k, v in os.environ.items() if k not in ("NXP_LIBRARY", "LD_LIBRARY_PATH")}
    base["PYTHONPATH"] = PKG_DIR
    r = _import(dict(base, NXP_LIBRARY=lib), tmp_path)
    assert r.returncode == 0 and r.stdout.strip() == lib, r.stderr
    r = _import(dict(base, NXP_LIBRARY=str(tmp_path / "libnxp.so.0")), tmp_path)
    assert r.returncode != 0 and "ImportError" in r.stderr and "NXP_LIBRARY" in r.stderr
    # The system loader finds libnxp.so.0 through LD_LIBRARY_PATH; library_path names the file.
    r = _import(dict(base, LD_LIBRARY_PATH=os.path.dirname(lib)), tmp_path)
    assert r.returncode == 0, r.stderr
    assert os.path.samefile(r.stdout.strip(), lib)
    r = _import(base, tmp_path)
    if r.returncode == 0:
        # An installed libnxp (ldconfig) is what the system loader is for; never the build tree.
        assert not os.path.samefile(r.stdout.strip(), lib)
    else:
        assert "ImportError" in r.stderr and "NXP_LIBRARY" in r.stderr and "libnxp.so.0" in r.stderr

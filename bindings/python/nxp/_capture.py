# SPDX-License-Identifier: MIT
"""nxp.Capture: a capture directory (process directories, .pb files, trace.json,
NEFF/NTFF device profiles and how they were paired)."""
import collections
import ctypes

from . import _structs as S
from ._errors import closed, raise_code, raise_status
from ._lib import fn
from ._neff import struct_values
from ._profile import Profile, profile_options
from ._system import SystemEvents, options
from ._util import Closable, fspath, status


def _fields(struct):
    return [f for f, _ in struct._fields_ if f != "struct_size"]


CaptureFile = collections.namedtuple("CaptureFile", _fields(S.nxp_capture_file))
CaptureProcess = collections.namedtuple("CaptureProcess", _fields(S.nxp_capture_process))
CaptureProfile = collections.namedtuple("CaptureProfile", _fields(S.nxp_capture_profile))

#: nxp_pairing numbers by name.
PAIRINGS = {S.NXP_PAIRED_NONE: "none", S.NXP_PAIRED_BY_UUID: "uuid", S.NXP_PAIRED_BY_NAME: "name",
            S.NXP_PAIRED_SOLE: "sole"}


def _list(h, count_fn, get_fn, struct, tuple_type, fix=None):
    out = []
    for i in range(count_fn(h)):
        r = S.new(struct)
        rc = get_fn(h, i, ctypes.byref(r))
        if rc < 0:
            raise_code(rc)
        d = struct_values(r)
        if fix:
            fix(d)
        out.append(tuple_type(**d))
    return out


def _file_fix(d):
    d["uuid"] = d["uuid"].hex() if d["has_uuid"] else ""


class Capture(Closable):
    """A capture directory, discovered recursively (both known layouts).

    `files`, `processes` and `profiles` are lists of namedtuples with the C
    field names (indices refer into `files` / `processes`, -1 = none; a
    CaptureFile's uuid is hex, "" when not read); `problems` lists missing
    required files, unpaired NEFF/NTFF and empty NTFFs as sentences.
    open_profile(i) opens device profile i as an nxp.Profile; events(process)
    is a SystemEvents cursor over its ntrace.pb and trace.json."""

    def __init__(self, directory):
        self._h = None
        h = ctypes.c_void_p()
        st = status()
        path = fspath(directory, "directory")
        rc = fn.capture_open(ctypes.byref(h), path, ctypes.byref(st))
        if rc < 0:
            raise_status(rc, st, [(path, "dir")])
        self._h = h
        try:
            self.files = _list(h, fn.capture_file_count, fn.capture_get_file, S.nxp_capture_file, CaptureFile,
                               _file_fix)
            self.processes = _list(h, fn.capture_process_count, fn.capture_get_process, S.nxp_capture_process,
                                   CaptureProcess)
            self.profiles = _list(h, fn.capture_profile_count, fn.capture_get_profile, S.nxp_capture_profile,
                                  CaptureProfile)
            self.problems = [fn.capture_problem(h, i).decode("utf-8", "replace")
                             for i in range(fn.capture_problem_count(h))]
        except BaseException:
            self.close()
            raise
        self.directory = directory

    def _handle(self):
        if self._h is None:
            raise closed("capture")
        return self._h

    def open_profile(self, index, allow_mismatch=False, skip_crc=False):
        """Device profile `index` (a NEFF/NTFF pair) as an nxp.Profile.
        RangeError for a bad index, NotFoundError when a side is missing."""
        if isinstance(index, bool) or not isinstance(index, int):
            raise TypeError("index must be an int")
        h = self._handle()
        if index < 0:
            raise_code(S.NXP_E_RANGE, f"profile {index} of {len(self.profiles)}")
        opts = profile_options(allow_mismatch, skip_crc)
        p = ctypes.c_void_p()
        st = status()
        rc = fn.capture_open_profile(h, index, ctypes.byref(opts), ctypes.byref(p), ctypes.byref(st))
        if rc < 0:
            raise_status(rc, st)
        return Profile._adopt(p)

    def events(self, process=None, **opts):
        """A SystemEvents cursor over the ntrace.pb then trace.json of process
        index `process` (every process when None), instance_id from the
        directory name.  Options as for SystemEvents."""
        if process is not None and (isinstance(process, bool) or not isinstance(process, int)):
            raise TypeError("process must be an int or None")
        h = self._handle()
        o, keep = options(**opts)
        c = ctypes.c_void_p()
        st = status()
        rc = fn.capture_open_events(h, -1 if process is None else process, ctypes.byref(o), ctypes.byref(c),
                                    ctypes.byref(st))
        if rc < 0:
            raise_status(rc, st)
        return SystemEvents._adopt(c, keep)

    def close(self):
        """Free the C handle.  Profiles and cursors opened from it stay usable."""
        h, self._h = self._h, None
        if h is not None:
            fn.capture_close(h)


    def __repr__(self):
        return (f"<nxp.Capture {len(self.processes)} processes, {len(self.profiles)} device profiles, "
                f"{len(self.problems)} problems>")

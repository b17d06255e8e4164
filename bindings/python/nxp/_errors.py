# SPDX-License-Identifier: MIT
"""The exception hierarchy: one class per family of nxp_error codes."""
import errno
import os
import stat

from . import _structs as S


class Error(Exception):
    """A libnxp failure: `.code` (negative nxp_error), `.message`, `.offset`
    (byte offset of the fault in the input, or -1)."""

    def __init__(self, code, message, offset=-1):
        self.code = code
        self.message = message
        self.offset = offset
        text = message
        if offset is not None and offset >= 0:
            text = f"{message} (at byte {offset})"
        super().__init__(text)

    @property
    def name(self):
        return CODE_NAMES.get(self.code, str(self.code))


class InvalidArgumentError(Error, ValueError):
    """NXP_E_INVAL: invalid argument or misuse (e.g. a closed handle)."""


class NoMemoryError(Error, MemoryError):
    """NXP_E_NOMEM."""


class InputOutputError(Error, OSError):
    """NXP_E_IO: the operating system reported an error.  Also an OSError;
    for a path that is missing, unreadable or of the wrong kind the error is
    one of the subclasses below, with `.errno`, `.strerror` and `.filename`."""

    __str__ = Exception.__str__  # nxp's message, not OSError's "[Errno N] ..."


class NoSuchFileError(InputOutputError, FileNotFoundError):
    """A path that does not exist (ENOENT)."""


class PermissionDeniedError(InputOutputError, PermissionError):
    """A path this process may not read, or write (EACCES, EPERM)."""


class IsDirectoryError(InputOutputError, IsADirectoryError):
    """A directory where a file was expected (EISDIR)."""


class NotDirectoryError(InputOutputError, NotADirectoryError):
    """A file where a directory was expected, or a file used as a directory
    inside a path (ENOTDIR)."""


class FormatError(Error):
    """Malformed input: NXP_E_FORMAT and the more specific codes below."""


class TruncatedError(FormatError):
    """NXP_E_TRUNCATED: input ended inside a structure."""


class ChecksumError(FormatError):
    """NXP_E_HASH (payload digest) or NXP_E_CRC (section checksum)."""


class UnsafePathError(FormatError):
    """NXP_E_UNSAFE_PATH: archive member name is absolute or contains '..'."""


class JSONError(FormatError):
    """NXP_E_JSON."""


class CompressionError(FormatError):
    """NXP_E_COMPRESSION."""


class ProtobufError(FormatError):
    """NXP_E_PROTOBUF."""


class VersionError(Error):
    """NXP_E_VERSION: unsupported format version."""


class LimitError(Error):
    """NXP_E_LIMIT: a safety limit was exceeded."""


class MismatchError(Error):
    """NXP_E_MISMATCH: the NEFF and NTFF are from different compilations."""


class NotFoundError(Error, LookupError):
    """NXP_E_NOT_FOUND: a required member, file or item is missing."""


class UnsupportedError(Error):
    """NXP_E_UNSUPPORTED: valid input this build cannot handle."""


class RangeError(Error, IndexError):
    """NXP_E_RANGE: index or value out of range."""


CODE_CLASSES = {
    S.NXP_E_INVAL: InvalidArgumentError,
    S.NXP_E_NOMEM: NoMemoryError,
    S.NXP_E_IO: InputOutputError,
    S.NXP_E_TRUNCATED: TruncatedError,
    S.NXP_E_FORMAT: FormatError,
    S.NXP_E_VERSION: VersionError,
    S.NXP_E_LIMIT: LimitError,
    S.NXP_E_HASH: ChecksumError,
    S.NXP_E_CRC: ChecksumError,
    S.NXP_E_MISMATCH: MismatchError,
    S.NXP_E_NOT_FOUND: NotFoundError,
    S.NXP_E_UNSAFE_PATH: UnsafePathError,
    S.NXP_E_JSON: JSONError,
    S.NXP_E_UNSUPPORTED: UnsupportedError,
    S.NXP_E_COMPRESSION: CompressionError,
    S.NXP_E_RANGE: RangeError,
    S.NXP_E_PROTOBUF: ProtobufError,
}

CODE_NAMES = {v: k for k, v in S.CONSTANTS.items() if k.startswith("NXP_E_")}


def error_for(code, message, offset=-1):
    return CODE_CLASSES.get(code, Error)(code, message, offset)


def raise_code(code, message=None, offset=-1):
    if message is None or message == "":
        from ._lib import fn
        message = fn.strerror(code).decode()
    raise error_for(code, message, offset)


ERRNO_CLASSES = {
    errno.ENOENT: NoSuchFileError,
    errno.EACCES: PermissionDeniedError,
    errno.EPERM: PermissionDeniedError,
    errno.EISDIR: IsDirectoryError,
    errno.ENOTDIR: NotDirectoryError,
}


def path_problem(path, expect="file"):
    """The errno that explains why `path` cannot be used, or None.

    expect: "file" (read a file), "dir" (read a directory), "any" (read a file
    or a directory), "write" (create or replace a file)."""
    try:
        if expect == "write":
            try:
                st = os.stat(path)
            except FileNotFoundError:
                parent = os.path.dirname(os.path.abspath(os.fsdecode(path)))
                pst = os.stat(parent)
                if not stat.S_ISDIR(pst.st_mode):
                    return errno.ENOTDIR
                return None if os.access(parent, os.W_OK | os.X_OK) else errno.EACCES
            if stat.S_ISDIR(st.st_mode):
                return errno.EISDIR
            return None if os.access(path, os.W_OK) else errno.EACCES
        st = os.stat(path)
    except OSError as e:
        return e.errno
    isdir = stat.S_ISDIR(st.st_mode)
    if expect == "file" and isdir:
        return errno.EISDIR
    if expect == "dir" and not isdir:
        return errno.ENOTDIR
    return None if os.access(path, os.R_OK | (os.X_OK if isdir else 0)) else errno.EACCES


def path_error(path, err, detail=""):
    """The nxp error for `path` and errno `err`: an InputOutputError that is
    also the matching OSError subclass (FileNotFoundError, ...)."""
    name = os.fsdecode(path)
    reason = os.strerror(err)
    message = f"{name}: {reason}"
    if detail and detail != message:
        message += f" ({detail})"
    e = ERRNO_CLASSES.get(err, InputOutputError)(S.NXP_E_IO, message, -1)
    e.errno, e.strerror, e.filename = err, reason, name
    return e


def raise_status(rc, st, paths=()):
    """Raise from a C return code and the nxp_status it filled.  `paths`:
    (path, expect) pairs the call used (see path_problem); when one of them
    is missing, unreadable or of the wrong kind, that is the error raised."""
    code = st.code if st.code < 0 else rc
    msg = st.message.decode("utf-8", "replace")
    for path, expect in paths:
        err = path_problem(path, expect)
        if err is not None:
            raise path_error(path, err, msg)
    raise_code(code, msg, st.offset)


def closed(what):
    return InvalidArgumentError(S.NXP_E_INVAL, f"{what} is closed", -1)

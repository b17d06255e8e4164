# SPDX-License-Identifier: MIT
"""The exception hierarchy: one class per family of nxp_error codes."""
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


class InputOutputError(Error):
    """NXP_E_IO: the operating system reported an error (e.g. a missing file)."""


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


def raise_status(rc, st):
    """Raise from a C return code and the nxp_status it filled."""
    code = st.code if st.code < 0 else rc
    msg = st.message.decode("utf-8", "replace")
    raise_code(code, msg, st.offset)


def closed(what):
    return InvalidArgumentError(S.NXP_E_INVAL, f"{what} is closed", -1)

# SPDX-License-Identifier: MIT
"""nxp.file_kind / nxp.FileKind against nxp_file_kind_detect: the demo NEFF and
NTFF, the real Kineto trace, gzip'd JSON, an empty file, a directory, errors."""
import gzip
import os

import pytest

import nxp


def test_demo_pair_and_kineto(sample, kineto):
    neff, ntff = sample
    assert nxp.file_kind(neff) is nxp.FileKind.NEFF
    assert nxp.file_kind(ntff) is nxp.FileKind.NTFF
    assert nxp.file_kind(kineto) == "json"          # a FileKind is its short name as a str
    assert nxp.file_kind(kineto).code == nxp.constants.NXP_FILE_JSON
    # the decision is by content: a NEFF under an .ntff name is still a NEFF
    with open(neff, "rb") as f:
        head = f.read(4096)
    assert nxp.file_kind_of_bytes(head, os.path.getsize(neff)) is nxp.FileKind.NEFF


def test_empty_directory_gzip_unknown(tmp_path, kineto):
    empty = tmp_path / "empty.ntff"
    empty.write_bytes(b"")
    assert nxp.file_kind(empty) is nxp.FileKind.EMPTY
    assert nxp.file_kind(str(tmp_path)) is nxp.FileKind.DIRECTORY
    assert nxp.file_kind(os.fsencode(str(tmp_path))) is nxp.FileKind.DIRECTORY
    gz = tmp_path / "trace.json.gz"
    with open(kineto, "rb") as f:
        gz.write_bytes(gzip.compress(f.read()))
    assert nxp.file_kind(gz) is nxp.FileKind.JSON_GZIP
    other = tmp_path / "x.gz"
    other.write_bytes(gzip.compress(b"\x00\x01\x02 not json"))
    assert nxp.file_kind(other) is nxp.FileKind.GZIP
    junk = tmp_path / "junk"
    junk.write_bytes(b"\xff" * 100)
    assert nxp.file_kind(junk) is nxp.FileKind.UNKNOWN
    assert nxp.file_kind_of_bytes(b"") is nxp.FileKind.EMPTY
    assert nxp.file_kind_of_bytes(b'{"traceEvents": []}') is nxp.FileKind.JSON


def test_names_and_codes():
    assert [k.code for k in nxp.FileKind] == list(range(10))
    assert nxp.FileKind.NTFF.description == "an NTFF trace"
    assert nxp.FileKind.EMPTY.description == "an empty file"
    assert str(nxp.FileKind.JSON_GZIP) == "json_gzip"
    assert nxp.FileKind.from_code(99) is nxp.FileKind.UNKNOWN


def test_errors(tmp_path):
    with pytest.raises(FileNotFoundError) as e:
        nxp.file_kind(tmp_path / "missing")
    assert isinstance(e.value, nxp.InputOutputError)
    with pytest.raises(TypeError):
        nxp.file_kind(3)
    with pytest.raises(TypeError):
        nxp.file_kind_of_bytes("text")

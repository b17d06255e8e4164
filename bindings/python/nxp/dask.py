# SPDX-License-Identifier: MIT
"""nxp.dask: read many device profiles on a Dask cluster (see doc/scale.md).

    import nxp.dask
    from distributed import Client
    client = Client("tcp://scheduler:8786")          # or none: Dask's default scheduler
    df = nxp.dask.read_table("/shared/capture", "Instruction", columns=["start_ts", "opcode", "duration_ns"],
                             partition_ns=50_000_000, engine="tensor")
    df.groupby("opcode").duration_ns.sum().compute()
    nxp.dask.summaries("/shared/capture")            # pandas DataFrame, one row per device profile

`source` is a capture directory (its NEFF/NTFF pairs, as nxp.Capture pairs
them) or a list of (neff_path, ntff_path) pairs.  Only paths travel to the
workers: each task opens its profile there (the files must be on storage every
worker sees, e.g. NFS, FSx, EFS, or a local disk with a one-machine cluster),
reads one (profile x time window) partition through libnxp's columnar path
(Profile.to_pandas) and sends back the DataFrame.  Works with whatever
distributed.Client is current, or with Dask's local schedulers.

Dask is imported only by this module (Debian: python3-dask, python3-distributed).
"""
import os

from ._capture import Capture
from ._profile import Profile

__all__ = ["profiles", "read_table", "summaries"]


def _dask():
    try:
        import dask
        import dask.dataframe as dd
    except ImportError as e:  # pragma: no cover - depends on the machine
        raise ImportError("nxp.dask needs dask[dataframe] (Debian: python3-dask, python3-distributed)") from e
    return dask, dd


def profiles(source):
    """[(name, neff_path, ntff_path), ...] for a capture directory or a list of
    (neff, ntff) pairs.  `name` (the `profile` column) is the NTFF's path
    relative to the capture directory, or the NTFF path as given."""
    if isinstance(source, (str, bytes, os.PathLike)):
        root = os.fspath(source)
        with Capture(root) as c:
            out = []
            for pr in c.profiles:
                if pr.neff < 0 or pr.ntff < 0:
                    continue  # unpaired: listed in Capture.problems
                neff, ntff = c.files[pr.neff].path, c.files[pr.ntff].path
                out.append((os.path.relpath(ntff, root), neff, ntff))
        if not out:
            raise ValueError(f"{root}: no NEFF/NTFF pair in the capture")
        return sorted(out)
    out = []
    for item in source:
        neff, ntff = item
        out.append((os.fspath(ntff), os.fspath(neff), os.fspath(ntff)))
    if not out:
        raise ValueError("no (neff, ntff) pairs given")
    return out


# ---- what runs on a worker: paths in, plain data out ----

def _span(neff, ntff):
    with Profile(neff, ntff) as p:
        md = p.metadata
        return md["first_hw_timestamp"], md["last_hw_timestamp"]


def _partition(name, neff, ntff, table, columns, filters):
    with Profile(neff, ntff) as p:
        df = p.to_pandas(table, columns=columns, **filters)
    df.insert(0, "profile", name)
    return df


def _summary_row(name, neff, ntff):
    with Profile(neff, ntff) as p:
        row = {"profile": name}
        row.update(p.summary())
        return row


def _windows(first, last, partition_ns, start, end):
    """[start, end) windows of partition_ns covering [first, last] intersected
    with the caller's [start, end); None = unbounded (the first and last
    windows are open so that every record falls in exactly one)."""
    lo = first if start is None else max(first, start)
    hi = last if end is None else min(last, end - 1)
    if partition_ns is None or hi < lo:
        return [(start, end)]
    n = (hi - lo) // partition_ns + 1
    out = []
    for k in range(n):
        a = start if k == 0 else lo + k * partition_ns
        b = end if k == n - 1 else lo + (k + 1) * partition_ns
        out.append((a, b))
    return out


def read_table(source, table, columns=None, partition_ns=None, **filters):
    """A dask DataFrame of table `table` ("Instruction", "DmaPacket", ... as
    nxp.Profile.table_names()) over every device profile of `source`, with a
    leading `profile` column.  One partition per (device profile x time
    window of partition_ns nanoseconds; one window when None).  Filters as
    Profile.to_pandas: start, end (ns), engine, pcore, queue.  Rows are in
    time order within a profile; partitions follow the profiles' order.
    ActiveTime intervals are clipped to the windows (as with start/end).

    With partition_ns, each profile's time span is first read on the cluster
    (its index only), to know how many windows it has."""
    dask, dd = _dask()
    from dask.dataframe.utils import clear_known_categories
    pairs = profiles(source)
    if partition_ns is not None and (isinstance(partition_ns, bool) or int(partition_ns) <= 0):
        raise ValueError("partition_ns must be a positive number of nanoseconds")
    start, end = filters.pop("start", None), filters.pop("end", None)
    if partition_ns is not None:
        spans = dask.compute(*[dask.delayed(_span, pure=True)(neff, ntff) for _, neff, ntff in pairs])
    else:
        spans = [(0, 0)] * len(pairs)
    parts = []
    for (name, neff, ntff), (first, last) in zip(pairs, spans):
        for a, b in _windows(first, last, None if partition_ns is None else int(partition_ns), start, end):
            f = dict(filters)
            if a is not None:
                f["start"] = a
            if b is not None:
                f["end"] = b
            parts.append(dask.delayed(_partition, pure=True)(name, neff, ntff, table, columns, f))
    # The columns and dtypes, from an empty window read on a worker.
    _, neff0, ntff0 = pairs[0]
    meta = dask.delayed(_partition, pure=True)(pairs[0][0], neff0, ntff0, table, columns,
                                               dict(filters, start=0, end=1)).compute().iloc[:0]
    meta = clear_known_categories(meta)  # categories differ between partitions
    return dd.from_delayed(parts, meta=meta, verify_meta=False)


def summaries(source):
    """A pandas DataFrame: one row per device profile (`profile`, then the
    Summary fields that profile has; NaN where it has none), computed on the
    cluster."""
    dask, _ = _dask()
    import pandas as pd
    from ._summary import summary_fields
    pairs = profiles(source)
    rows = dask.compute(*[dask.delayed(_summary_row, pure=True)(name, neff, ntff) for name, neff, ntff in pairs])
    order = ["profile"] + [f["name"] if isinstance(f, dict) else f for f in summary_fields()]
    df = pd.DataFrame(list(rows))
    cols = [c for c in order if c in df.columns] + [c for c in df.columns if c not in order]
    return df[cols]

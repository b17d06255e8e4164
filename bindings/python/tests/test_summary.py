# SPDX-License-Identifier: MIT
"""derive_summary(): the pure derivation, checked against the formulas of
doc/metrics.md computed here from the hardware table."""
import math

import pytest

import nxp

COUNTERS = {"total_time": 2e-3, "model_flops": 4.0e10, "hardware_flops": 6.0e10, "transpose_flops": 1.0e10,
            "hbm_read_bytes": 3.0e8, "hbm_write_bytes": 1.0e8, "inputs_and_weights_size_bytes": 2.0e8,
            "dma_transfer_total_bytes": 4.0e8, "dma_transfer_count": 1000, "dma_active_time": 1.5e-3}


@pytest.mark.parametrize("arch", ["trn1", "inf2", "trn2", "trn3"])
def test_formulas(arch):
    hw = nxp.hardware_for_arch(arch)
    max_ops = 2 * hw["tensor_engine_num_rows"] * hw["tensor_engine_num_cols"] * hw["tensor_engine_clock_freq"] * 1e9
    assert hw["max_ops"] == pytest.approx(max_ops)
    bw = hw["hbm_bandwidth"]
    c = COUNTERS
    hbm = c["hbm_read_bytes"] + c["hbm_write_bytes"]
    expect = {
        "mfu_estimated_percent": c["model_flops"] / (max_ops * c["total_time"]),
        "hfu_estimated_percent": c["hardware_flops"] / (max_ops * c["total_time"]),
        "mfu_inst_estimated_percent": (c["hardware_flops"] - c["transpose_flops"]) / (max_ops * c["total_time"]),
        "mm_arithmetic_intensity": (c["hardware_flops"] - c["transpose_flops"]) / hbm,
        "peak_flops_bandwidth_ratio": max_ops / bw,
        "mfu_max_achievable_estimated_percent": (c["model_flops"] / hbm) / (max_ops / bw),
        "mbu_estimated_percent": hbm / c["total_time"] / bw,
        "mbu_min_read_util_percent": c["inputs_and_weights_size_bytes"] / c["total_time"] / bw,
        "dma_transfer_average_bytes": c["dma_transfer_total_bytes"] / c["dma_transfer_count"],
        "dma_active_time_percent": c["dma_active_time"] / c["total_time"],
        "neuroncore_cycle_count": round(c["total_time"] * hw["neuroncore_clock_freq"] * 1e9),
        "dma_active_cycles": round(c["dma_active_time"] * hw["neuroncore_clock_freq"] * 1e9),
    }
    got = nxp.derive_summary(c, arch)
    for k, v in expect.items():
        assert k in got, k
        assert got[k] == pytest.approx(v, rel=1e-9), k
    assert isinstance(got["neuroncore_cycle_count"], int)
    for k, v in c.items():  # inputs come back unchanged
        assert got[k] == pytest.approx(v)


def test_overrides_change_the_result():
    base = nxp.derive_summary(COUNTERS, "trn2")
    fast = nxp.derive_summary(COUNTERS, "trn2", tensor_engine_clock_freq=4.8, hbm_bandwidth=1e12)
    assert fast["mfu_estimated_percent"] == pytest.approx(base["mfu_estimated_percent"] / 2)
    assert fast["mbu_estimated_percent"] == pytest.approx(COUNTERS["hbm_read_bytes"] / 2e-3 / 1e12 +
                                                          COUNTERS["hbm_write_bytes"] / 2e-3 / 1e12)


def test_absent_inputs_give_absent_metrics():
    got = nxp.derive_summary({"total_time": 1e-3}, "trn2")
    assert "mfu_estimated_percent" not in got and "mbu_estimated_percent" not in got
    assert "dma_transfer_average_bytes" not in got
    assert got["neuroncore_cycle_count"] == 1200000
    # a zero denominator is absent, never inf or 0
    got = nxp.derive_summary({"dma_transfer_total_bytes": 10, "dma_transfer_count": 0}, "trn2")
    assert "dma_transfer_average_bytes" not in got
    assert all(math.isfinite(v) for v in got.values())


def test_bad_inputs_raise():
    with pytest.raises(nxp.NotFoundError) as ei:
        nxp.derive_summary({"no_such_counter": 1}, "trn2")
    assert "no_such_counter" in ei.value.message and ei.value.code == nxp.constants.NXP_E_NOT_FOUND
    with pytest.raises(nxp.NotFoundError):
        nxp.derive_summary({}, "trn99")
    with pytest.raises(TypeError):
        nxp.derive_summary({"total_time": "1"}, "trn2")
    with pytest.raises(TypeError):
        nxp.derive_summary([("total_time", 1)], "trn2")
    with pytest.raises(TypeError):
        nxp.derive_summary({}, "trn2", warp_drive=1)
    with pytest.raises(nxp.InvalidArgumentError):
        nxp.derive_summary({"total_time": float("nan")}, "trn2")


def test_field_catalogue():
    fields = nxp.summary_fields()
    names = [f["name"] for f in fields]
    assert len(names) == len(set(names))
    for k in COUNTERS:
        assert k in names
    kinds = {f["name"]: f["kind"] for f in fields}
    assert kinds["neuroncore_cycle_count"] == "int" and kinds["mfu_estimated_percent"] == "float"

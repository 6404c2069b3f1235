# SPDX-License-Identifier: MIT
"""Power and temperature from Python: run_test's sensor_period and
no_sensors keywords reach RunOpts version 4, a stand-in sysfs tree
(AIETH_SYSFS_ROOT) is sampled into each test's "sensors", the period's
limits are refused before any run, and a hot device is a RuntimeWarning."""
import pytest

import aieth


def _tree(root, temp_mc):
    d = root / "bus/iio/devices/iio:device0"
    h = root / "class/hwmon/hwmon0"
    d.mkdir(parents=True)
    h.mkdir(parents=True)
    (d / "name").write_text("xlnx,versal-sysmon\n")
    (d / "in_temp160_temp_input").write_text(f"{temp_mc}\n")
    (h / "name").write_text("ina226\n")
    (h / "power1_input").write_text("2500000\n")


def test_sensors_keywords(src, tmp_path, monkeypatch):
    spec = src / "examples/adder_perf/test.json"
    _tree(tmp_path / "sys", 45000)
    monkeypatch.setenv("AIETH_SYSFS_ROOT", str(tmp_path / "sys"))
    r = aieth.run_test(spec, out=tmp_path / "a", sensor_period=250)
    s = r["tests"][0]["sensors"]
    assert s["status"] == "sampled" and s["period_ms"] == 250
    by = {x["name"]: x for x in s["sensors"]}
    p = by["ina226@hwmon0/power1"]
    assert (p["unit"], p["min"], p["max"], p["mean"]) == ("W", 2.5, 2.5, 2.5)
    assert by["sysmon@iio:device0/temp160_temp"]["max"] == 45.0
    r = aieth.run_test(spec, out=tmp_path / "b", no_sensors=True)
    assert r["tests"][0]["sensors"]["status"] == "off"
    for bad in (99, 60001):
        with pytest.raises(ValueError, match="sensor_period"):
            aieth.run_test(spec, out=tmp_path / "c", sensor_period=bad)


def test_sensors_hot_warning(src, tmp_path, monkeypatch):
    _tree(tmp_path / "sys", 101000)
    monkeypatch.setenv("AIETH_SYSFS_ROOT", str(tmp_path / "sys"))
    with pytest.warns(RuntimeWarning, match="device temperature 101.0"):
        r = aieth.run_test(src / "examples/adder_perf/test.json", out=tmp_path / "a")
    assert r.exit_code == 0

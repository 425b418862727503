"""Determinism: compiling the regression corpus (tests/kernels ALL_CASES), the pipelined
designs of benchmarks/pipelining.py and the dataflow designs of tests/kernels/dataflow.py
in two processes with different PYTHONHASHSEED gives
byte-identical Verilog, report JSON and loop-level IR.

Each process compiles every case and prints one digest per case and output; the two digest
tables must be equal. A difference names the cases and outputs that changed, so a compiler
pass iterating over a set or a hash-ordered dict shows up here.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).parent

COMPILE_ALL = """
import hashlib, json, sys
from kernels import ALL_CASES
from vichls.driver.fpga import compile_fpga
from vichls.frontend.mlir_input import print_module

def digest(text):
    return hashlib.sha256(text.encode()).hexdigest()

out = {}
for case in ALL_CASES:
    module = case.kernel.module()
    design = compile_fpga(module)
    report = json.dumps(design.report, indent=2, sort_keys=True) + "\\n"
    out[case.name] = {"verilog": digest(design.verilog), "report": digest(report),
                      "loop_ir": digest(print_module(module))}
# pipelined designs (modulo scheduling, flattening, dual ports, partitions)
from benchmarks.pipelining import designs
for name, schedule in designs():
    design = schedule.build("fpga")
    report = json.dumps(design.report, indent=2, sort_keys=True) + "\\n"
    out[name] = {"verilog": digest(design.verilog), "report": digest(report)}
# dataflow designs (task extraction, channel typing, the top's wiring)
from kernels.dataflow import DATAFLOW_SCHEDULES
for name, make in DATAFLOW_SCHEDULES.items():
    design = make().build("fpga")
    report = json.dumps(design.report, indent=2, sort_keys=True) + "\\n"
    out["dataflow " + name] = {"verilog": digest(design.verilog), "report": digest(report)}
json.dump(out, sys.stdout)
"""


def _digests_with_hash_seed(seed: str) -> subprocess.Popen:
    env = dict(os.environ, PYTHONHASHSEED=seed)
    env["PYTHONPATH"] = os.pathsep.join([str(TESTS), str(TESTS.parent), env.get("PYTHONPATH", "")])
    return subprocess.Popen([sys.executable, "-c", COMPILE_ALL], env=env, cwd=TESTS,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_compiling_twice_with_different_hash_seeds_is_byte_identical():
    procs = [_digests_with_hash_seed(seed) for seed in ("1", "4242")]
    tables = []
    for p in procs:
        out, err = p.communicate(timeout=900)
        assert p.returncode == 0, err[-3000:]
        tables.append(json.loads(out))
    first, second = tables
    assert len(first) >= 10 and set(first) == set(second)
    changed = [f"{name}: {kind}" for name in sorted(first) for kind in first[name]
               if first[name][kind] != second[name][kind]]
    assert not changed, "outputs differ between PYTHONHASHSEED=1 and 4242:\n" + "\n".join(changed)

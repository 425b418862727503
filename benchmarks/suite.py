"""The benchmark suite: one registry of every benchmark kernel at every size.

This is the contract between the kernels (benchmarks/polybench, benchmarks/machsuite) and the
tools that run them (`vichls bench`, `vichls dse`, benchmarks/*.py):

- ``Benchmark``: one kernel at one size, with its input maker and the published figures of
  the tools people compare against;
- ``benchmarks(size="small", names=None, element="int32", group="suite") -> list[Benchmark]``:
  the suite at one size, in a stable order (PolyBench, then MachSuite; ``group="dnn"``: the
  quantized-CNN operators of benchmarks/dnn instead, also found by name); ``size`` is ``"small"`` (the
  8×8 sizes of the Calyx evaluation) or ``"mini"`` (PolyBench's MINI dataset sizes, and
  MachSuite sizes of the same order); ``names`` filters (unknown names raise KeyError
  naming the known ones); ``element="float32"`` gives the PolyBench kernels in float32
  (below).

How one source gives two sizes: a kernel's array types name module-level constants, so each
size needs its own kernel definition. Each kernel file therefore picks its constants with
one line, ``SIZE = "small"``, and a table per constant (``N = {"small": 8, "mini": 40}[SIZE]``).
``kernel_file(module, size)`` imports the file as it is for "small" and, for another size,
executes the same text with that one line changed (vichls.frontend's ``load_source``, under
the name ``<path>[<size>]`` so the reference and error messages keep the file's line
numbers). Assumes each file holds exactly one such line and one top kernel.

A family package (``benchmarks.polybench``, ``benchmarks.machsuite``) lists its files in
``KERNELS`` (name → (module, input options)); a file's own ``make_inputs(rng=None)`` wins,
otherwise the family's ``default_inputs(kernel, **options)`` makes the arguments.

Each kernel file also holds its hand-written directive set, ``directives(s)``, applying to
a ``vichls.customize(kernel)`` schedule what an experienced Vitis HLS user would write;
being in the file, it reads the file's size constants, so one function serves both sizes.
``unroll_factor`` and ``unroll_with_partitions`` are the helpers those functions share
(benchmarks/manual_directives.py measures them).

The PolyBench kernels also in float32 (as Allo and ScaleHLS report them):
``benchmarks(size, names, element="float32")`` rebuilds each PolyBench file from the same
text, with ``int32`` written ``float32`` (the import, the annotations) and the integer
stand-ins some files use for PolyBench's float formulas written back as PolyBench has them
(``FLOAT32_FORMULAS``: e.g. jacobi-1d's ``// 3`` is ``* 0.33333`` again, heat-3d's single
``// 8`` PolyBench's three weights 0.125, trisolv's ``//`` a ``/``), loaded with
``load_source`` under the name ``<path>[<size>,float32]``. floyd-warshall and nussinov are
integer algorithms in PolyBench itself and MachSuite is not a float32 suite here, so the
float32 variant has the other 18 PolyBench kernels; its inputs are float32 arrays
(``benchmarks.polybench.default_inputs``: PolyBench-style ``(i * j + c) % n / n`` values
without a generator) and alpha = 1.5, beta = 1.2 as in PolyBench. It has no published
figures (those are int32).
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

SIZES = ("small", "mini")
FAMILIES = ("polybench", "machsuite")
#: the groups of families: "suite" (the default: PolyBench and MachSuite, the figures of
#: RESULTS.md) and "dnn" (benchmarks/dnn: the operators of a quantized CNN)
GROUPS = {"suite": FAMILIES, "dnn": ("dnn",)}
#: the element types of the suite: "int32" (every family) and "float32" (PolyBench only)
ELEMENTS = ("int32", "float32")
FLOAT32_FAMILIES = ("polybench",)
#: PolyBench kernels without a float32 variant: integer algorithms in PolyBench itself
INTEGER_ONLY = ("floyd-warshall", "nussinov")


@dataclass(frozen=True)
class Benchmark:
    name: str  # "gemm", "jacobi-2d", "stencil2d", ...
    family: str  # "polybench" | "machsuite"
    size: str  # one of SIZES
    kernel: object  # the @kernel
    #: ``make_inputs(rng=None) -> tuple`` of arguments in parameter order; deterministic
    #: values without a numpy Generator, random ones (kept valid for the kernel) with one
    make_inputs: Callable[..., tuple]
    #: published figures for this kernel at this size, only those that exist:
    #: "vivado_cycles", "calyx_cycles", "vivado_lut", "calyx_lut"
    published: dict = field(default_factory=dict)
    #: the hand-written directive set (``directives(schedule)``: the kernel file's
    #: ``directives`` function, written at the file's sizes), or None
    directives: Callable | None = None
    #: the problem sizes of this build: the file's upper-case int constants ({"N": 8, ...})
    dims: dict = field(default_factory=dict)
    #: the kernel file this benchmark comes from (on disk, at the "small" size)
    path: str = ""
    #: the file's text at this size: ``load_source(source, f"{path}[{size}]")`` (from
    #: vichls.frontend.kernel) rebuilds the kernel in another process (kernels do not
    #: pickle; calling ``benchmarks`` there works too), and written to a file it is a kernel
    #: file for ``vichls sim``, ``vichls dse``
    source: str = ""
    #: the element type of the build: "int32" or "float32" (one of ELEMENTS)
    element: str = "int32"


# Vivado HLS 2019.2 worst-case latency / Calyx simulated cycles, and their LUTs, 8×8 int32
# (the figures quoted in the QoR issue).
PUBLISHED_SMALL: dict[str, dict] = {
    "gemm": dict(vivado_cycles=2684, calyx_cycles=9265, vivado_lut=633, calyx_lut=2432),
    "2mm": dict(vivado_cycles=3718, calyx_cycles=15571, vivado_lut=939, calyx_lut=4055),
    "atax": dict(vivado_cycles=715, calyx_cycles=2255, vivado_lut=610, calyx_lut=1297),
    "bicg": dict(vivado_cycles=218, calyx_cycles=1083, vivado_lut=327, calyx_lut=311),
    "gesummv": dict(vivado_cycles=532, calyx_cycles=2209, vivado_lut=756, calyx_lut=2334),
    "mvt": dict(vivado_cycles=597, calyx_cycles=1861, vivado_lut=657, calyx_lut=1331),
    "syrk": dict(vivado_cycles=4791, calyx_cycles=12075, vivado_lut=641, calyx_lut=1572),
    "trmm": dict(vivado_cycles=2417, calyx_cycles=5255, vivado_lut=319, calyx_lut=312),
    "doitgen": dict(vivado_cycles=14545, calyx_cycles=49479, vivado_lut=371, calyx_lut=260),
    "gemver": dict(vivado_cycles=1105, calyx_cycles=3719, vivado_lut=1338, calyx_lut=2375),
    "trisolv": dict(vivado_cycles=425, calyx_cycles=460, vivado_lut=570, calyx_lut=375),
}

_SIZE_LINE = re.compile(r'^SIZE = "small"(?=\s|$)', re.MULTILINE)
_INT32 = re.compile(r"\bint32\b")


def _heat_3d(x: str) -> list[tuple[str, str]]:
    """heat-3d's sweep writing from array ``x``: PolyBench's three weights 0.125, one per
    second difference, and its 2.0 (the int32 file takes one ``// 8`` of their sum)."""
    return [
        (f"= ({x}[i + 1][j][k] - 2 * {x}[i][j][k] + {x}[i - 1][j][k]",
         f"= (0.125 * ({x}[i + 1][j][k] - 2.0 * {x}[i][j][k] + {x}[i - 1][j][k])"),
        (f"+ {x}[i][j + 1][k] - 2 * {x}[i][j][k] + {x}[i][j - 1][k]",
         f"+ 0.125 * ({x}[i][j + 1][k] - 2.0 * {x}[i][j][k] + {x}[i][j - 1][k])"),
        (f"+ {x}[i][j][k + 1] - 2 * {x}[i][j][k] + {x}[i][j][k - 1]",
         f"+ 0.125 * ({x}[i][j][k + 1] - 2.0 * {x}[i][j][k] + {x}[i][j][k - 1])"),
        (f") // 8 + {x}[i][j][k]", f") + {x}[i][j][k]"),
    ]


#: per PolyBench file (its module name), the (old, new) text pairs that write its integer
#: stand-ins back as PolyBench's float formulas for the float32 variant; every ``old``
#: must occur in the file (each occurrence is replaced). The other files only change
#: ``int32`` to ``float32`` (their alpha and beta are arguments: 1.5 and 1.2 in float32).
FLOAT32_FORMULAS: dict[str, list[tuple[str, str]]] = {
    "jacobi_1d": [(") // 3", ") * 0.33333")],
    "jacobi_2d": [(") // 5", ") * 0.2")],
    "seidel_2d": [(") // 9", ") / 9.0")],
    "fdtd_2d": [(") // 2", ") * 0.5"),
                ("7 * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]) // 10",
                 "0.7 * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j])")],
    "heat_3d": _heat_3d("A") + _heat_3d("B"),
    "trisolv": [("x[i] // L[i][i]", "x[i] / L[i][i]")],
}


#: the most multipliers a manual directive set may unroll into one design (a mid-size FPGA's
#: DSP budget for one kernel): a loop above a short inner loop is pipelined when unrolling
#: that inner loop stays within it, the inner loop otherwise
MULTIPLIERS = 64

#: the most divisions by a constant (each a pipelined divider, some 2,500 LUTs, in a
#: pipelined loop) a manual directive set may unroll into one design
DIVIDERS = 8


def unroll_factor(*trip_counts: int, limit: int = 4) -> int:
    """The largest power of two up to ``limit`` that divides every trip count: an unroll
    and cyclic partition factor for the manual directive sets. Dividing leaves no remainder
    iterations (they would be unrolled after the loop and break the nest a pipeline
    flattens); a power of two keeps bank selection a bit slice (another factor costs a
    divider, tests/regressions/pipeline_partition_factor3_divider_ii.py)."""
    factor = 1
    while factor * 2 <= limit and all(n % (factor * 2) == 0 for n in trip_counts):
        factor *= 2
    return factor


def unroll_with_partitions(schedule, loops: tuple[str, ...], factor: int,
                           partitions: tuple[tuple[str, int], ...]) -> None:
    """Unroll each of ``loops`` by ``factor`` and partition each (array, dim) of
    ``partitions`` cyclically by the same factor, so that the copies access different
    banks; nothing at factor 1 (a single bank would only lose the array's second port)."""
    if factor == 1:
        return
    for loop in loops:
        schedule.unroll(loop, factor)
    for array, dim in partitions:
        schedule.partition(array, dim=dim, factor=factor)


def sized_source(module: str, size: str, element: str = "int32") -> str:
    """The text of kernel file ``module`` (a dotted name) with its sizes set to ``size``,
    and for ``element="float32"`` its element type and formulas rewritten (``float_source``)."""
    if size not in SIZES:
        raise KeyError(f"unknown size {size!r}; known: {', '.join(SIZES)}")
    _check_element(element)
    path = _path_of(module)
    source = path.read_text()
    if len(_SIZE_LINE.findall(source)) != 1:
        raise ValueError(f'{path}: expected exactly one line `SIZE = "small"` choosing its sizes')
    source = _SIZE_LINE.sub(f'SIZE = "{size}"', source)
    return source if element == "int32" else float_source(source, module)


def float_source(source: str, module: str) -> str:
    """The float32 variant of an int32 PolyBench file's text: every ``int32`` (the import,
    the annotations, the docstring) becomes ``float32`` and the file's ``FLOAT32_FORMULAS``
    pairs are applied; the line count is unchanged, so messages keep the file's lines."""
    stem = module.rsplit(".", 1)[-1]
    text = _INT32.sub("float32", source)
    for old, new in FLOAT32_FORMULAS.get(stem, []):
        if old not in text:
            raise ValueError(f"{module}: the float32 rewrite expects {old!r} in the file")
        text = text.replace(old, new)
    return text


def _check_element(element: str) -> None:
    if element not in ELEMENTS:
        raise KeyError(f"unknown element type {element!r}; known: {', '.join(ELEMENTS)}")


@functools.lru_cache(maxsize=None)
def kernel_file(module: str, size: str, element: str = "int32") -> dict:
    """The global namespace of kernel file ``module`` (a dotted name) built at ``size``
    (and in ``element``: the file itself is int32)."""
    source = sized_source(module, size, element)
    if size == "small" and element == "int32":
        return vars(importlib.import_module(module))
    from vichls.frontend.kernel import load_source

    tag = size if element == "int32" else f"{size},{element}"
    return load_source(source, f"{_path_of(module)}[{tag}]")


def _path_of(module: str) -> Path:
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        raise KeyError(f"no kernel file {module}")
    return Path(spec.origin)


def _top_kernel(namespace: dict, module: str):
    from vichls.frontend.kernel import kernels_in

    found = list(kernels_in(namespace).values())
    if len(found) != 1:
        raise ValueError(f"{module}: expected one kernel, found {[k.name for k in found]}")
    return found[0]


def _dims(namespace: dict) -> dict:
    return {name: value for name, value in namespace.items()
            if name.isupper() and type(value) is int}


def _family(family: str, size: str, element: str = "int32") -> list[Benchmark]:
    package = importlib.import_module(f"benchmarks.{family}")
    suite = []
    for name, (file, input_options) in package.KERNELS.items():
        if element != "int32" and name in INTEGER_ONLY:
            continue
        module = f"benchmarks.{family}.{file}"
        namespace = kernel_file(module, size, element)
        kernel = _top_kernel(namespace, module)
        make_inputs = namespace.get("make_inputs")
        if make_inputs is None:
            make_inputs = package.default_inputs(kernel, **input_options)
        published = PUBLISHED_SMALL.get(name, {}) if size == "small" and element == "int32" \
            else {}
        suite.append(Benchmark(name, family, size, kernel, make_inputs, dict(published),
                               directives=namespace.get("directives"),
                               dims=_dims(namespace), path=str(_path_of(module)),
                               source=sized_source(module, size, element), element=element))
    return suite


@functools.lru_cache(maxsize=None)
def _suite(size: str, element: str = "int32", group: str = "suite") -> tuple[Benchmark, ...]:
    families = GROUPS[group] if element == "int32" else FLOAT32_FAMILIES
    return tuple(b for family in families for b in _family(family, size, element))


def benchmarks(size: str = "small", names: list[str] | None = None,
               element: str = "int32", group: str = "suite") -> list[Benchmark]:
    """The benchmarks of ``group`` at ``size``; with ``names``, those (of any group)."""
    if size not in SIZES:
        raise KeyError(f"unknown size {size!r}; known: {', '.join(SIZES)}")
    _check_element(element)
    if group not in GROUPS:
        raise KeyError(f"unknown group {group!r}; known: {', '.join(GROUPS)}")
    suite = list(_suite(size, element, group))
    if names is None:
        return suite
    if element == "int32":  # a name may be of another group
        suite += [b for other in GROUPS if other != group for b in _suite(size, element, other)]
    by_name = {b.name: b for b in suite}
    unknown = [n for n in names if n not in by_name]
    if unknown:
        why = f" (no {element} variant: the {element} suite is PolyBench without " \
              f"{', '.join(INTEGER_ONLY)})" if element != "int32" else ""
        raise KeyError(f"unknown benchmarks {', '.join(unknown)}{why}; known: "
                       f"{', '.join(by_name)}")
    return [by_name[n] for n in names]

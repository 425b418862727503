"""ap_fixed itself, as the oracle of vichls's fixed point: Xilinx's Apache-2.0 headers (in the
``hls4ml`` wheel, under hls4ml/templates/vivado/ap_types) compiled with g++.

``Oracle(cases).run()`` writes one C++ program for a list of cases, compiles it once (cached
by the hash of its source, under a file lock, so pytest-xdist workers share the build) and
returns, per case, the raw bits ap_fixed computes:

- ``Conversion(source, target)``: every raw value of ``source`` (an integer or fixed type of
  at most 12 bits) converted to ``target`` (assignment, with its modes);
- ``Operations(a, b)``: every pair of raw values of ``a`` and ``b``: ``a + b``, ``a - b``,
  ``a * b`` (their raw bits and their types) and the six comparisons;
- ``Unary(a)``: every raw value: ``-a`` (raw bits and type) and ``a << k``, ``a >> k`` for
  ``k`` from ``-(W + 1)`` to ``W + 1`` with ``|k| < W`` (ap_fixed shifts the host integer, so
  amounts at or above the width are not defined there).

Types are ``vichls.types`` types; an integer type is given to ap_fixed as ``ap_fixed<W, W>``
(ap_fixed's own view of an integer operand). ``available()`` says whether the headers and
g++ are there.
"""

from __future__ import annotations

import fcntl
import hashlib
import importlib.util
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from vichls.types import FixedType, ScalarType, as_fixed

_Q = {"trn": "AP_TRN", "trn_zero": "AP_TRN_ZERO", "rnd": "AP_RND", "rnd_zero": "AP_RND_ZERO",
      "rnd_min_inf": "AP_RND_MIN_INF", "rnd_inf": "AP_RND_INF", "rnd_conv": "AP_RND_CONV"}
_O = {"wrap": "AP_WRAP", "sat": "AP_SAT", "sat_zero": "AP_SAT_ZERO", "sat_sym": "AP_SAT_SYM"}


def header_dir() -> Path | None:
    spec = importlib.util.find_spec("hls4ml")
    if spec is None or not spec.submodule_search_locations:
        return None
    d = Path(list(spec.submodule_search_locations)[0]) / "templates" / "vivado" / "ap_types"
    return d if (d / "ap_fixed.h").exists() else None


def available() -> bool:
    return header_dir() is not None and shutil.which("g++") is not None


def _cxx(t: ScalarType) -> str:
    f = as_fixed(t)
    kind = "ap_fixed" if f.signed else "ap_ufixed"
    return f"{kind}<{f.width}, {f.int_bits}, {_Q[f.quant]}, {_O[f.overflow]}>"


@dataclass(frozen=True)
class Conversion:
    source: ScalarType
    target: FixedType


@dataclass(frozen=True)
class Operations:
    a: ScalarType
    b: ScalarType


@dataclass(frozen=True)
class Unary:
    a: ScalarType


_PRELUDE = r"""
#include <cstdio>
#include "ap_fixed.h"

template <class T> T from_raw(unsigned long long raw) {
  T v;
  v.range(T::width - 1, 0) = raw;
  return v;
}
template <class T> unsigned long long raw_of(const T& v) {
  return v.range(T::width - 1, 0).to_uint64();
}
template <int W, int I, bool S, ap_q_mode Q, ap_o_mode O, int N>
void describe(const ap_fixed_base<W, I, S, Q, O, N>&) {
  std::printf("%d %d %d\n", W, I, (int)S);
}

template <class A, class B> void conversion() {
  for (unsigned long long r = 0; r < (1ULL << A::width); r++) {
    B b = from_raw<A>(r);
    std::printf("%llu\n", raw_of(b));
  }
}

template <class A, class B> void operations() {
  A a0 = from_raw<A>(0);
  B b0 = from_raw<B>(0);
  describe(a0 + b0);
  describe(a0 - b0);
  describe(a0 * b0);
  for (unsigned long long ra = 0; ra < (1ULL << A::width); ra++) {
    A a = from_raw<A>(ra);
    for (unsigned long long rb = 0; rb < (1ULL << B::width); rb++) {
      B b = from_raw<B>(rb);
      std::printf("%llu %llu %llu %d%d%d%d%d%d\n", raw_of(a + b), raw_of(a - b), raw_of(a * b),
                  a < b, a <= b, a > b, a >= b, a == b, a != b);
    }
  }
}

template <class A> void unary() {
  A a0 = from_raw<A>(0);
  describe(-a0);
  for (unsigned long long ra = 0; ra < (1ULL << A::width); ra++) {
    A a = from_raw<A>(ra);
    std::printf("%llu", raw_of(-a));
    for (int k = -(A::width - 1); k <= A::width - 1; k++)
      std::printf(" %llu %llu", raw_of(a << k), raw_of(a >> k));
    std::printf("\n");
  }
}
"""


#: -DNDEBUG: ap_private asserts when a conversion drops more fractional bits than the
#: source has (it reads the bit below the ones kept, beyond the source's MSB); without the
#: assertion it reads the sign extension there, which is the value's meaning
_FLAGS = ("-O1", "-std=c++14", "-w", "-DNDEBUG")


class Oracle:
    def __init__(self, cases: list):
        self.cases = list(cases)

    def source(self) -> str:
        calls = []
        for k, c in enumerate(self.cases):
            calls.append(f'  std::printf("case {k}\\n");')
            if isinstance(c, Conversion):
                calls.append(f"  conversion<{_cxx(c.source)}, {_cxx(c.target)} >();")
            elif isinstance(c, Operations):
                calls.append(f"  operations<{_cxx(c.a)}, {_cxx(c.b)} >();")
            elif isinstance(c, Unary):
                calls.append(f"  unary<{_cxx(c.a)} >();")
            else:
                raise TypeError(c)
        return _PRELUDE + "int main() {\n" + "\n".join(calls) + "\n  return 0;\n}\n"

    def binary(self) -> Path:
        """The compiled oracle (built once per source, shared between processes)."""
        text = self.source()
        digest = hashlib.sha256((" ".join(_FLAGS) + text).encode()).hexdigest()[:16]
        cache = Path(os.environ.get("VICHLS_CACHE") or
                     Path(tempfile.gettempdir()) / f"vichls-cache-{os.getuid()}") / "ap_fixed"
        cache.mkdir(parents=True, exist_ok=True)
        exe = cache / f"oracle-{digest}"
        with open(cache / "lock", "a+") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not exe.exists():
                src = cache / f"oracle-{digest}.cpp"
                src.write_text(text)
                tmp = cache / f"oracle-{digest}.tmp"
                subprocess.run(["g++", *_FLAGS, f"-I{header_dir()}", str(src), "-o", str(tmp)],
                               check=True)
                tmp.rename(exe)
        return exe

    def run(self) -> list:
        out = subprocess.run([str(self.binary())], check=True, capture_output=True,
                             text=True).stdout
        chunks = out.split("case ")[1:]
        results = []
        for c, chunk in zip(self.cases, chunks):
            lines = chunk.splitlines()[1:]
            results.append(_parse(c, lines))
        return results


def _type(line: str) -> FixedType:
    w, i, s = (int(x) for x in line.split())
    return FixedType(w, bool(s), i)


def _parse(case, lines: list[str]):
    if isinstance(case, Conversion):
        return [case.target.wrap(int(x)) for x in lines]
    if isinstance(case, Operations):
        types = [_type(x) for x in lines[:3]]
        rows = []
        for line in lines[3:]:
            s, d, p, cmp = line.split()
            rows.append((types[0].wrap(int(s)), types[1].wrap(int(d)), types[2].wrap(int(p)),
                         tuple(ch == "1" for ch in cmp)))
        return types, rows
    if isinstance(case, Unary):
        neg_type = _type(lines[0])
        fa = as_fixed(case.a)
        rows = []
        for line in lines[1:]:
            values = [int(x) for x in line.split()]
            shifts = {}
            for n, k in enumerate(range(-(fa.width - 1), fa.width)):
                shifts[k] = (fa.wrap(values[1 + 2 * n]), fa.wrap(values[2 + 2 * n]))
            rows.append((neg_type.wrap(values[0]), shifts))
        return neg_type, rows
    raise TypeError(case)

"""Scalar and array types of the kernel language, and their exact semantics.

Every kernel value is held as a fixed-width two's-complement integer of 1 to 64 bits, signed
or unsigned (``bool_`` is the unsigned 1-bit type); a fixed-point value (``fixed(W, I)``,
``FixedType``) is such an integer with a binary point. This module is the single place that
says what a type is, how a Python int wraps into it, how a number converts to a fixed type
(``quantize``), which numpy dtype holds it, and how a type is spelled in source code and in
the IR (``type_name`` / ``parse_type_name``).
"""

from __future__ import annotations

import math
import re
from collections import deque
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

MAX_WIDTH = 64
#: the most elements an array may hold: a word address fits the 32-bit hardware index
MAX_ARRAY_ELEMENTS = 1 << 31


@dataclass(frozen=True)
class ScalarType:
    width: int
    signed: bool

    def __post_init__(self) -> None:
        if not 1 <= self.width <= MAX_WIDTH:
            raise ValueError(f"integer width must be 1..{MAX_WIDTH}, got {self.width}")

    # -- naming -------------------------------------------------------------------
    @property
    def name(self) -> str:
        return type_name(self)

    def __repr__(self) -> str:
        return self.name

    # -- value range and wrapping ----------------------------------------------------
    @property
    def min(self) -> int:
        return -(1 << (self.width - 1)) if self.signed else 0

    @property
    def max(self) -> int:
        return (1 << (self.width - 1)) - 1 if self.signed else (1 << self.width) - 1

    @property
    def mask(self) -> int:
        return (1 << self.width) - 1

    def wrap(self, value: int) -> int:
        """Wrap a Python int into this type (two's complement, modulo 2**width)."""
        value = int(value) & self.mask
        if self.signed and value >> (self.width - 1):
            value -= 1 << self.width
        return value

    def __call__(self, value: int) -> int:
        """A cast, as written in kernels: ``int8(x)``."""
        return self.wrap(int(value))

    # -- numpy -----------------------------------------------------------------------
    @property
    def dtype(self) -> np.dtype:
        """The smallest numpy dtype that holds every value of this type."""
        if self.width == 1 and not self.signed:
            return np.dtype(np.bool_)
        for bits in (8, 16, 32, 64):
            if self.width <= bits:
                return np.dtype(f"{'int' if self.signed else 'uint'}{bits}")
        raise AssertionError(self.width)

    # -- array types: int32[N, N] --------------------------------------------------------
    def __getitem__(self, dims) -> ArrayType:
        if not isinstance(dims, tuple):
            dims = (dims,)
        return ArrayType(self, tuple(int(d) for d in dims))


@dataclass(frozen=True)
class ArrayType:
    element: ScalarType
    shape: tuple[int, ...]

    def __post_init__(self) -> None:
        if not 1 <= len(self.shape) <= 4:
            raise ValueError("arrays have 1 to 4 dimensions")
        if any(d < 1 for d in self.shape):
            raise ValueError(f"array dimensions must be positive, got {self.shape}")
        if self.size > MAX_ARRAY_ELEMENTS:
            raise ValueError(f"an array holds at most {MAX_ARRAY_ELEMENTS} elements (its "
                             f"address is a 32-bit index), not {self.size}")

    @property
    def size(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n

    def __repr__(self) -> str:
        return f"{self.element.name}[{', '.join(map(str, self.shape))}]"


@dataclass(frozen=True)
class StreamType:
    """The kernel type ``stream[T, depth]``: a first-in first-out channel of ``T``.

    ``depth`` is the FIFO capacity in hardware (Vitis's default is 2); it does not change
    what a program means, whose streams are unbounded when it runs sequentially. Calling
    the type makes an empty stream, or one holding ``values``: ``stream[int32, 4]([1, 2])``.
    """

    element: ScalarType
    depth: int = 2

    def __post_init__(self) -> None:
        if not isinstance(self.element, ScalarType):
            raise ValueError("a stream holds scalars: stream[int32, 4]")
        if int(self.depth) < 1:
            raise ValueError(f"a stream's depth must be at least 1, got {self.depth}")

    def __repr__(self) -> str:
        return f"stream[{self.element.name}, {self.depth}]"

    def __call__(self, values=()) -> "Stream":
        return Stream(self, values)


class StreamEmptyError(Exception):
    """``get()`` on an empty stream: under sequential semantics the program would wait
    forever (in hardware: a deadlock)."""


class Stream:
    """A stream value: the kernel's ``get()`` takes the oldest element, ``put(x)`` appends.

    Kernel parameters of stream type take one of these in every target (Python, CPU,
    simulation), which all consume what they get and append what they put, in place. A
    stream holds raw bits (``put_raw``/``get_raw``/``raw``, what the targets use); ``put``,
    ``get`` and iteration speak the caller's values: for a fixed-point element type of at
    most 53 bits, floats (converted on ``put`` as an assignment would), else integers. A
    float32 stream holds numpy float32 values (as raw and as the caller's values; ``put``
    rounds a number to float32, nearest even).
    """

    def __init__(self, type_: StreamType, values=()):
        self.type = type_
        self._items: deque = deque()
        for v in values:
            self.put(v)

    def _as_float(self) -> bool:
        t = self.type.element
        return isinstance(t, FixedType) and t.crosses_as_float

    def _is_float32(self) -> bool:
        return isinstance(self.type.element, FloatType)

    def put(self, value) -> None:
        if self._is_float32():
            self._items.append(_float32_element(value))
        elif self._as_float():
            self._items.append(quantize(_exact(value), self.type.element))
        else:
            self._items.append(self.type.element.wrap(int(value)))

    def get(self):
        raw = self.get_raw()
        return float(self.type.element.value_of(raw)) if self._as_float() else raw

    def put_raw(self, raw) -> None:
        """Append raw bits (an int); for a float32 stream, a number (its element is its
        numpy float32 value: ``float32_bits`` gives its IEEE bits)."""
        if self._is_float32():
            self._items.append(_float32_element(raw))
        else:
            self._items.append(self.type.element.wrap(int(raw)))

    def get_raw(self) -> int:
        if not self._items:
            raise StreamEmptyError(f"get() from an empty {self.type!r}")
        return self._items.popleft()

    def raw(self) -> list:
        """The raw bits of the elements in order, without removing them (for a float32
        stream, the elements as numpy float32 values)."""
        return list(self._items)

    def copy(self) -> "Stream":
        other = Stream(self.type)
        other._items.extend(self._items)
        return other

    def empty(self) -> bool:
        return not self._items

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self):
        """The elements in order (as ``get`` gives them), without removing them."""
        if self._as_float():
            return iter([float(self.type.element.value_of(r)) for r in self._items])
        return iter(list(self._items))

    def __repr__(self) -> str:
        return f"{self.type!r}({list(self)})"


def _float32_element(value) -> np.float32:
    """A number as a float32 stream element: a numpy float32 as it is (its bits kept, NaN
    payloads too), anything else rounded once to the nearest float32 (ties to even)."""
    if isinstance(value, np.float32):
        return value
    if isinstance(value, (bool, np.bool_)):
        value = int(value)
    if not isinstance(value, (int, float, Fraction, np.integer, np.floating)):
        raise TypeError(f"a float32 stream holds numbers, got {value!r}")
    with np.errstate(over="ignore"):  # (a number beyond the float32 range is an infinity)
        return np.float32(float32_of(value if isinstance(value, (float, Fraction))
                                     else float(value) if isinstance(value, np.floating)
                                     else int(value)))


class _StreamTypes:
    """``stream[int32]`` and ``stream[int32, 8]`` spell stream types."""

    def __getitem__(self, key) -> StreamType:
        if not isinstance(key, tuple):
            key = (key,)
        if len(key) not in (1, 2):
            raise TypeError("stream types are spelled stream[T] or stream[T, depth]")
        return StreamType(key[0], int(key[1]) if len(key) == 2 else 2)

    def __repr__(self) -> str:
        return "stream"


stream = _StreamTypes()


def int_(width: int) -> ScalarType:
    """A signed integer type of any width from 1 to 64 bits."""
    return ScalarType(int(width), True)


def uint_(width: int) -> ScalarType:
    """An unsigned integer type of any width from 1 to 64 bits."""
    return ScalarType(int(width), False)


int8, int16, int32, int64 = (int_(w) for w in (8, 16, 32, 64))
uint8, uint16, uint32, uint64 = (uint_(w) for w in (8, 16, 32, 64))
bool_ = uint_(1)

NAMED_TYPES: dict[str, ScalarType] = {
    "int8": int8,
    "int16": int16,
    "int32": int32,
    "int64": int64,
    "uint8": uint8,
    "uint16": uint16,
    "uint32": uint32,
    "uint64": uint64,
    "bool_": bool_,
}


def type_name(t: ScalarType) -> str:
    """Canonical spelling: ``int32``, ``uint8``, ``bool_``, ``int_(12)``, ``uint_(3)``,
    ``fixed(16, 6)``, ``ufixed(8, 2, quant='rnd', overflow='sat')``."""
    if type(t) is not ScalarType:  # a fixed type spells itself
        return t.name
    if t.width == 1 and not t.signed:
        return "bool_"
    if t.width in (8, 16, 32, 64):
        return f"{'int' if t.signed else 'uint'}{t.width}"
    return f"{'int_' if t.signed else 'uint_'}({t.width})"


_TYPE_NAME_RE = re.compile(r"^(u?int)_\((\d+)\)$")


def parse_type_name(name: str) -> ScalarType:
    """Inverse of ``type_name``."""
    if name in NAMED_TYPES:
        return NAMED_TYPES[name]
    if name == "float32":
        return float32
    m = _TYPE_NAME_RE.match(name)
    if not m:
        fixed_type = parse_fixed_name(name)
        if fixed_type is not None:
            return fixed_type
        raise ValueError(f"not a vichls type name: {name!r}")
    return ScalarType(int(m.group(2)), m.group(1) == "int")


def common_type(a: ScalarType, b: ScalarType) -> ScalarType:
    """The type both operands of a binary operation convert to: the wider; at equal
    width, unsigned if either is unsigned."""
    if a.width != b.width:
        return a if a.width > b.width else b
    return ScalarType(a.width, a.signed and b.signed)


# -- fixed point: fixed(W, I) and ufixed(W, I), as Vitis HLS's ap_fixed ------------------
#
# A value of ``fixed(W, I)`` is a W-bit two's-complement integer ``raw`` (unsigned for
# ``ufixed``) standing for ``raw * 2**-(W - I)``: I integer bits (the sign included) and
# ``F = W - I`` fractional bits; I may be negative or larger than W (then F is negative and
# the value is a multiple of a power of two). Everywhere below the front end the value *is*
# its raw integer: arrays, streams, ports and the IR hold raw bits, so ``FixedType`` is a
# ``ScalarType`` (width and signedness of the raw bits) that also knows where the binary
# point is and what a conversion to it does:
#
# - quantization (``quant``): how bits below the type's LSB are dropped: "trn" (toward
#   minus infinity, the default), "trn_zero" (toward zero), "rnd" (to nearest, ties up),
#   "rnd_zero" (ties toward zero), "rnd_min_inf" (ties down), "rnd_inf" (ties away from
#   zero), "rnd_conv" (ties to even);
# - overflow (``overflow``): what a value outside the type's range becomes: "wrap" (modulo
#   2**W, the default), "sat" (the nearest bound), "sat_zero" (0), "sat_sym" (the nearest
#   bound, the negative one being -max, or -1 for a 1-bit type; ap_fixed also turns the
#   most negative value of a signed source into that bound).
#
# ``quantize`` is the Python meaning of those conversions on exact numbers, used for
# constants, for arguments coming from Python and by the tests; the kernel's own
# conversions are built from integer operations by frontend/fixed_point.py, and both are
# checked against ap_fixed itself (tests/fixed_oracle.py compiles Xilinx's headers).

QUANT_MODES = ("trn", "trn_zero", "rnd", "rnd_zero", "rnd_min_inf", "rnd_inf", "rnd_conv")
OVERFLOW_MODES = ("wrap", "sat", "sat_zero", "sat_sym")
#: the most bits a fixed value may have and still cross to and from Python as a float64
#: (53: every such value is a float64 exactly)
FLOAT_CROSSING_BITS = 53


@dataclass(frozen=True, repr=False)
class FixedType(ScalarType):
    """``fixed(W, I)`` (``signed``) or ``ufixed(W, I)``: see the module docstring."""

    int_bits: int = 0
    quant: str = "trn"
    overflow: str = "wrap"

    def __post_init__(self) -> None:
        if not 1 <= self.width <= MAX_WIDTH:
            raise ValueError(f"the width of {'fixed' if self.signed else 'ufixed'}(W, I) must "
                             f"be 1 to {MAX_WIDTH}, got {self.width}")
        if self.quant not in QUANT_MODES:
            raise ValueError(f"quant must be one of {', '.join(QUANT_MODES)}; got {self.quant!r}")
        if self.overflow not in OVERFLOW_MODES:
            raise ValueError(f"overflow must be one of {', '.join(OVERFLOW_MODES)}; got "
                             f"{self.overflow!r}")

    @property
    def frac_bits(self) -> int:
        return self.width - self.int_bits

    @property
    def plain(self) -> "FixedType":
        """The same format with the default modes (what operations give)."""
        return FixedType(self.width, self.signed, self.int_bits)

    @property
    def name(self) -> str:
        modes = ""
        if (self.quant, self.overflow) != ("trn", "wrap"):
            modes = f", quant={self.quant!r}, overflow={self.overflow!r}"
        return f"{'fixed' if self.signed else 'ufixed'}({self.width}, {self.int_bits}{modes})"

    def __repr__(self) -> str:
        return self.name

    @property
    def symmetric_min(self) -> int:
        """The raw bits a negative overflow gives under ``sat_sym``: ``-max`` (ap_fixed sets
        the sign bit and bit 0, which for one bit is the sign bit alone: -1)."""
        return self.wrap(self.min | 1)

    @property
    def crosses_as_float(self) -> bool:
        """Called from Python, does a value of this type come and go as a float64?"""
        return self.width <= FLOAT_CROSSING_BITS

    def value_of(self, raw: int) -> Fraction:
        """The exact number that the raw bits ``raw`` stand for."""
        return Fraction(self.wrap(raw)) * Fraction(2) ** -self.frac_bits

    def __call__(self, value) -> float:
        """A conversion, as assignment does it, of a Python number: the float it gives
        (in a kernel, ``fixed(16, 6)(x)`` is a cast)."""
        return float(self.value_of(quantize(_exact(value), self)))


def fixed(width: int, int_bits: int, quant: str = "trn", overflow: str = "wrap") -> FixedType:
    """``ap_fixed<width, int_bits, quant, overflow>``: signed, ``width`` bits (1 to 64), of
    which ``int_bits`` (the sign included) are above the binary point."""
    return FixedType(_whole("fixed", "width", width), True, _whole("fixed", "integer bits",
                                                                    int_bits), quant, overflow)


def ufixed(width: int, int_bits: int, quant: str = "trn", overflow: str = "wrap") -> FixedType:
    """``ap_ufixed<width, int_bits, quant, overflow>``: as ``fixed``, unsigned."""
    return FixedType(_whole("ufixed", "width", width), False,
                     _whole("ufixed", "integer bits", int_bits), quant, overflow)


def _whole(kind: str, what: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"the {what} of {kind}(W, I) must be an integer, got {value!r}")
    return int(value)


def as_fixed(t: ScalarType) -> FixedType:
    """An integer type as the fixed type that holds it exactly (``intW`` is ``fixed(W, W)``,
    as ap_fixed sees an integer operand); a fixed type as itself."""
    if isinstance(t, FixedType):
        return t
    return FixedType(t.width, t.signed, t.width)


# -- exact conversion --------------------------------------------------------------------


def round_scaled(x: Fraction, quant: str) -> int:
    """``x`` (a number in units of the target's LSB) to an integer, by ``quant``."""
    down = math.floor(x)
    rest = x - down  # in [0, 1)
    half = Fraction(1, 2)
    if rest == 0 or quant == "trn":
        return down
    if quant == "trn_zero":
        return down + 1 if x < 0 else down
    if rest > half:
        return down + 1
    if rest < half:
        return down
    # a tie
    if quant == "rnd":
        return down + 1
    if quant == "rnd_zero":
        return down + 1 if x < 0 else down
    if quant == "rnd_min_inf":
        return down
    if quant == "rnd_inf":
        return down + 1 if x > 0 else down
    if quant == "rnd_conv":
        return down + (down & 1)
    raise AssertionError(quant)


def saturate(q: int, t: FixedType, source_signed: bool = True) -> int:
    """The integer ``q`` (in units of ``t``'s LSB) as raw bits of ``t``, by its overflow
    mode. ``source_signed``: ap_fixed's ``sat_sym`` also maps the most negative value to
    ``-max`` when the value converted comes from a signed type."""
    lo, hi = t.min, t.max
    if t.overflow == "sat_sym" and t.signed and source_signed and q <= lo:
        return t.symmetric_min
    if lo <= q <= hi:
        return q
    if t.overflow == "wrap":
        return t.wrap(q)
    if t.overflow == "sat_zero":
        return 0
    if t.overflow == "sat_sym" and t.signed:
        return hi if q > hi else t.symmetric_min
    return hi if q > hi else lo  # sat (and sat_sym of an unsigned type)


def quantize(value, t: FixedType, source_signed: bool = True) -> int:
    """The raw bits of ``t`` that the exact number ``value`` (an int, a finite float or a
    Fraction) converts to, by ``t``'s quantization and overflow modes."""
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{value} has no fixed-point value")
    scaled = Fraction(value) * Fraction(2) ** t.frac_bits
    return saturate(round_scaled(scaled, t.quant), t, source_signed)


def convert_raw(raw: int, source: ScalarType, target: FixedType) -> int:
    """Raw bits of ``source`` (an integer or fixed type) converted to ``target``."""
    src = as_fixed(source)
    return quantize(src.value_of(raw), target, src.signed)


# -- Python values <-> raw bits ----------------------------------------------------------


def to_bits(values, t: FixedType):
    """The raw bits of ``t`` for Python or numpy numbers ``values`` (a scalar or an array),
    converted as an assignment would: an int for a scalar, an array of ``t.dtype`` for an
    array."""
    if not isinstance(t, FixedType):
        raise TypeError(f"to_bits takes a fixed-point type, got {t!r}")
    if np.ndim(values) == 0:
        return quantize(_exact(values), t)
    arr = np.asarray(values)
    flat = [quantize(_exact(v), t) for v in arr.reshape(-1).tolist()]
    return np.array(flat, dtype=t.dtype).reshape(arr.shape)


def from_bits(bits, t: FixedType):
    """The numbers that the raw bits ``bits`` of ``t`` stand for: a float for a scalar, a
    float64 array for an array (exact for types of at most 53 bits; rounded to nearest
    beyond)."""
    if not isinstance(t, FixedType):
        raise TypeError(f"from_bits takes a fixed-point type, got {t!r}")
    if np.ndim(bits) == 0:
        return float(t.value_of(int(bits)))
    arr = np.asarray(bits)
    flat = [float(t.value_of(int(b))) for b in arr.reshape(-1).tolist()]
    return np.array(flat, dtype=np.float64).reshape(arr.shape)


def _exact(v):
    if isinstance(v, (bool, np.bool_)):
        return int(v)
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, Fraction):
        return v
    return float(v)


# -- naming ------------------------------------------------------------------------------


def parse_fixed_name(name: str) -> FixedType | None:
    """Inverse of ``FixedType.name`` (``fixed(16, 6)``, ``ufixed(8, 2, quant='rnd',
    overflow='sat')``), or None when ``name`` is not a fixed type's name."""
    for prefix, signed in (("fixed(", True), ("ufixed(", False)):
        if name.startswith(prefix) and name.endswith(")"):
            parts = [p.strip() for p in name[len(prefix):-1].split(",")]
            try:
                width, int_bits = int(parts[0]), int(parts[1])
                modes = dict(p.split("=", 1) for p in parts[2:])
                modes = {k.strip(): v.strip().strip("'\"") for k, v in modes.items()}
                if set(modes) - {"quant", "overflow"} or len(parts) < 2:
                    return None
                return FixedType(width, signed, int_bits, modes.get("quant", "trn"),
                                 modes.get("overflow", "wrap"))
            except (ValueError, IndexError):
                return None
    return None



# -- floating point: float32 (IEEE-754 binary32) ---------------------------------------------


@dataclass(frozen=True, repr=False)
class FloatType(ScalarType):
    """``float32``: IEEE-754 binary32, as numpy's float32 computes it (round to nearest even,
    subnormals, signed zeros, infinities, NaN). A ``ScalarType`` of 32 bits so that arrays,
    streams and signatures hold it like any scalar; its values are numbers, not raw bits:
    the walkers of the typed tree compute on them with float operations."""

    def __post_init__(self) -> None:
        if self.width != 32:
            raise ValueError("only float32 is supported")

    @property
    def name(self) -> str:
        return "float32"

    def __repr__(self) -> str:
        return self.name

    def wrap(self, value) -> float:
        """A number as a float32 value (rounded to nearest even), as a Python float."""
        return float(np.float32(value))

    def __call__(self, value) -> float:
        return self.wrap(value)

    @property
    def dtype(self) -> np.dtype:
        return np.dtype(np.float32)


float32 = FloatType(32, True)


def float32_of(value) -> float:
    """The float32 nearest to the exact number ``value`` (an int, a Fraction or a float;
    ties to even), as a Python float: one rounding, where numpy would round a big int to
    float64 first."""
    if isinstance(value, float):
        return float(np.float32(value))
    x = Fraction(value)
    if x == 0:
        return 0.0
    sign, a = (-1 if x < 0 else 1), abs(x)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1  # now 2**e <= a < 2**(e + 1)
    e = max(e, -126)  # below the smallest normal exponent the step stays 2**-149
    scaled = a / Fraction(2) ** (e - 23)
    m = round_scaled(scaled, "rnd_conv")
    if e > 127 or (e == 127 and m >= 1 << 24):
        return sign * float("inf")
    return sign * float(Fraction(m) * Fraction(2) ** (e - 23))


def float32_bits(value: float) -> int:
    """The IEEE-754 binary32 bit pattern of ``value`` (rounded to float32 first)."""
    return int(np.array(value, dtype=np.float32).view(np.uint32))


# -- constant arrays: vichls.const(values, T) ------------------------------------------------


class ConstArray:
    """A read-only table a kernel indexes like an array: ``W = vichls.const(values, T)`` at
    module level. ``values`` (a numpy array or nested sequence, e.g. ``np.load("w.npy")``)
    are converted to the element type ``T`` as an assignment would convert them (wrapped for
    an integer type; quantized and saturated by its modes for a fixed-point one, which also
    takes floats; rounded to nearest even for float32). In hardware a ROM, on the CPU a
    constant; ``raw`` holds the raw bits (for float32, the numpy float32 values)."""

    def __init__(self, values, element: ScalarType):
        if not isinstance(element, ScalarType):
            raise TypeError(f"vichls.const(values, T): T must be a scalar type such as int8 or "
                            f"fixed(16, 2), got {element!r}")
        if isinstance(values, np.ndarray):
            arr = values
            if arr.dtype.kind not in "biuf":
                raise ValueError(f"vichls.const: the values must be numbers, got {arr.dtype}")
        else:  # (as objects: Python ints stay exact, where numpy would make big ones floats)
            try:
                arr = np.array(values, dtype=object)
            except ValueError as e:
                raise ValueError(f"vichls.const: the values are not an array ({e})") from None
        if arr.ndim == 0:
            raise ValueError("vichls.const: the values must be an array (1 to 4 dimensions), "
                             "not a single number")
        flat = arr.reshape(-1).tolist()
        numbers = (bool, int, float, np.bool_, np.integer, np.floating)
        if any(isinstance(v, (list, tuple)) for v in flat):
            raise ValueError("vichls.const: the values are not an array (rows of different "
                             "lengths)")
        if not all(isinstance(v, numbers) for v in flat):
            raise ValueError("vichls.const: the values must be numbers")
        self.type = ArrayType(element, tuple(int(d) for d in arr.shape))
        if isinstance(element, FloatType) and arr.dtype.kind == "f":
            with np.errstate(over="ignore"):  # (numpy rounds once, to nearest even; a
                raw = arr.astype(np.float32)  # float32 array keeps its bits, NaNs too)
        elif isinstance(element, FloatType):  # rounded once to float32 (ties to even)
            raw = [_float32_element(v) for v in flat]
        elif isinstance(element, FixedType):
            raw = [quantize(_exact(v), element) for v in flat]
        else:
            if not all(not isinstance(v, (float, np.floating)) or float(v).is_integer()
                       for v in flat):
                raise ValueError(f"vichls.const: {element!r} holds integers; the values "
                                 "have fractions (use a fixed-point type)")
            raw = [element.wrap(int(v)) for v in flat]
        self.raw = np.array(raw, dtype=element.dtype).reshape(arr.shape)
        self.raw.flags.writeable = False

    @property
    def values(self) -> np.ndarray:
        """The values as a caller sees them (floats for fixed point of at most 53 bits)."""
        t = self.type.element
        if isinstance(t, FixedType) and t.crosses_as_float:
            return from_bits(self.raw, t)
        return self.raw.copy()

    def __repr__(self) -> str:
        return f"vichls.const({self.type!r})"


def const(values, element: ScalarType) -> ConstArray:
    """A constant array for kernels (see ``ConstArray``)."""
    return ConstArray(values, element)


def clog2(n: int) -> int:
    """ceil(log2(n)) for n >= 1."""
    return max(0, (int(n) - 1).bit_length())


def address_width(words: int) -> int:
    """Width of an ap_memory address port for an array of ``words`` words."""
    return max(1, clog2(words))

"""Scalar and array types of the kernel language, and their exact integer semantics.

Every kernel value is a fixed-width two's-complement integer of 1 to 64 bits, signed or
unsigned (``bool_`` is the unsigned 1-bit type). This module is the single place that says
what a type is, how a Python int wraps into it, which numpy dtype holds it, and how a type
is spelled in source code and in the IR (``type_name`` / ``parse_type_name``).
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass

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
    simulation), which all consume what they get and append what they put, in place.
    """

    def __init__(self, type_: StreamType, values=()):
        self.type = type_
        self._items: deque[int] = deque()
        for v in values:
            self.put(v)

    def put(self, value) -> None:
        self._items.append(self.type.element.wrap(int(value)))

    def get(self) -> int:
        if not self._items:
            raise StreamEmptyError(f"get() from an empty {self.type!r}")
        return self._items.popleft()

    def empty(self) -> bool:
        return not self._items

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self):
        """The elements in order, without removing them."""
        return iter(list(self._items))

    def __repr__(self) -> str:
        return f"{self.type!r}({list(self._items)})"


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
    """Canonical spelling: ``int32``, ``uint8``, ``bool_``, ``int_(12)``, ``uint_(3)``."""
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
    m = _TYPE_NAME_RE.match(name)
    if not m:
        raise ValueError(f"not a vichls type name: {name!r}")
    return ScalarType(int(m.group(2)), m.group(1) == "int")


def common_type(a: ScalarType, b: ScalarType) -> ScalarType:
    """The type both operands of a binary operation convert to: the wider; at equal
    width, unsigned if either is unsigned."""
    if a.width != b.width:
        return a if a.width > b.width else b
    return ScalarType(a.width, a.signed and b.signed)


def clog2(n: int) -> int:
    """ceil(log2(n)) for n >= 1."""
    return max(0, (int(n) - 1).bit_length())


def address_width(words: int) -> int:
    """Width of an ap_memory address port for an array of ``words`` words."""
    return max(1, clog2(words))

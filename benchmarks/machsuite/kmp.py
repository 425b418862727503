"""MachSuite kmp/kmp: Knuth–Morris–Pratt string matching; builds the failure table of the
pattern, then counts the (possibly overlapping) occurrences of the pattern in the text.

The failure step is the textbook one (``k = next_prefix[k - 1]``; MachSuite's C reads
``kmpNext[q]`` there). The count is the return value (MachSuite writes it to
``n_matches[0]``). Characters are uint8 codes.

Inputs: a text over the letters a..d (a small alphabet, so matches and partial matches
abound) and a pattern taken from it; a fixed generator without one.

Sizes: small PATTERN = 4, TEXT = 64; mini PATTERN = 4, TEXT = 1024 (MachSuite: 4 and 32411).
"""

import numpy as np

from vichls import int32, kernel, uint8

SIZE = "small"  # the size this file is built at; benchmarks.suite rebuilds it at "mini"
PATTERN, TEXT = {"small": (4, 64), "mini": (4, 1024)}[SIZE]


@kernel
def kmp(pattern: uint8[PATTERN], text: uint8[TEXT], next_prefix: int32[PATTERN]) -> int32:
    k: int32 = 0
    next_prefix[0] = 0
    for q in range(1, PATTERN):
        while k > 0 and pattern[k] != pattern[q]:
            k = next_prefix[k - 1]
        if pattern[k] == pattern[q]:
            k += 1
        next_prefix[q] = k
    matches: int32 = 0
    matched: int32 = 0
    for i in range(TEXT):
        while matched > 0 and pattern[matched] != text[i]:
            matched = next_prefix[matched - 1]
        if pattern[matched] == text[i]:
            matched += 1
        if matched >= PATTERN:
            matches += 1
            matched = next_prefix[matched - 1]
    return matches


def directives(s):
    """Nothing to pipeline: both loops hold a while loop (the failure-link walk), which a
    pipeline cannot unroll, and a while loop cannot be pipelined itself."""


def make_inputs(rng: np.random.Generator | None = None) -> tuple:
    rng = rng if rng is not None else np.random.default_rng(32411)
    text = rng.integers(ord("a"), ord("d"), size=TEXT, endpoint=True)
    start = int(rng.integers(0, TEXT - PATTERN, endpoint=True))
    pattern = text[start:start + PATTERN].copy()
    return (pattern.astype(np.uint8), text.astype(np.uint8), np.zeros(PATTERN, dtype=np.int32))

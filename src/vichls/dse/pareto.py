"""Pareto frontiers of evaluated design points.

What: ``pareto_front(items, objectives)`` keeps the items no other item dominates, where
every objective is minimised (a point dominates another when it is no worse in every
objective and better in one). Items with equal objective vectors are all kept, as neither
dominates the other. The DSE uses (latency, LUT, DSP) for its frontier and two-objective
fronts for the plots.

Assumes: objectives are numbers (``inf`` for unknown); O(n²) is fine for the few hundred
points of a sweep.
"""

from __future__ import annotations

from typing import Callable, Sequence, TypeVar

Item = TypeVar("Item")


def dominates(a: Sequence[float], b: Sequence[float]) -> bool:
    """Is objective vector ``a`` no worse than ``b`` everywhere and better somewhere?"""
    return all(x <= y for x, y in zip(a, b)) and any(x < y for x, y in zip(a, b))


def pareto_front(items: Sequence[Item], objectives: Callable[[Item], Sequence[float]]
                 ) -> list[Item]:
    """The non-dominated items, sorted by their objective vectors."""
    vectors = [tuple(objectives(item)) for item in items]
    front = [item for item, v in zip(items, vectors)
             if not any(dominates(w, v) for w in vectors)]
    return sorted(front, key=lambda item: tuple(objectives(item)))

"""Design-space exploration of directives (``vichls dse``).

``explore(kernel, budget=...) -> DseResult`` searches unroll, tile, pipeline and partition
choices with the estimator, in this process, a local process pool or on a Dask cluster,
and can verify the chosen points in simulation. ``space`` defines the points and moves,
``evaluate`` grades a point, ``search`` walks the space, ``pareto`` keeps the frontier,
``verify`` simulates, ``report`` and ``plot`` present the outcome.
"""

from vichls.dse.search import PYNQ_Z1, DseMismatch, DseResult, explore, parse_budget
from vichls.dse.space import Point, Space, apply_directives, python_of

__all__ = ["PYNQ_Z1", "DseMismatch", "DseResult", "Point", "Space", "apply_directives",
           "explore", "parse_budget", "python_of"]

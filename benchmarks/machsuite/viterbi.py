"""MachSuite viterbi/viterbi in integer form: the most likely hidden-state path of an HMM,
with costs (−log probabilities as non-negative integers) added and minimised (min-plus).

Same steps as MachSuite: costs of the first observation, the forward recurrence over
observations (``llike``, a local array), the cheapest final state, and the backtrack that
re-derives each predecessor from ``llike`` and the transition costs. Ties go to the lowest
state, as MachSuite's strict ``<`` does. Matrices are 2-D here (MachSuite flattens them).

Inputs: costs in 0..255 and observations among the N_TOKENS tokens; a fixed generator
without one. Path costs stay below N_OBS·3·255, far from int32's range.

Sizes: small N_OBS = N_STATES = N_TOKENS = 8 (the 8×8 set); mini N_OBS = 32,
N_STATES = N_TOKENS = 16 (MachSuite: 140, 64, 64).
"""

import numpy as np

from vichls import int32, kernel

SIZE = "small"  # the size this file is built at; benchmarks.suite rebuilds it at "mini"
N_OBS, N_STATES, N_TOKENS = {"small": (8, 8, 8), "mini": (32, 16, 16)}[SIZE]


@kernel
def viterbi(obs: int32[N_OBS], init: int32[N_STATES], transition: int32[N_STATES, N_STATES],
            emission: int32[N_STATES, N_TOKENS], path: int32[N_OBS]):
    llike: int32[N_OBS, N_STATES] = 0
    for s in range(N_STATES):
        llike[0][s] = init[s] + emission[s][obs[0]]
    for t in range(1, N_OBS):
        for curr in range(N_STATES):
            best: int32 = llike[t - 1][0] + transition[0][curr] + emission[curr][obs[t]]
            for prev in range(1, N_STATES):
                cost: int32 = llike[t - 1][prev] + transition[prev][curr] + emission[curr][obs[t]]
                if cost < best:
                    best = cost
            llike[t][curr] = best
    best_state: int32 = 0
    best_cost: int32 = llike[N_OBS - 1][0]
    for s in range(1, N_STATES):
        if llike[N_OBS - 1][s] < best_cost:
            best_cost = llike[N_OBS - 1][s]
            best_state = s
    path[N_OBS - 1] = best_state
    for t in range(N_OBS - 2, -1, -1):
        best_state = 0
        best_cost = llike[t][0] + transition[0][path[t + 1]]
        for s in range(1, N_STATES):
            step: int32 = llike[t][s] + transition[s][path[t + 1]]
            if step < best_cost:
                best_cost = step
                best_state = s
        path[t] = best_state


def directives(s):
    """Pipeline the innermost loops: the min over previous states (prev) and the two
    searches over states (s)."""
    s.pipeline("prev").pipeline("s")


def make_inputs(rng: np.random.Generator | None = None) -> tuple:
    rng = rng if rng is not None else np.random.default_rng(140)
    obs = rng.integers(0, N_TOKENS, size=N_OBS)
    init = rng.integers(0, 255, size=N_STATES, endpoint=True)
    transition = rng.integers(0, 255, size=(N_STATES, N_STATES), endpoint=True)
    emission = rng.integers(0, 255, size=(N_STATES, N_TOKENS), endpoint=True)
    return tuple(a.astype(np.int32) for a in (obs, init, transition, emission)) + (
        np.zeros(N_OBS, dtype=np.int32),)

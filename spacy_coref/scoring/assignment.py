"""Maximum-weight one-to-one assignment, for CEAF's optimal alignment of key and response
clusters (v8.01 uses Algorithm::Munkres on 1 - similarity; the optimal total is the same)."""
from collections import defaultdict
from typing import Dict, List, Tuple

import numpy


def max_assignment(weights: Dict[Tuple[int, int], float]) -> float:
    """The total weight of a maximum-weight one-to-one assignment of rows to columns.

    Pairs absent from `weights` weigh 0. The bipartite graph is split into connected components
    (usually tiny for coreference) and each is solved exactly with the Hungarian algorithm.

    weights (Dict[Tuple[int, int], float]): Non-negative weights of (row, column) pairs.
    RETURNS (float): The optimal total weight.
    """
    parent: Dict[Tuple[str, int], Tuple[str, int]] = {}

    def find(node: Tuple[str, int]) -> Tuple[str, int]:
        root = node
        while parent.setdefault(root, root) != root:
            root = parent[root]
        while parent[node] != root:
            parent[node], node = root, parent[node]
        return root

    for i, j in weights:
        parent[find(("r", i))] = find(("c", j))
    components: Dict[Tuple[str, int], List[Tuple[int, int]]] = defaultdict(list)
    for pair in weights:
        components[find(("r", pair[0]))].append(pair)
    total = 0.0
    for pairs in components.values():
        rows = sorted({i for i, _ in pairs})
        cols = sorted({j for _, j in pairs})
        matrix = numpy.zeros((len(rows), len(cols)))  # [n_rows, n_cols]
        row_index = {r: n for n, r in enumerate(rows)}
        col_index = {c: n for n, c in enumerate(cols)}
        for i, j in pairs:
            matrix[row_index[i], col_index[j]] = weights[i, j]
        total += _hungarian_max(matrix)
    return total


def _hungarian_max(weights: numpy.ndarray) -> float:
    """Maximum-weight assignment value of a dense non-negative matrix (shortest augmenting
    paths with potentials, O(n^2 m), one vectorised pass over columns per step)."""
    if weights.shape[0] > weights.shape[1]:
        weights = weights.T
    n_rows, n_cols = weights.shape
    cost = weights.max() - weights  # [n_rows, n_cols]: minimise cost = maximise weight
    u = numpy.zeros(n_rows + 1)  # row potentials, 1-based (0 is the virtual start)
    v = numpy.zeros(n_cols + 1)  # column potentials, 1-based
    owner = numpy.zeros(n_cols + 1, dtype=int)  # row matched to each column, 0 = none
    for row in range(1, n_rows + 1):
        owner[0] = row
        col = 0
        min_slack = numpy.full(n_cols + 1, numpy.inf)
        previous = numpy.zeros(n_cols + 1, dtype=int)
        used = numpy.zeros(n_cols + 1, dtype=bool)
        while owner[col] != 0:
            used[col] = True
            current = owner[col]
            free = ~used[1:]
            slack = cost[current - 1] - u[current] - v[1:]  # [n_cols]
            better = free & (slack < min_slack[1:])
            min_slack[1:][better] = slack[better]
            previous[1:][better] = col
            candidates = numpy.where(free, min_slack[1:], numpy.inf)
            next_col = int(numpy.argmin(candidates)) + 1
            delta = candidates[next_col - 1]
            u[owner[used]] += delta
            v[used] -= delta
            min_slack[1:][free] -= delta
            col = next_col
        while col:
            owner[col] = owner[previous[col]]
            col = previous[col]
    matched = numpy.nonzero(owner[1:])[0]
    return float(weights[owner[1:][matched] - 1, matched].sum())

"""Entity Equalization (Kantor & Globerson 2019, section 3.1) as plain torch.

Given, for every kept mention i, a distribution over the null antecedent and its candidate
antecedents, the soft clustering Q(i in E_j) solves Q = P' Q + D, with P' the strictly
lower-triangular matrix of P(y_i = k) and D = diag(P(y_i = eps)). The entity representation seen
by mention i is a_i = sum_j Q(i in E_j) e_j^(i) with e_j^(i) = sum_{l<=i} Q(l in E_j) g_l, which
is a = tril(Q Q^T) G. No Python loop over mentions: one triangular solve per chunk.
"""
import torch
from torch import Tensor

from .constants import FIRST_ANTECEDENT_COLUMN, NULL_COLUMN


def soft_clusters(probs: Tensor, antecedents: Tensor, valid: Tensor) -> Tensor:
    """Q(i in E_j) for one chunk of consecutive mentions.

    probs (Tensor): [n, K+1] antecedent distribution, null antecedent at NULL_COLUMN.
    antecedents (Tensor): [n, K] chunk-local index of each candidate antecedent.
    valid (Tensor): [n, K] whether the candidate antecedent lies in this chunk (and exists).
    RETURNS (Tensor): [n, n] lower-triangular soft assignment of mention i to the entity that
        mention j started.
    """
    n = probs.shape[0]
    ant_probs = probs[:, FIRST_ANTECEDENT_COLUMN:]  # [n, K]
    inside = ant_probs * valid  # [n, K]
    # Mass on antecedents outside the chunk would be lost: count it as starting a new entity
    # here so that every row of Q still sums to one.
    null = probs[:, NULL_COLUMN] + (ant_probs - inside).sum(dim=1)  # [n]
    p_prime = torch.zeros((n, n), dtype=probs.dtype, device=probs.device)  # [n, n]
    rows = torch.arange(n, device=probs.device).unsqueeze(1).expand_as(antecedents)  # [n, K]
    p_prime = p_prime.index_put((rows, antecedents.clamp(min=0)), inside, accumulate=True)
    eye = torch.eye(n, dtype=probs.dtype, device=probs.device)  # [n, n]
    # (I - P') is unit lower-triangular, so the solve is exact and well conditioned.
    return torch.linalg.solve_triangular(eye - p_prime, torch.diag(null), upper=False)  # [n, n]


def entity_representations(q: Tensor, g: Tensor, mean: bool = False) -> Tensor:
    """a = tril(Q Q^T) G: the entity-level representation of every mention, a weighted sum
    over the mentions so far of its soft entity; with `mean`, each row's weights divided by
    their sum, so that the representation does not grow with the entity's size.

    q (Tensor): [n, n] soft clusters from `soft_clusters`.
    g (Tensor): [n, d] mention representations.
    mean (bool): a weighted mean, not a sum.
    RETURNS (Tensor): [n, d]
    """
    weights = torch.tril(q @ q.T)  # [n, n]
    if mean:
        # a row's own weight, sum over entities of Q(i in E)^2, is at least 1 / n: never 0
        weights = weights / weights.sum(dim=1, keepdim=True).clamp(min=1e-12)
    return weights @ g  # [n, d]

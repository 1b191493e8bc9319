"""The pronoun-completion head of seed 000 (section 3.2): predict a masked personal pronoun from
its mention representation with a one-hidden-layer FFNN, trained with cross-entropy.

The mention representation is the coreference head's own: g = [a_s(x_s); a_e(x_e)], the start
and end antecedent projections the s2e head scores pairs with. The projection is borrowed from
the coreference head, not copied, so this task trains the representation the coreference model
uses; only the FFNN's parameters belong to this head (the borrowed ones are updated once, by the
coreference model's optimizer step, with the gradients of both tasks summed).
"""

from typing import Any, Callable, List, Tuple

import numpy
import torch
from thinc.api import ArgsKwargs, Model, PyTorchWrapper_v2, torch2xp, xp2torch
from thinc.types import Floats2d, Ints1d
from torch import Tensor, nn

from ..ml.torch.s2e import S2ECorefHead

InT = Tuple[List[Floats2d], List[Ints1d]]  # token vectors per doc, pronoun positions per doc
OutT = Floats2d  # [P, n_classes] logits of every pronoun of the batch, docs in order


class PronounHead(nn.Module):
    def __init__(
        self, coref_head: S2ECorefHead, n_classes: int, *, hidden: int = 512, dropout: float = 0.3
    ):
        super().__init__()
        # A tuple hides the coreference head from this module's parameters (see module doc).
        self._shared: Tuple[S2ECorefHead] = (coref_head,)
        width = coref_head.mention_bilinear.in_features
        self.dropout = nn.Dropout(dropout)
        self.ffnn = nn.Sequential(
            nn.Linear(2 * width, hidden),
            nn.ReLU(),
            nn.Dropout(dropout),
            nn.Linear(hidden, n_classes),
        )

    def forward(self, vectors: List[Tensor], positions: List[Tensor]) -> Tensor:
        coref = self._shared[0]
        width = coref.mention_bilinear.in_features
        rows = [x[p] for x, p in zip(vectors, positions)]  # [P_d, n_in] each
        x = torch.cat(rows) if rows else vectors[0].new_zeros((0, coref.token_proj.in_features))
        proj = coref.act(coref.token_proj(self.dropout(x)))  # [P, 4h]
        _, _, a_s, a_e = proj.split(width, dim=1)  # [P, h] each
        # a pronoun is a one-token mention: its start and end are the same token
        return self.ffnn(torch.cat([a_s, a_e], dim=1))  # [P, n_classes]


def build_pronoun_model(
    coref_head: S2ECorefHead, n_classes: int, *, hidden: int = 512, dropout: float = 0.3
) -> Model[InT, OutT]:
    """A Thinc model over the pronoun head: (token vectors, pronoun positions) -> logits."""
    module = PronounHead(coref_head, n_classes, hidden=hidden, dropout=dropout)
    return PyTorchWrapper_v2(module, convert_inputs=_convert_inputs, convert_outputs=_convert_out)


def pronoun_loss(logits: numpy.ndarray, targets: numpy.ndarray) -> Tuple[float, numpy.ndarray]:
    """Mean cross-entropy of softmax(logits) against the target classes, and its gradient.

    logits (numpy.ndarray): [P, n_classes].
    targets (numpy.ndarray): [P] class indices.
    RETURNS (Tuple[float, numpy.ndarray]): the loss and d_logits [P, n_classes].
    """
    n = logits.shape[0]
    if n == 0:
        return 0.0, numpy.zeros_like(logits, dtype="float32")
    shifted = logits - logits.max(axis=1, keepdims=True)  # [P, n_classes]
    log_probs = shifted - numpy.log(numpy.exp(shifted).sum(axis=1, keepdims=True))
    loss = float(-log_probs[numpy.arange(n), targets].mean())
    d_logits = numpy.exp(log_probs)  # [P, n_classes]
    d_logits[numpy.arange(n), targets] -= 1.0
    return loss, (d_logits / n).astype("float32")


def _convert_inputs(model: Model, X: InT, is_train: bool) -> Tuple[ArgsKwargs, Callable]:
    vectors, positions = X
    device = model.shims[0].device
    vecs = [xp2torch(v, requires_grad=is_train, device=device) for v in vectors]
    pos = [torch.as_tensor(numpy.asarray(p), dtype=torch.long, device=device) for p in positions]

    def reverse(d_inputs: ArgsKwargs) -> List[Floats2d]:
        grads = d_inputs.args[0]
        return [
            model.ops.alloc2f(*v.shape) if g is None else torch2xp(g)
            for v, g in zip(vectors, grads)
        ]

    return ArgsKwargs(args=(vecs, pos), kwargs={}), reverse


def _convert_out(model: Model, X_Ytorch: Tuple[Any, Tensor], is_train: bool) -> Tuple:
    _, logits = X_Ytorch

    def reverse(d_logits: Floats2d) -> ArgsKwargs:
        grad = xp2torch(d_logits, device=model.shims[0].device)
        return ArgsKwargs(args=([logits],), kwargs={"grad_tensors": [grad]})

    return torch2xp(logits.detach()), reverse

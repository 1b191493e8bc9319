"""`spacy_coref.TransformerListener.v1`: spacy-transformers' `TransformerListener.v1` whose mean
pooling of each token's wordpieces is one scatter-add over the doc's encoder output.

spacy-transformers copies every aligned wordpiece row into a ragged array (one copy per
token, and per window where windows overlap), concatenates the docs' copies, and averages them:
on documents of 2,000 words and more, a sixth of the fast pipeline's time. Here the rows are
added, each scaled by 1 / the token's wordpiece count, straight into the token vectors, in the
order thinc's `reduce_mean` adds them: the same vectors bit for bit, without the copies. Other
poolings (`reduce_max`, `reduce_sum`, ...) keep spacy-transformers' `trfs2arrays`.

The model has the structure of spacy-transformers' (a chain of the listener and a pooling
layer holding the pooling as its sublayer), so weights saved with one load into the other, and
`nlp.replace_listeners` works on it as on theirs.
"""
from typing import Callable, List, Optional, Tuple

import torch
from spacy.tokens import Doc
from spacy.util import registry
from spacy_transformers.data_classes import TransformerData
from spacy_transformers.layers.listener import TransformerListener
from spacy_transformers.layers.trfs2arrays import trfs2arrays
from thinc.api import Model, chain
from thinc.types import Floats2d, Ragged
from thinc.util import torch2xp, xp2torch
from transformers.utils import ModelOutput

from ..profiling import TOKEN_VECTORS, section

MEAN_POOLING = "reduce_mean"


@registry.architectures("spacy_coref.TransformerListener.v1")
def build_transformer_listener(
    pooling: Model[Ragged, Floats2d], grad_factor: float = 1.0, upstream: str = "*"
) -> Model[List[Doc], List[Floats2d]]:
    """Token vectors from an upstream `transformer` component, as spacy-transformers'
    `TransformerListener.v1` gives them, with mean pooling computed without copies.

    pooling (Model[Ragged, Floats2d]): the reduction of a token's wordpiece vectors;
        `reduce_mean.v1` runs as one scatter-add, any other through spacy-transformers.
    grad_factor (float): the weight of this component's gradient in the encoder's update.
    upstream (str): the `transformer` component to listen to, or "*" for any.
    RETURNS (Model[List[Doc], List[Floats2d]]): one [n_tokens, width] array per doc.
    """
    listener = TransformerListener(upstream_name=upstream)
    if pooling.name == MEAN_POOLING:
        pool = aligned_mean(pooling, grad_factor)
    else:
        pool = trfs2arrays(pooling, grad_factor)
    model: Model = chain(listener, pool)
    model.set_ref("listener", listener)
    return model


def aligned_mean(
    pooling: Model[Ragged, Floats2d], grad_factor: float
) -> Model[List[TransformerData], List[Floats2d]]:
    """The mean of each token's aligned wordpiece vectors. `pooling` (a `reduce_mean`) is kept
    as a sublayer, unused, so that the structure matches `trfs2arrays`."""
    return Model(
        "trfs2arrays", _aligned_mean_forward, layers=[pooling], attrs={"grad_factor": grad_factor}
    )


def _aligned_mean_forward(
    model: Model, trf_datas: List[TransformerData], is_train: bool
) -> Tuple[List[Floats2d], Callable]:
    with section(TOKEN_VECTORS):
        return _aligned_means(model, trf_datas)


def _aligned_means(
    model: Model, trf_datas: List[TransformerData]
) -> Tuple[List[Floats2d], Callable]:
    outputs: List[Floats2d] = []
    backprops: List[Optional[Callable]] = []
    for trf_data in trf_datas:
        hidden = trf_data.model_output.get("last_hidden_state")
        if hidden is None or hidden.size == 0:
            # an empty doc: no wordpieces, no width (as spacy-transformers gives it)
            outputs.append(model.ops.alloc2f(0, 0))
            backprops.append(None)
            continue
        output, backprop = _doc_mean(model, trf_data, hidden)
        outputs.append(output)
        backprops.append(backprop)

    def backprop(d_outputs: List[Floats2d]) -> List[TransformerData]:
        d_trf_datas = []
        for trf_data, d_output, get_d_hidden in zip(trf_datas, d_outputs, backprops):
            if get_d_hidden is None:
                continue  # an empty doc's gradient goes nowhere
            d_hidden = get_d_hidden(d_output) * model.attrs["grad_factor"]
            d_trf_datas.append(
                TransformerData(
                    model_output=ModelOutput(last_hidden_state=d_hidden),
                    wordpieces=trf_data.wordpieces,
                    align=trf_data.align,
                )
            )
        return d_trf_datas

    return outputs, backprop


def _doc_mean(model: Model, trf_data: TransformerData, hidden) -> Tuple[Floats2d, Callable]:
    """One doc's token vectors [n_tokens, width] from its encoder output [segments, length,
    width], and the callback from their gradient to the output's."""
    shape = hidden.shape
    source = xp2torch(model.ops.reshape2f(hidden, -1, trf_data.width))  # [segments * length, W]
    index = xp2torch(model.ops.asarray1i(trf_data.align.dataXd)).long()  # [n_aligned]
    lengths = xp2torch(model.ops.asarray1i(trf_data.align.lengths)).long()  # [n_tokens]
    tokens = torch.repeat_interleave(torch.arange(len(lengths), device=lengths.device), lengths)
    # thinc's reduce_mean: 1 / length in double, rounded to float, each row scaled, then added
    scale = (1.0 / lengths.clamp(min=1).double()).to(source.dtype)[tokens].unsqueeze(1)
    means = source.new_zeros((len(lengths), source.shape[1]))  # [n_tokens, W]
    means.index_add_(0, tokens, source[index] * scale)

    def get_d_hidden(d_means: Floats2d):
        d_rows = xp2torch(model.ops.asarray2f(d_means))[tokens] * scale  # [n_aligned, W]
        d_source = source.new_zeros(source.shape).index_add_(0, index, d_rows)
        return torch2xp(d_source).reshape(shape)

    return torch2xp(means), get_d_hidden

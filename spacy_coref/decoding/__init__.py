"""Decoding: a doc's clusters from the model's antecedent scores, through registered steps
(`spacy_coref.decode.NAME.v1`) run in stages by a `Decoder` (`spacy_coref.decoder.v1`)."""
from . import steps  # noqa: F401 (registers the steps)
from .decoder import ORDER, Decoder, decode_clusters, default_step, registered_steps
from .state import DecodingState
from .step import STAGES, DecodingStep

__all__ = [
    "ORDER", "STAGES", "Decoder", "DecodingState", "DecodingStep", "decode_clusters",
    "default_step", "registered_steps",
]

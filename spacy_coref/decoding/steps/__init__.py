"""The decoding steps, one module each with its rule; importing this package registers them all."""
from . import (  # noqa: F401 (registers the steps)
    agreement,
    binding,
    cataphora,
    contrasts,
    distinct_names,
    groups,
    indefinites,
    names,
    null_scores_by_form,
    other_heads,
    quotes,
    salience,
    same_head,
    whole_phrases,
)

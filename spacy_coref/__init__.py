"""spacy-coref: coreference resolution native to spaCy v3.

The components (`coref_mentions`, `coref_cluster`, `coref`), the architecture, the scorers and
the corpus reader are registered through entry points, so spaCy finds them without an import.
"""
import logging
import os
import sys

from .about import __version__  # noqa: F401
from .extensions import Cluster, install_extensions  # noqa: F401
from .render import render  # noqa: F401

logging.getLogger("spacy_coref").addHandler(logging.NullHandler())


def _single_torch_thread_in_child() -> None:
    """A forked child inherits torch's thread pool in a broken state: once torch has run in the
    parent, `nlp.pipe(n_process=2)` deadlocks on Linux unless the child uses one thread."""
    torch = sys.modules.get("torch")  # never import torch just for this
    if torch is not None:
        torch.set_num_threads(1)


if hasattr(os, "register_at_fork"):  # not on Windows, which spawns
    os.register_at_fork(after_in_child=_single_torch_thread_in_child)

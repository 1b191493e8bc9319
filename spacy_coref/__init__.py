"""spacy-coref: coreference resolution native to spaCy v3.

The components (`coref_mentions`, `coref_cluster`, `coref`), the architecture, the scorers and
the corpus reader are registered through entry points, so spaCy finds them without an import.
"""
import logging

from .about import __version__  # noqa: F401
from .extensions import Cluster, install_extensions  # noqa: F401

logging.getLogger("spacy_coref").addHandler(logging.NullHandler())

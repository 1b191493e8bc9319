"""spacy-coref: coreference resolution native to spaCy v3."""
import logging

from .about import __version__  # noqa: F401

logging.getLogger("spacy_coref").addHandler(logging.NullHandler())

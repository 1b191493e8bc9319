"""Shared pipelines for the hardening tests
(adversarial text, serialization, multiprocessing, corrupted files, memory)."""

import os

import pytest
import spacy
from hardening_invariants import BASE_MODEL

os.environ.setdefault("HF_HUB_OFFLINE", "1")


@pytest.fixture(scope="module", autouse=True)
def single_torch_thread(one_torch_thread):
    """Every hardening module runs with one torch thread (tests/conftest.py says why)."""
    yield


@pytest.fixture(scope="session")
def english():
    """The parser pipeline alone plus `coref_mentions`."""
    nlp = spacy.load(BASE_MODEL)
    nlp.add_pipe("coref_mentions")
    return nlp


@pytest.fixture(scope="session")
def coref_nlp():
    """The parser pipeline with the shipped `coref` stack, pair scores kept."""
    nlp = spacy.load(BASE_MODEL)
    nlp.add_pipe("coref", config={"store_scores": True})
    return nlp

"""Shared pipelines for the hardening tests
(adversarial text, serialization, multiprocessing, corrupted files, memory)."""

import os

import pytest
import spacy
from hardening_invariants import BASE_MODEL

os.environ.setdefault("HF_HUB_OFFLINE", "1")


@pytest.fixture(scope="module", autouse=True)
def one_torch_thread():
    """On a busy 2-core machine torch's second intra-op thread waits for a time slice in every
    layer (0.5 s instead of 0.02 s for a one-sentence doc); one thread keeps these tests fast.
    The outputs are the same with any number of threads."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


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

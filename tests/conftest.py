import os
from pathlib import Path
from typing import List

import pytest

SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def pytest_addoption(parser):
    parser.addoption("--slow", action="store_true", default=False, help="run slow tests")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--slow"):
        return
    skip_slow = pytest.mark.skip(reason="slow: run with --slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip_slow)


@pytest.fixture(scope="module")
def one_torch_thread():
    """One torch thread for a test module. On a busy 2-core machine torch's second intra-op
    thread waits for a time slice in every layer (0.5 s instead of 0.02 s for a one-sentence
    doc), and each Ray worker runs with one thread too. Outputs are the same with any number of
    threads, up to float32 rounding."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """`../shared/data` beside the repository (CI has it there)."""
    path = Path(os.environ.get("SPACY_COREF_DATA", SHARED_DATA))
    if not path.exists():
        pytest.fail(f"Shared data not found at {path}: clone the project beside ../shared")
    return path


# Words per document of `mixed_length_texts`: from a few words to over two encoder windows
# (the default's 256-token windows and the fast pipeline's 512 wordpieces), in no order.
MIXED_LENGTHS = (60, 4, 330, 18, 1150, 45, 9, 520, 150, 0, 80, 780, 30, 260, 110, 950, 200, 640,
                 25, 420, 12, 70)


@pytest.fixture(scope="session")
def mixed_length_texts(shared_data) -> List[str]:
    """22 documents of public-domain prose (`unlabeled/`), each from another book's chunk,
    cut to MIXED_LENGTHS words: the batch-invariance checks run them through other batches."""
    from spacy_coref.benchmark.docset import cut_words, load_chunks

    chunks = load_chunks(shared_data / "unlabeled")
    step = len(chunks) // len(MIXED_LENGTHS)
    return [cut_words(chunks[i * step]["text"], n) for i, n in enumerate(MIXED_LENGTHS)]


@pytest.fixture(scope="session")
def tiny_span_model(tmp_path_factory):
    """Builds small coreference pipelines with random weights and span candidates (no parse
    needed), decoding with a low null score so that they link mentions into clusters:
    `tiny_span_model(text, clusters)` -> the saved pipeline's directory."""
    import spacy
    from spacy.training import Example
    from spacy.util import fix_random_seed

    from spacy_coref.annotations import set_clusters

    def build(text: str, clusters) -> Path:
        fix_random_seed(0)
        nlp = spacy.blank("en")
        config = {
            "hidden_width": 16,
            "candidates": "spans",
            "max_span_width": 2,
            "tok2vec": {"width": 16, "depth": 1, "embed_size": 200},
        }
        nlp.add_pipe("coref_cluster", config={"null_score": -50.0, "model": config})
        reference = nlp.make_doc(text)
        set_clusters(reference, clusters)
        nlp.initialize(lambda: [Example(nlp.make_doc(text), reference)])
        path = tmp_path_factory.mktemp("tiny_span_model") / "tiny"
        nlp.to_disk(path)
        return path

    return build

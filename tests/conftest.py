import os
from pathlib import Path
from typing import List

import pytest
from mixed_lengths import MIXED_LENGTHS

SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def pytest_addoption(parser):
    parser.addoption("--slow", action="store_true", default=False, help="run slow tests")


# Modules that take minutes (the smoke workflow's fixture runs the whole `spacy project`
# workflow), collected first: under `make test` (`-n 2 --dist loadfile`) one worker starts them
# at once while the other takes the rest, instead of starting them last.
FIRST_MODULES = ("training/test_smoke_workflow.py",)


def pytest_collection_modifyitems(config, items):
    tests_dir = Path(__file__).parent
    items.sort(key=lambda item: item.path.relative_to(tests_dir).as_posix() not in FIRST_MODULES)
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


def write_tiny_mpnet(path: Path, texts: List[str], n_layers: int, spare_rows: int = 0) -> Path:
    """A random MPNet (32 wide, `n_layers` layers, dropout 0, 514 positions) saved at `path`
    with an MPNetTokenizerFast over a tiny WordPiece vocabulary: <s>, <pad> (id 1, as in
    MPNet), </s>, the characters, the words of `texts`, and `spare_rows` unused entries."""
    import string

    import torch
    from transformers import MPNetConfig, MPNetModel, MPNetTokenizerFast

    path.mkdir(parents=True)
    chars = list(string.ascii_lowercase + string.digits + string.punctuation)
    words = sorted({w.strip(string.punctuation).lower() for t in texts for w in t.split()} - {""})
    vocab = ["<s>", "<pad>", "</s>", "[UNK]"] + chars + [f"##{c}" for c in chars] + words
    vocab += [f"unused{i}" for i in range(spare_rows)] + ["<mask>"]
    vocab = list(dict.fromkeys(vocab))  # "a" is a character and a word
    (path / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf8")
    MPNetTokenizerFast(vocab_file=str(path / "vocab.txt")).save_pretrained(path)
    config = MPNetConfig(
        vocab_size=len(vocab), hidden_size=32, num_hidden_layers=n_layers,
        num_attention_heads=2, intermediate_size=64, max_position_embeddings=514,
        hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0,
    )
    torch.manual_seed(0)
    MPNetModel(config).save_pretrained(path)
    return path


@pytest.fixture(scope="session")
def tiny_mpnet_writer():
    """`write_tiny_mpnet`, for the tests of MPNet-based (accurate) pipelines."""
    return write_tiny_mpnet


def tiny_accurate_config(n_frozen: int):
    """configs/coref_accurate.cfg without the sourced parser pipeline: the lower `n_frozen`
    encoder layers frozen, fp32, a constant learning rate and a small head; for a tiny MPNet
    put where `spacy_coref.packaged_encoder.v1` finds it."""
    import spacy

    config = spacy.util.load_config(Path(__file__).parents[1] / "configs" / "coref_accurate.cfg")
    config["nlp"]["pipeline"] = ["transformer", "coref_mentions", "coref_cluster"]
    for name in ("tok2vec", "tagger", "parser", "attribute_ruler", "ner"):
        del config["components"][name]
    config["training"]["frozen_components"] = []
    config["corpora"]["train"]["annotate"] = ["coref_mentions"]
    config["training"]["optimizer"]["learn_rate"] = 0.001
    config["components"]["transformer"]["model"].update(frozen_layers=n_frozen, precision="fp32")
    config["components"]["coref_cluster"]["model"].update(hidden_width=16, feature_width=8)
    return config


@pytest.fixture(scope="session")
def accurate_config_maker():
    """`tiny_accurate_config`, for the tests that train a tiny accurate pipeline."""
    return tiny_accurate_config

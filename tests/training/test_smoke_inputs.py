"""The smoke workflow's inputs: `subset` keeps the first documents, `tiny-encoder` saves a
small random BERT that transformers loads by directory."""
import subprocess
import sys

import pytest

from spacy_coref.annotations import get_clusters
from spacy_coref.formats import read_docs
from spacy_coref.training.smoke import write_subset, write_tiny_encoder


def test_subset_keeps_the_first_documents(shared_data, tmp_path):
    source = shared_data / "gum" / "dev"
    counts = write_subset(source, tmp_path / "gum.spacy", n_docs=2)
    written = read_docs(tmp_path / "gum.spacy")
    expected = read_docs(source)[:2]
    assert counts["documents"] == 2
    assert [d.text for d in written] == [d.text for d in expected]
    assert [get_clusters(d) for d in written] == [get_clusters(d) for d in expected]
    # more than there are: all of them
    gap = shared_data / "gap" / "gap-validation.tsv"
    assert write_subset(gap, tmp_path / "gap.spacy", n_docs=10_000)["documents"] == 454


def test_subset_errors(shared_data, tmp_path):
    with pytest.raises(ValueError, match="CE268"):
        write_subset(shared_data / "gum" / "dev", tmp_path / "x.spacy", n_docs=0)
    (tmp_path / "empty.jsonl").write_text("", encoding="utf8")
    with pytest.raises(ValueError, match="CE284"):
        write_subset(tmp_path / "empty.jsonl", tmp_path / "x.spacy", n_docs=1)
    cmd = [sys.executable, "-m", "spacy_coref", "subset", str(tmp_path / "empty.jsonl"),
           str(tmp_path / "x.spacy"), "--n-docs", "1"]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert result.returncode == 1 and "CE284" in result.stderr


def test_tiny_encoder_loads(tmp_path):
    from transformers import AutoModel, AutoTokenizer

    write_tiny_encoder(tmp_path, width=15, n_layers=1, seed=3)
    model = AutoModel.from_pretrained(tmp_path)
    assert (model.config.hidden_size, model.config.num_hidden_layers) == (16, 1)
    tokens = AutoTokenizer.from_pretrained(tmp_path)("Anna met her brother.", return_tensors="pt")
    assert model(**tokens).last_hidden_state.shape[-1] == 16
    with pytest.raises(ValueError, match="CE268"):
        write_tiny_encoder(tmp_path / "x", width=0)

"""The contract of every registered decoding step (`spacy_coref.decode.NAME.v1`): it decodes an
empty doc and an unparsed one, leaves its inputs as they were, and gives the same clusters
every time. Real docs and scores come from the decoding snapshot."""
import copy
from pathlib import Path

import numpy
import pytest
import spacy
from spacy.tokens import Doc
from spacy.util import registry

from thinc.api import NumpyOps

from spacy_coref.decoding import STAGES, Decoder, DecodingStep, default_step, registered_steps
from spacy_coref.decoding.snapshot import load_snapshot, unparsed_copy
from spacy_coref.pipeline.cluster import empty_scores
from spacy_coref.pipeline.constraints import CONSTRAINTS

SNAPSHOT = Path(__file__).parent.parent / "data" / "decoding_snapshot"
STEPS = registered_steps()


@pytest.fixture(scope="module")
def examples():
    """A LitBank doc (dialogue and long clusters), an OntoGUM doc and a GAP doc, parsed and
    unparsed, with their scores."""
    docs, scores, meta, _ = load_snapshot(SNAPSHOT, spacy.blank("en").vocab)
    picked = [0, 10, len(docs) - 1]
    found = []
    for i in picked:
        found.append((docs[i], scores[i]))
        found.append((unparsed_copy(docs[i]), scores[i]))
    return found, meta


def test_every_step_of_the_shortcut_is_registered():
    assert set(STEPS) == set(CONSTRAINTS)
    for name in CONSTRAINTS:
        assert registry.misc.get(f"spacy_coref.decode.{name}.v1")


@pytest.mark.parametrize("name", STEPS)
def test_a_step_names_itself_and_its_stages(name):
    step = default_step(name)
    assert isinstance(step, DecodingStep) and step.name == name
    assert step.stages and set(step.stages) <= set(STAGES)
    assert isinstance(step.needs_parse, bool)


@pytest.mark.parametrize("name", STEPS)
def test_a_step_decodes_an_empty_doc(name):
    decode = Decoder([default_step(name)])
    doc = Doc(spacy.blank("en").vocab, words=[])
    assert decode(doc, empty_scores(NumpyOps()), 0.0) == []


def snapshot_of(doc, scores):
    arrays = {f: numpy.array(getattr(scores, f)) for f in scores.__dataclass_fields__}
    spans = {key: [(s.start, s.end) for s in group] for key, group in doc.spans.items()}
    return arrays, spans, copy.deepcopy(doc.user_data), doc.to_bytes()


@pytest.mark.parametrize("name", STEPS)
def test_a_step_is_deterministic_and_leaves_its_inputs_alone(name, examples):
    found, meta = examples
    decode = Decoder([default_step(name)])
    for doc, scores in found:
        before = snapshot_of(doc, scores)
        first = decode(doc, scores, meta["null_score"], meta["null_scores_by_form"])
        second = decode(doc, scores, meta["null_score"], meta["null_scores_by_form"])
        assert first == second
        after = snapshot_of(doc, scores)
        for field, value in before[0].items():
            numpy.testing.assert_array_equal(after[0][field], value, err_msg=field)
        assert after[1:] == before[1:]
        for cluster in first:  # clusters of two or more mentions, each sorted, in the doc
            assert len(cluster) >= 2 and cluster == sorted(cluster)
            assert all(0 <= start < end <= len(doc) for start, end in cluster)


@pytest.mark.parametrize("name", STEPS)
def test_a_step_that_needs_a_parse_changes_nothing_without_one(name, examples):
    found, meta = examples
    step = default_step(name)
    if not step.needs_parse:
        pytest.skip("decodes without a parse")
    for doc, scores in found:
        if doc.has_annotation("DEP"):
            continue
        assert Decoder([step])(doc, scores, meta["null_score"]) == Decoder([])(
            doc, scores, meta["null_score"]
        )

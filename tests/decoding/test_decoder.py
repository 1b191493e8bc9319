"""The decoder: stages in order, steps in the config's order within a stage, the shortcut
`constraints = [...]`, step settings from the config, and the errors of a wrong decoder."""
from pathlib import Path

import pytest
import spacy
from decoding_helpers import scores_for  # noqa: E402 (tests/)

import spacy_coref  # noqa: F401 (registers the factories and steps)
from spacy_coref.decoding import ORDER, Decoder, DecodingStep, decode_clusters, default_step
from spacy_coref.decoding.snapshot import load_snapshot
from spacy_coref.pipeline.constraints import CONSTRAINTS
from spacy_coref.decoding.steps.salience import WEIGHTS

SNAPSHOT = Path(__file__).parent.parent / "data" / "decoding_snapshot"


def decoder_config(*steps, **settings):
    """A coref_cluster config whose decoder has these (section, function name) steps."""
    sections = {}
    for section, name in steps:
        sections[section] = {"@misc": f"spacy_coref.decode.{name}.v1", **settings.get(name, {})}
    return {"decoder": {"@misc": "spacy_coref.decoder.v1", "*": sections}}


class Recorder(DecodingStep):
    """A step of a user's own, recording when each of its stages runs."""

    def __init__(self, name, log):
        self.name, self.log = name, log

    def scores(self, state):
        self.log.append(("scores", self.name))

    def masks(self, state):
        self.log.append(("masks", self.name))

    def clusters(self, state):
        self.log.append(("clusters", self.name))


def test_stages_run_in_order_and_steps_in_the_decoders_order():
    log = []
    decode = Decoder([Recorder("b", log), Recorder("a", log)])
    doc = spacy.blank("en")("Ann met Bo .")
    decode(doc, scores_for([(0, 1), (2, 3)], [[], [1.0]]), 0.0)
    assert log == [("scores", "b"), ("scores", "a"), ("masks", "b"), ("masks", "a"),
                   ("clusters", "b"), ("clusters", "a")]


def test_the_config_sets_the_steps_their_order_and_settings():
    nlp = spacy.blank("en")
    config = decoder_config(("whole", "whole_phrases"), ("heads", "other_heads"),
                            other_heads={"margin": 1.5})
    cluster = nlp.add_pipe("coref_cluster", config=config)
    assert cluster.decoder.names == ["whole_phrases", "other_heads"]
    assert cluster.decoder.steps[1].margin == 1.5
    assert cluster.cfg["constraints"] == ["whole_phrases", "other_heads"]
    # the config round-trips: a pipeline built from it has the same decoder
    rebuilt = spacy.util.load_model_from_config(nlp.config).get_pipe("coref_cluster")
    assert rebuilt.decoder.names == cluster.decoder.names
    assert rebuilt.decoder.steps[1].margin == 1.5


def test_the_shortcut_runs_the_named_steps_in_the_decodings_order():
    nlp = spacy.blank("en")
    cluster = nlp.add_pipe("coref_cluster", config={"constraints": ["salience", "agreement"]})
    assert cluster.decoder.names == ["salience", "agreement"]
    reversed_names = list(reversed(CONSTRAINTS))
    other = nlp.add_pipe("coref_cluster", name="other", config={"constraints": reversed_names})
    assert other.decoder.names == list(ORDER)


def test_the_shortcut_order_does_not_change_the_clusters():
    docs, scores, meta, _ = load_snapshot(SNAPSHOT, spacy.blank("en").vocab)
    for doc, doc_scores in zip(docs[:3], scores[:3]):
        given = decode_clusters(doc, doc_scores, meta["null_score"], list(CONSTRAINTS))
        backwards = decode_clusters(doc, doc_scores, meta["null_score"],
                                    list(reversed(CONSTRAINTS)))
        assert given == backwards


def test_evaluation_keeps_the_settings_of_the_steps_it_keeps():
    nlp = spacy.blank("en")
    config = decoder_config(("a", "agreement"), ("h", "other_heads"), ("s", "salience"),
                            other_heads={"margin": 0.5})
    cluster = nlp.add_pipe("coref_cluster", config=config)
    assert cluster.current_decoder() is cluster.decoder
    cluster.cfg["constraints"] = ["other_heads", "agreement"]  # as `compare --without salience`
    kept = cluster.current_decoder()
    assert kept.names == ["agreement", "other_heads"]  # the decoder's order
    assert kept.steps[1] is cluster.decoder.steps[1]
    # a step the decoder lacks comes with its defaults, all in the shortcut's order
    cluster.cfg["constraints"] = ["binding", "other_heads"]
    assert cluster.current_decoder().names == ["other_heads", "binding"]
    assert cluster.current_decoder().steps[0].margin == 0.5


def test_a_decoder_with_constraints_that_differ_is_refused():
    nlp = spacy.blank("en")
    config = {**decoder_config(("a", "agreement")), "constraints": ["binding"]}
    with pytest.raises(ValueError, match="CE147"):
        nlp.add_pipe("coref_cluster", config=config)
    # the default list or the decoder's own names are no conflict
    config["constraints"] = ["agreement"]
    assert nlp.add_pipe("coref_cluster", config=config).decoder.names == ["agreement"]


def test_a_step_listed_twice_is_refused():
    with pytest.raises(ValueError, match="CE144.*agreement"):
        Decoder([default_step("agreement"), default_step("agreement")])


def test_an_unknown_step_is_refused_with_the_registered_ones():
    with pytest.raises(ValueError, match="CE145.*'telepathy'.*agreement"):
        default_step("telepathy")
    with pytest.raises(ValueError, match="CE145"):
        Decoder([default_step("agreement")]).only(["telepathy"])


def test_salience_weights_are_checked_and_partial_weights_keep_the_others():
    nlp = spacy.blank("en")
    config = decoder_config(("s", "salience"), salience={"weights": {"subject": 2.0}})
    step = nlp.add_pipe("coref_cluster", config=config).decoder.steps[0]
    assert step.weights["subject"] == 2.0 and step.weights["parallel"] == WEIGHTS["parallel"]
    misspelled = decoder_config(("s", "salience"), salience={"weights": {"subjecthood": 1.0}})
    with pytest.raises(ValueError, match="CE146.*subjecthood"):  # on loading the config
        spacy.blank("en").add_pipe("coref_cluster", config=misspelled)
    docs, scores, meta, _ = load_snapshot(SNAPSHOT, spacy.blank("en").vocab)
    wrong = default_step("salience")
    wrong.weights = {"subjecthood": 1.0}
    with pytest.raises(ValueError, match="CE146.*subjecthood"):
        Decoder([wrong])(docs[0], scores[0], 0.0)


def test_the_step_written_in_the_docs_decodes():
    text = (Path(__file__).parent.parent.parent / "docs" / "decoding.md").read_text()
    example = next(block for block in text.split("```python\n")[1:] if "class " in block)
    namespace = {}
    exec(example.split("```")[0], namespace)
    step = spacy.util.registry.misc.get("my_project.decode.no_first_person_links.v1")()
    doc = spacy.blank("en")("Ann said I left .")
    scores = scores_for([(0, 1), (2, 3)], [[], [2.0]])
    assert Decoder([])(doc, scores, 0.0) == [[(0, 1), (2, 3)]]
    assert Decoder([step])(doc, scores, 0.0) == []

"""scripts/decoding_sweep.py: a sweep's step settings (STEP.NAME=VALUE, --set STEP.NAME=EXPR)
reach the steps of the pipeline's decoder, keeping the settings they leave alone; unknown steps
and settings are refused with the known ones. No model: a blank pipeline's decoder."""
import sys
from pathlib import Path

import pytest
import spacy
from decoding_helpers import scores_for  # noqa: E402 (tests/)
from script_loading import load_script  # (tests/)

import spacy_coref  # noqa: F401 (registers the factories and steps)
from spacy_coref.decoding.steps import other_heads
from spacy_coref.decoding.steps.salience import WEIGHTS

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "decoding_sweep.py"


@pytest.fixture(scope="module")
def sweep():
    yield load_script(SCRIPT, "decoding_sweep")
    del sys.modules["decoding_sweep"]


@pytest.fixture
def decoder():
    """The decoder of a pipeline whose config sets other_heads' margin and salience's scale."""
    steps = {
        "a": {"@misc": "spacy_coref.decode.agreement.v1"},
        "h": {"@misc": "spacy_coref.decode.other_heads.v1", "margin": 1.5},
        "s": {"@misc": "spacy_coref.decode.salience.v1", "scale": 0.75},
    }
    config = {"decoder": {"@misc": "spacy_coref.decoder.v1", "*": steps}}
    cluster = spacy.blank("en").add_pipe("coref_cluster", config=config)
    return cluster.current_decoder()


def own(decoder):
    return {"null": 0.0, "constraints": list(decoder.names), "by_form": {}}


def step(decoder, name):
    return next(s for s in decoder.steps if s.name == name)


def test_a_step_setting_reaches_the_step_and_keeps_the_others(sweep, decoder):
    setting = sweep.parse_setting("null=-0.5,other_heads.margin=0.5", own(decoder))
    assert setting["null"] == -0.5
    built = sweep.decoder_with(decoder, setting["constraints"], setting["steps"])
    assert built.names == decoder.names
    assert step(built, "other_heads").margin == 0.5
    assert step(decoder, "other_heads").margin == 1.5  # the pipeline's decoder is unchanged
    assert step(built, "salience") is step(decoder, "salience")  # scale 0.75 kept
    # the margin decides: a link to another head noun scoring 1.0 above "no antecedent"
    doc = spacy.blank("en")("the government and the plan")
    scores = scores_for([(0, 2), (3, 5)], [[], [1.0]])
    assert decoder(doc, scores, 0.0) == []
    assert built(doc, scores, 0.0) == [[(0, 2), (3, 5)]]


def test_a_dict_setting_takes_one_entry_and_a_new_step_is_added(sweep, decoder):
    text = "salience.weights.subject=2,salience.scale=2"
    setting = sweep.parse_setting(text, own(decoder))
    salience = step(sweep.decoder_with(decoder, setting["constraints"], setting["steps"]),
                    "salience")
    assert salience.scale == 2
    assert salience.weights == {**WEIGHTS, "subject": 2}
    # a step that the decoding does not run comes with the setting
    setting = sweep.parse_setting("constraints=agreement,salience.scale=0.25", own(decoder))
    built = sweep.decoder_with(decoder, setting["constraints"], setting["steps"])
    assert sorted(built.names) == ["agreement", "salience"]
    assert step(built, "salience").scale == 0.25


def test_set_changes_the_pipelines_step_for_every_setting(sweep, decoder):
    changed = sweep.set_constant("other_heads.margin=OTHER_HEAD_MARGIN * 2", decoder)
    assert step(changed, "other_heads").margin == other_heads.OTHER_HEAD_MARGIN * 2
    assert step(changed, "salience").scale == 0.75


def test_unknown_steps_settings_and_build_time_constants_are_refused(sweep, decoder):
    with pytest.raises(SystemExit, match="unknown decoding step 'telepathy'.*other_heads"):
        sweep.parse_setting("telepathy.margin=1", own(decoder))
    with pytest.raises(SystemExit, match="'other_heads' has no setting 'margn'.*'margin'"):
        sweep.parse_setting("other_heads.margn=1", own(decoder))
    with pytest.raises(SystemExit, match="'agreement' has no setting 'x': it has none"):
        sweep.parse_setting("agreement.x=1", own(decoder))
    with pytest.raises(SystemExit, match="unknown setting 'nul'.*STEP.NAME"):
        sweep.parse_setting("nul=1", own(decoder))
    with pytest.raises(SystemExit, match="CE146.*subjecthood"):
        setting = sweep.parse_setting("salience.weights.subjecthood=1", own(decoder))
        sweep.decoder_with(decoder, setting["constraints"], setting["steps"])
    margin = other_heads.OTHER_HEAD_MARGIN
    with pytest.raises(SystemExit, match="other_heads.margin"):  # it would not reach the step
        sweep.set_constant("other_heads.OTHER_HEAD_MARGIN=0.1", decoder)
    assert other_heads.OTHER_HEAD_MARGIN == margin

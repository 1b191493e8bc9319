"""Pronoun problems (WinoGrande, WSC, PDP, BUG) as GAP-like partial examples."""
import json
from collections import Counter
from pathlib import Path
from typing import Any, Dict, List

import pytest
from spacy.training import Example

from spacy_coref.annotations import GOLD_MENTIONS_KEY, get_clusters
from spacy_coref.errors import DataFormatError
from spacy_coref.formats import read_docs
from spacy_coref.formats.gap import GAP_ID, gap_coref, gap_spans
from spacy_coref.formats.pronoun_problems import (
    DROP_GENDER,
    DROP_MODIFIER,
    DROP_NOT_FOUND,
    KEPT,
    PROBLEM_KIND,
    PROBLEM_TWIN,
    READ,
    iter_problems,
    load_pronoun_problems,
    split_by_twin,
)
from spacy_coref.pipeline.cluster import gold_annotation

WG = {"id": "wg-dev-ABC-1", "sentence": "Sarah was a much better surgeon than Maria so _ always "
      "got the easier cases.", "option1": "Sarah", "option2": "Maria", "answer": 2}


def _write(tmp_path: Path, rows: List[Any], name: str = "problems.jsonl") -> Path:
    path = tmp_path / name
    lines = [row if isinstance(row, str) else json.dumps(row) for row in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf8")
    return path


def _roles(doc) -> Dict[str, tuple]:
    return {s.label_: (s.text, s.start_char, s.start, s.end) for s in doc.spans[GOLD_MENTIONS_KEY]}


def test_winogrande_row_becomes_one_gap_like_example(tmp_path):
    docs, counts = load_pronoun_problems(_write(tmp_path, [WG]))
    (doc,) = docs
    assert doc.text == ("Sarah was a much better surgeon than Maria so she always got the easier "
                        "cases.")
    assert _roles(doc) == {"PRONOUN": ("she", 46, 9, 10), "A": ("Sarah", 0, 0, 1),
                           "B": ("Maria", 37, 7, 8)}
    # read as GAP docs are: the three spans, the pronoun's link to the answer (option 2)
    spans = gap_spans(doc)
    assert spans is not None and gap_coref(doc, spans) == {"A": False, "B": True}
    assert get_clusters(doc) == [[(7, 8), (9, 10)]]
    assert doc.user_data[GAP_ID] == "wg-dev-ABC-1"
    assert doc.user_data[PROBLEM_KIND] == "winogrande"
    assert doc.has_annotation("SENT_START")
    assert counts == Counter({READ: 1, KEPT: 1})


def test_problem_docs_train_like_gap_docs(tmp_path):
    (doc,) = read_docs(_write(tmp_path, [WG]))  # dispatched by its keys
    cluster_of, labelled = gold_annotation(Example(doc.copy(), doc))
    # only the three spans carry decisions: the gold-mention-filtered (partial) loss
    assert labelled == {(9, 10), (0, 1), (7, 8)}
    assert cluster_of == {(7, 8): 0, (9, 10): 0}


def test_determiner_slot_becomes_it(tmp_path):
    row = {"id": "wg-train-2", "sentence": "The trophy doesn't fit into the brown suitcase "
           "because the _ is too large.", "option1": "trophy", "option2": "suitcase",
           "answer": 1}
    (doc,), _ = load_pronoun_problems(_write(tmp_path, [row]))
    assert doc.text == "The trophy doesn't fit into the brown suitcase because it is too large."
    roles = _roles(doc)
    assert roles["PRONOUN"][:2] == ("it", 55)
    assert roles["A"][:2] == ("trophy", 4) and roles["B"][:2] == ("suitcase", 38)
    spans = gap_spans(doc)
    assert gap_coref(doc, spans) == {"A": True, "B": False}


def test_problems_no_pronoun_fits_are_dropped_and_counted(tmp_path):
    rows = [
        WG,
        dict(WG, id="wg-dev-X-1", option2="Ian", sentence=WG["sentence"].replace("Maria", "Ian")),
        {"id": "wg-dev-Y-1", "sentence": "We focus on the conscious actions, not the unconscious "
         "ones, because the _ actions are voluntary.", "option1": "conscious",
         "option2": "unconscious", "answer": 1},
        dict(WG, id="wg-dev-Z-1", option2="Maria", sentence="Sarah was better so _ won."),
    ]
    docs, counts = load_pronoun_problems(_write(tmp_path, rows))
    assert [doc.user_data[GAP_ID] for doc in docs] == ["wg-dev-ABC-1"]
    assert counts == Counter({READ: 4, KEPT: 1, DROP_GENDER: 1, DROP_MODIFIER: 1,
                              DROP_NOT_FOUND: 1})


def test_twins_stay_together_in_the_split(tmp_path):
    rows = []
    for stem in range(40):
        for n in (1, 2):
            rows.append(dict(WG, id=f"wg-dev-S{stem}-{n}"))
    for i in range(80):
        rows.append(dict(WG, id=f"wg-train-{i}"))
    docs, _ = load_pronoun_problems(_write(tmp_path, rows))
    assert docs[0].user_data[PROBLEM_TWIN] == docs[1].user_data[PROBLEM_TWIN] == "wg-dev-S0"
    assert docs[80].user_data[PROBLEM_TWIN] == docs[81].user_data[PROBLEM_TWIN]
    assert docs[81].user_data[PROBLEM_TWIN] != docs[82].user_data[PROBLEM_TWIN]
    for seed in range(5):
        train, dev = split_by_twin(docs, 0.3, seed=seed)
        assert train and dev and len(train) + len(dev) == len(docs)
        train_twins = {doc.user_data[PROBLEM_TWIN] for doc in train}
        assert not train_twins & {doc.user_data[PROBLEM_TWIN] for doc in dev}
    # the split does not depend on the order
    train, dev = split_by_twin(docs, 0.3, seed=1)
    train_r, dev_r = split_by_twin(list(reversed(docs)), 0.3, seed=1)
    assert {id(doc) for doc in dev} == {id(doc) for doc in dev_r}
    with pytest.raises(ValueError, match="CE046"):
        split_by_twin(docs, 1.5)


def test_wsc_pdp_and_bug_rows(tmp_path):
    wsc = {"id": "wsc-0", "before": "The city councilmen refused the demonstrators a permit "
           "because", "pronoun": "they", "after": "feared violence.",
           "options": ["The city councilmen", "The demonstrators"], "answer": 1}
    pdp = {"id": "pdp-0", "sentence": "Tom lent the boy a coat, and the boy thanked Fred. Then "
           "[MASK] went home.", "options": ["Tom", "the coat", "Fred"], "answer_text": "Fred"}
    bug = {"id": "bug-1", "tokens": ["The", "nurse", "finished", "his", "shift", "."],
           "profession": "nurse", "profession_index": 1, "pronoun": "his", "pronoun_index": 3,
           "stereotype": -1}
    (wsc_doc,), _ = load_pronoun_problems(_write(tmp_path, [wsc], "wsc.jsonl"))
    assert wsc_doc.text == ("The city councilmen refused the demonstrators a permit because they "
                            "feared violence.")
    roles = _roles(wsc_doc)
    assert roles["PRONOUN"][:2] == ("they", 63)
    assert roles["A"][:2] == ("The city councilmen", 0)
    assert roles["B"][:2] == ("the demonstrators", 28)  # "The demonstrators", in any case
    assert gap_coref(wsc_doc, gap_spans(wsc_doc)) == {"A": True, "B": False}

    (pdp_doc,), _ = load_pronoun_problems(_write(tmp_path, [pdp], "pdp.jsonl"))
    assert pdp_doc.text.endswith("Then he went home.")
    roles = _roles(pdp_doc)
    # three options: the answer and the first other option found in the text
    assert roles["A"][:2] == ("Tom", 0) and roles["B"][:2] == ("Fred", 45)
    assert gap_coref(pdp_doc, gap_spans(pdp_doc)) == {"A": False, "B": True}

    (bug_doc,), _ = load_pronoun_problems(_write(tmp_path, [bug], "bug.jsonl"))
    assert bug_doc.text == "The nurse finished his shift ."
    assert _roles(bug_doc) == {"PRONOUN": ("his", 19, 3, 4), "A": ("nurse", 4, 1, 2)}
    assert get_clusters(bug_doc) == [[(1, 2), (3, 4)]]


@pytest.mark.parametrize(
    "bad,message",
    [
        ("{not json", "CE040"),
        ({"id": "x", "text": "no kind"}, "CE042"),
        (dict(WG, sentence="_ and _ met."), "CE043"),
        (dict(WG, answer=3), "CE041"),
        ({"id": "pdp-1", "sentence": "[MASK] ran.", "options": ["A", "B"],
          "answer_text": "C"}, "CE044"),
        ({"id": "bug-1", "tokens": "The nurse", "profession_index": 1, "pronoun_index": 0},
         "CE041"),
    ],
)
def test_malformed_line_names_file_and_line(tmp_path, bad, message):
    path = _write(tmp_path, [WG, bad])
    with pytest.raises(DataFormatError, match=message) as info:
        list(iter_problems(path))
    assert f"{path}:2:" in str(info.value)


def test_coreference_jsonlines_still_read_as_documents(tmp_path):
    row = {"doc_key": "d", "sentences": [["Ann", "saw", "her", "."]], "clusters": [[[0, 0],
           [2, 2]]]}
    (doc,) = read_docs(_write(tmp_path, [row]))
    assert GOLD_MENTIONS_KEY not in doc.spans and get_clusters(doc) == [[(0, 1), (2, 3)]]


# problems kept per file of ../shared/data/pronouns (read, kept); see the module's rules
SHARED_FILES = {
    "winogrande-train-l.jsonl": (10234, 9237),
    "winogrande-dev.jsonl": (1267, 1129),
    "wsc273.jsonl": (273, 257),
    "pdp.jsonl": (60, 29),
    "bug-gold-wikipedia.jsonl": (1107, 1102),
}


def test_shared_pronoun_problems(shared_data):
    for name, (n_read, n_kept) in SHARED_FILES.items():
        docs, counts = load_pronoun_problems(shared_data / "pronouns" / name)
        assert (counts[READ], counts[KEPT], len(docs)) == (n_read, n_kept, n_kept), name
        assert sum(v for k, v in counts.items() if k.startswith("dropped")) == n_read - n_kept
        n_roles = 2 if name.startswith("bug") else 3
        assert all(len(doc.spans[GOLD_MENTIONS_KEY]) == n_roles for doc in docs), name
        assert all(len(get_clusters(doc)) == 1 for doc in docs), name

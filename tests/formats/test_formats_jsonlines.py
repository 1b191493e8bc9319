"""Word-level jsonlines (s2e / fastcoref / wl-coref): reading, writing, one fixture per defect."""
import json
from pathlib import Path
from typing import List

import pytest
from spacy.tokens import Doc
from spacy.vocab import Vocab

from spacy_coref.annotations import get_clusters, get_doc_id, get_speakers, set_clusters
from spacy_coref.errors import DataFormatError
from spacy_coref.formats import read_docs, write_docs
from spacy_coref.formats.jsonlines import read_jsonlines, write_jsonlines

GOOD = {
    "doc_key": "bc/cctv/00/cctv_0001",
    "sentences": [["Alice", "saw", "her", "sister", "."], ["She", "waved", "."]],
    "speakers": [["A"] * 5, ["-"] * 3],
    "clusters": [[[0, 0], [2, 2], [5, 5]], [[2, 3]]],
}


def _write(tmp_path: Path, lines: List[str]) -> Path:
    path = tmp_path / "data.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf8")
    return path


def test_read_jsonlines_end_inclusive_offsets(tmp_path):
    (doc,) = read_jsonlines(_write(tmp_path, [json.dumps(GOOD)]))
    assert [t.text for t in doc] == GOOD["sentences"][0] + GOOD["sentences"][1]
    assert [s.start for s in doc.sents] == [0, 5]
    assert get_clusters(doc) == [[(0, 1), (2, 3), (5, 6)], [(2, 4)]]
    assert get_speakers(doc) == ["A"] * 5 + [None] * 3
    assert get_doc_id(doc)["name"] == "bc/cctv/00/cctv_0001"


def test_write_jsonlines_round_trip(tmp_path):
    path = _write(tmp_path, [json.dumps(GOOD)])
    write_docs(read_docs(path), tmp_path / "out.jsonlines")
    obj = json.loads((tmp_path / "out.jsonlines").read_text(encoding="utf8"))
    assert {key: obj[key] for key in GOOD} == GOOD


def test_write_jsonlines_default_names_and_one_sentence(tmp_path):
    doc = Doc(Vocab(), words=["a", "b"])
    set_clusters(doc, [[(0, 2)]])
    write_jsonlines([doc], tmp_path / "out.jsonl")
    obj = json.loads((tmp_path / "out.jsonl").read_text(encoding="utf8"))
    assert obj == {"doc_key": "doc_0", "sentences": [["a", "b"]], "speakers": [["-", "-"]],
                   "clusters": [[[0, 1]]]}


def _with(**changes) -> str:
    return json.dumps({**GOOD, **changes})


# One fixture per defect: (lines, error code, line number, more text the message must hold).
DEFECTS = {
    "index_out_of_range": (
        [_with(), "", _with(clusters=[[[0, 0]], [[3, 8]]])], "CE032", 3,
        "cluster 1, mention 0 [3, 8]"),
    "end_exclusive_wrong_unit": (
        [_with(clusters=[[[5, 8]]])], "CE032", 1, "end inclusive"),
    "character_offsets_wrong_unit": (
        [_with(clusters=[[[0, 4], [10, 12]]])], "CE032", 1, "mention 1 [10, 12]"),
    "negative_index": ([_with(clusters=[[[-1, 0]]])], "CE032", 1, "cluster 0, mention 0"),
    "end_before_start": ([_with(clusters=[[[3, 2]]])], "CE032", 1, "[3, 2]"),
    "mention_not_a_pair": ([_with(clusters=[[[1, 2, 3]]])], "CE032", 1, "[1, 2, 3]"),
    "subword_file": ([_with(subtoken_map=[0, 1])], "CE034", 1, "subtoken_map"),
    "bad_json": ([_with(), '{"doc_key": '], "CE030", 2, "JSON"),
    "not_an_object": (["[1, 2]"], "CE030", 1, "list"),
    "no_sentences": ([json.dumps({"doc_key": "x", "clusters": []})], "CE031", 1, "'sentences'"),
    "empty_word": ([_with(sentences=[["a", ""]], speakers=None, clusters=[])], "CE035", 1, "''"),
    "speakers_shape": ([_with(speakers=[["A"] * 5, ["B"] * 2])], "CE033", 1, "[5, 3]"),
}


@pytest.mark.parametrize("defect", sorted(DEFECTS))
def test_malformed_jsonlines_names_file_and_line(tmp_path, defect):
    lines, code, line, detail = DEFECTS[defect]
    path = _write(tmp_path, lines)
    with pytest.raises(DataFormatError, match=code) as info:
        list(read_jsonlines(path))
    message = str(info.value)
    assert f"{path}:{line}:" in message
    assert detail in message

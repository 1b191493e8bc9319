"""CoNLL-2012 reading and writing on small hand-written files, one per defect."""
import io
import warnings
from pathlib import Path
from typing import List

import pytest
from spacy.tokens import Doc
from spacy.vocab import Vocab

from spacy_coref.annotations import (
    get_clusters,
    get_doc_id,
    get_speakers,
    set_clusters,
    set_doc_id,
    set_speakers,
)
from spacy_coref.errors import DataFormatError
from spacy_coref.formats import read_docs
from spacy_coref.formats.conll import coref_column, parse_brackets, read_conll, write_conll
from spacy_coref.util import bare_copy


def _line(doc: str, i: int, word: str, coref: str, speaker: str = "-") -> str:
    """An OntoNotes-layout (12 column) token line."""
    return "\t".join((doc, "0", str(i), word, "NN", "-", "-", "-", "-", speaker, "*", coref))


def _write(tmp_path: Path, lines: List[str], name: str = "test.conll") -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf8")
    return path


def _read(path: Path) -> List[Doc]:
    return list(read_conll(path))


GOOD = [
    "#begin document (bc/doc); part 000",
    _line("bc/doc", 0, "Alice", "(0)", "spk1"),
    _line("bc/doc", 1, "saw", "-", "spk1"),
    _line("bc/doc", 2, "her", "(1(0)", "spk1"),
    _line("bc/doc", 3, "sister", "1)", "spk1"),
    "",
    _line("bc/doc", 0, "She", "(1)|(2", "-"),
    _line("bc/doc", 1, "waved", "2)", "-"),
    _line("bc/doc", 2, ".", "", "-"),
    "",
    "#end document",
    "#begin document (bc/doc); part 001",
    _line("bc/doc", 0, "The", "(3(4"),
    _line("bc/doc", 1, "big", "-"),
    _line("bc/doc", 2, "dog", "4)"),
    _line("bc/doc", 3, "barks", "3)"),
    "#end document",
]


def test_read_conll_documents_parts_sentences_speakers(tmp_path):
    docs = _read(_write(tmp_path, GOOD))
    assert len(docs) == 2
    first, second = docs
    assert [t.text for t in first] == ["Alice", "saw", "her", "sister", "She", "waved", "."]
    assert [s.start for s in first.sents] == [0, 4]
    assert get_clusters(first) == [[(0, 1), (2, 3)], [(2, 4), (4, 5)], [(4, 6)]]
    assert get_speakers(first) == ["spk1"] * 4 + [None] * 3
    assert get_doc_id(first) == {
        "name": "bc/doc",
        "part": "000",
        "header": "#begin document (bc/doc); part 000",
    }
    assert get_doc_id(second)["part"] == "001"
    assert get_clusters(second) == [[(0, 3)], [(0, 4)]]
    assert [t.tag_ for t in second] == ["NN"] * 4
    # the predicted doc made for training and evaluation keeps the speakers (input) and not
    # the clusters (annotation)
    copy = bare_copy(first)
    assert get_speakers(copy) == get_speakers(first) and get_clusters(copy) == []


@pytest.mark.parametrize(
    "field,expected",
    [
        ("-", ([], [], [])),
        ("", ([], [], [])),
        ("(7", ([], [7], [])),
        ("7)", ([], [], [7])),
        ("(7)", ([7], [], [])),
        ("(3(4)", ([4], [3], [])),
        ("2)3)", ([], [], [2, 3])),
        ("(3)|(4", ([3], [4], [])),
        ("(100|99)", ([], [100], [99])),
        ("12)(5)(7", ([5], [7], [12])),
    ],
)
def test_parse_brackets(field, expected):
    assert parse_brackets(field, "f:1") == expected


def test_read_litbank_style_thirteen_columns_with_trailing_tab(tmp_path):
    def row(i: int, word: str, coref: str) -> str:
        return "\t".join(["lit", "0", str(i), word] + ["_"] * 8 + [coref])

    lines = ["#begin document (lit); part 0", row(0, "He", "(0)"), row(1, "ran", ""), "",
             row(0, "His", "(1(0)"), row(1, "dog", "1)"), "#end document"]
    (doc,) = _read(_write(tmp_path, lines))
    assert get_clusters(doc) == [[(0, 1), (2, 3)], [(2, 4)]]
    assert get_speakers(doc) == [None] * 4
    assert not doc.has_annotation("TAG")
    assert get_doc_id(doc)["header"] == "#begin document (lit); part 0"


def test_read_space_aligned_ontonotes_columns(tmp_path):
    lines = ["#begin document (nw/x); part 000",
             "nw/x   0   0   Bob   NNP   (TOP*   -   -   -   Speaker#1   *   (5)",
             "nw/x   0   1   left  VBD   *)      -   -   -   Speaker#1   *   -",
             "#end document"]
    (doc,) = _read(_write(tmp_path, lines))
    assert get_clusters(doc) == [[(0, 1)]]
    assert get_speakers(doc) == ["Speaker#1", "Speaker#1"]


def test_span_in_two_clusters_is_kept_and_warned_once_per_file(tmp_path):
    lines = ["#begin document (d); part 000", _line("d", 0, "it", "(1)|(2)"),
             _line("d", 1, "or", "(1)"), _line("d", 2, "this", "(2)|(3)"), "#end document",
             "#begin document (d); part 001", _line("d", 0, "x", "(1)|(2)"), "#end document"]
    with pytest.warns(UserWarning, match=r"CW001.*: 3 mention span") as record:
        docs = _read(_write(tmp_path, lines))
    assert len([w for w in record if "CW001" in str(w.message)]) == 1
    assert get_clusters(docs[0]) == [[(0, 1), (1, 2)], [(0, 1), (2, 3)], [(2, 3)]]
    assert get_clusters(docs[1]) == [[(0, 1)], [(0, 1)]]


def test_word_number_zero_without_blank_line_starts_a_sentence(tmp_path):
    lines = ["#begin document (d); part 000", _line("d", 0, "A", "-"), _line("d", 1, "b", "-"),
             _line("d", 0, "C", "-"), "#end document"]
    (doc,) = _read(_write(tmp_path, lines))
    assert [s.start for s in doc.sents] == [0, 2]


# One fixture per defect: (lines, error code, line number in the message).
DEFECTS = {
    "unclosed_bracket": (
        ["#begin document (d); part 000", _line("d", 0, "A", "(1"), _line("d", 1, "b", "-"),
         "#end document"], "CE014", 2),
    "unclosed_bracket_at_eof_without_end": (
        ["#begin document (d); part 000", _line("d", 0, "A", "-"), _line("d", 1, "b", "(4")],
        "CE014", 3),
    "close_without_open": (
        ["#begin document (d); part 000", _line("d", 0, "A", "(1)"), _line("d", 1, "b", "2)"),
         "#end document"], "CE013", 3),
    "close_of_other_cluster": (
        ["#begin document (d); part 000", _line("d", 0, "A", "(1"), _line("d", 1, "b", "2)"),
         "#end document"], "CE013", 3),
    "unknown_bracket": (
        ["#begin document (d); part 000", _line("d", 0, "A", "(1)"), _line("d", 1, "b", "(x)"),
         "#end document"], "CE012", 3),
    "unknown_bracket_double_paren": (
        ["#begin document (d); part 000", _line("d", 0, "A", "((1)"), "#end document"],
        "CE012", 2),
    "empty_bracket_item": (
        ["#begin document (d); part 000", _line("d", 0, "A", "(1)||(2)"), "#end document"],
        "CE012", 2),
    "wrong_column_count": (
        ["#begin document (d); part 000", _line("d", 0, "A", "-"), "",
         "d\t0\t0\tB\tNN\t-\t-\t-\t-\t*\t-", "#end document"], "CE008", 4),
    "too_few_columns": (
        ["#begin document (d); part 000", "0\tA\t-", "#end document"], "CE009", 2),
    "missing_end_document": (
        ["#begin document (d); part 000", _line("d", 0, "A", "(1)"), "",
         "#begin document (e); part 000", _line("e", 0, "B", "-"), "#end document"],
        "CE005", 4),
    "missing_end_document_at_eof": (
        ["#begin document (d); part 000", _line("d", 0, "A", "(1)"), ""], "CE006", 3),
    "end_without_begin": (
        ["#begin document (d); part 000", _line("d", 0, "A", "-"), "#end document",
         "#end document"], "CE007", 4),
    "token_outside_document": (
        [_line("d", 0, "A", "-"), "#begin document (d); part 000", "#end document"], "CE004", 1),
    "duplicate_doc_part": (
        ["#begin document (d); part 000", _line("d", 0, "A", "-"), "#end document",
         "#begin document (d); part 000", _line("d", 0, "A", "-"), "#end document"],
        "CE015", 4),
    "word_number_not_restarting": (
        ["#begin document (d); part 000", _line("d", 0, "A", "-"), _line("d", 1, "b", "-"), "",
         _line("d", 2, "C", "-"), "#end document"], "CE010", 5),
    "word_number_skipping": (
        ["#begin document (d); part 000", _line("d", 0, "A", "-"), _line("d", 2, "b", "-"),
         "#end document"], "CE010", 3),
    "word_number_not_a_number": (
        ["#begin document (d); part 000", _line("d", 0, "A", "-"), "d\t0\tx\tb\tNN\t-\t-\t-\t-"
         "\t-\t*\t-", "#end document"], "CE010", 3),
    "empty_word": (
        ["#begin document (d); part 000", _line("d", 0, "", "-"), "#end document"], "CE011", 2),
}


@pytest.mark.parametrize("defect", sorted(DEFECTS))
def test_malformed_conll_names_file_and_line(tmp_path, defect):
    lines, code, line = DEFECTS[defect]
    path = _write(tmp_path, lines)
    with pytest.raises(DataFormatError, match=code) as info:
        _read(path)
    message = str(info.value)
    assert f"{path}:{line}:" in message
    assert "\n" not in message


def test_duplicate_doc_part_across_files_of_a_directory(tmp_path):
    lines = ["#begin document (d); part 000", _line("d", 0, "A", "-"), "#end document"]
    _write(tmp_path, lines, "a.conll")
    second = _write(tmp_path, lines, "b_conll")
    expected = rf"CE015\] {second}:1: .*already read at .*a.conll:1"
    with pytest.raises(DataFormatError, match=expected):
        read_docs(tmp_path)


def _doc(words, sent_starts=None, clusters=(), speakers=None) -> Doc:
    doc = Doc(Vocab(), words=words, sent_starts=sent_starts)
    set_clusters(doc, clusters)
    if speakers is not None:
        set_speakers(doc, speakers)
    return doc


def test_write_conll_layout():
    doc = _doc(["A", "b", "C", "d"], [True, False, True, False],
               [[(0, 2), (2, 3)], [(0, 1)], [(1, 4)], [(0, 2)]], ["x y", "x y", None, None])
    set_doc_id(doc, "nw/d", part="3")
    out = io.StringIO()
    write_conll([doc, _doc(["e", "f", "g"])], out)
    lines = out.getvalue().split("\n")
    assert lines[0] == "#begin document (nw/d); part 3"
    # Clusters are numbered by first mention: [(0, 1)] is 0, then the two starting at [0:2].
    assert lines[1].split("\t") == ["nw/d", "3", "0", "A", "-", "-", "-", "-", "-", "x y", "*",
                                    "(0)(1(2"]
    assert lines[2].split("\t")[-1] == "1)2)(3"
    assert lines[3] == ""
    assert lines[4].split("\t")[2:4] == ["0", "C"]
    assert lines[4].split("\t")[-1] == "(1)"
    assert lines[4].split("\t")[9] == "-"
    assert lines[5].split("\t")[-1] == "3)"
    assert lines[6:8] == ["", "#end document"]
    # A doc without a name or sentence starts: `doc_<i>`, part 000, one sentence.
    assert lines[8] == "#begin document (doc_1); part 000"
    assert [line.split("\t")[:4] for line in lines[9:12]] == [
        ["doc_1", "0", "0", "e"], ["doc_1", "0", "1", "f"], ["doc_1", "0", "2", "g"]]
    assert lines[12:] == ["", "#end document", ""]
    assert all(len(line.split("\t")) == 12 for line in lines if "\t" in line)


def test_write_conll_keeps_the_header_as_read(tmp_path):
    path = _write(tmp_path, GOOD)
    out = tmp_path / "out.conll"
    write_conll(read_conll(path), out)
    text = out.read_text(encoding="utf8")
    assert text.startswith("#begin document (bc/doc); part 000\n")
    assert "#begin document (bc/doc); part 001\n" in text
    assert [get_clusters(d) for d in read_conll(out)] == [get_clusters(d) for d in read_conll(path)]


def test_write_conll_escapes_whitespace_tokens_one_line_each(tmp_path):
    doc = _doc(["Hi", "\n\n", "there", " "], clusters=[[(0, 1), (2, 3)]])
    write_conll([doc], tmp_path / "out.conll")
    (again,) = read_conll(tmp_path / "out.conll")
    assert len(again) == 4
    assert get_clusters(again) == [[(0, 1), (2, 3)]]


def test_write_conll_refuses_overlapping_mentions_of_one_cluster():
    # [0:3] and [1:4] in one cluster: the brackets would pair up as [1:3] and [0:4].
    doc = _doc(["a", "b", "c", "d"], clusters=[[(0, 3), (1, 4)]])
    with pytest.raises(DataFormatError, match=r"CE016.*\[0:3\], \[1:4\]"):
        coref_column(doc)


def test_write_conll_refuses_duplicate_headers():
    docs = [_doc(["a"]), _doc(["b"])]
    for doc in docs:
        set_doc_id(doc, "same", part="0")
    with pytest.raises(DataFormatError, match="CE017"):
        write_conll(docs, io.StringIO())


def test_nested_and_shared_boundary_mentions_round_trip(tmp_path):
    # Same cluster nested at either edge, one-token mentions inside, different clusters
    # crossing, and a span in two clusters.
    clusters = [[(0, 3), (0, 2), (1, 2), (2, 3)], [(1, 5), (3, 4)], [(3, 5)], [(3, 5)]]
    doc = _doc(["a", "b", "c", "d", "e"], clusters=clusters)
    write_conll([doc], tmp_path / "out.conll")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        (again,) = read_conll(tmp_path / "out.conll")
    assert sorted(get_clusters(again)) == sorted(get_clusters(doc))


def test_clusters_keep_first_bracket_order_when_first_mentions_tie(tmp_path):
    # Clusters 1 and 0 share their first span [0:2]. v8.01 orders clusters by their first
    # bracket, so cluster 1 (opened first) comes first, although cluster 0's mention closes
    # first. The order decides MUC and B-cubed of a shared span (see test_score_cli.py).
    lines = ["#begin document (d); part 000", _line("d", 0, "The", "(1(0"),
             _line("d", 1, "dog", "0)1)"), _line("d", 2, "it", "(0)"),
             _line("d", 3, "barks", "(1)"), "#end document"]
    with pytest.warns(UserWarning, match="CW001"):
        (doc,) = _read(_write(tmp_path, lines))
    assert get_clusters(doc) == [[(0, 2), (3, 4)], [(0, 2), (2, 3)]]
    # The writer numbers clusters in that order, so a round trip keeps it.
    write_conll([doc], tmp_path / "out.conll")
    with pytest.warns(UserWarning, match="CW001"):
        (again,) = read_conll(tmp_path / "out.conll")
    assert get_clusters(again) == get_clusters(doc)


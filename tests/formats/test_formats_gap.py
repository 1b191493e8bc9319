"""GAP TSV: reading, writing, one fixture per defect."""
from pathlib import Path
from typing import List

import pytest
from spacy.tokens import Doc
from spacy.vocab import Vocab

from spacy_coref.annotations import GOLD_MENTIONS_KEY, get_clusters, get_doc_id, set_clusters
from spacy_coref.errors import DataFormatError
from spacy_coref.formats import read_docs, write_docs
from spacy_coref.formats.gap import GAP_COLUMNS, GAP_ID, GAP_URL, read_gap, write_gap

HEADER = "\t".join(GAP_COLUMNS)
TEXT = 'Zoe met Simon\'s "best" friend Ann.  She liked her.'


def _row(text=TEXT, pronoun="her", p_off="46", a="Simon", a_off="8", a_coref="FALSE", b="Ann",
         b_off="30", b_coref="TRUE", url="http://x", id_="development-1") -> str:
    return "\t".join((id_, text, pronoun, p_off, a, a_off, a_coref, b, b_off, b_coref, url))


def _write(tmp_path: Path, rows: List[str], header: str = HEADER) -> Path:
    path = tmp_path / "gap.tsv"
    path.write_text("\n".join([header] + rows) + "\n", encoding="utf8")
    return path


def test_read_gap_spans_are_token_spans(tmp_path):
    (doc,) = read_gap(_write(tmp_path, [_row()]))
    assert doc.text == TEXT
    spans = {span.label_: span for span in doc.spans[GOLD_MENTIONS_KEY]}
    assert [(s.label_, s.text, s.start_char) for s in doc.spans[GOLD_MENTIONS_KEY]] == [
        ("PRONOUN", "her", 46), ("A", "Simon", 8), ("B", "Ann", 30)]
    # `Simon's` is split at the span edge; the quotes parse as plain characters.
    assert doc[spans["A"].end].text == "'s"
    pronoun, b = spans["PRONOUN"], spans["B"]
    assert get_clusters(doc) == [[(b.start, b.end), (pronoun.start, pronoun.end)]]
    assert doc.user_data[GAP_ID] == "development-1"
    assert doc.user_data[GAP_URL] == "http://x"
    assert get_doc_id(doc)["name"] == "development-1"
    assert len(list(doc.sents)) == 2


@pytest.mark.parametrize("a_coref,b_coref,n_clusters", [("FALSE", "FALSE", 0), ("TRUE", "FALSE", 1),
                                                         ("true", "false", 1)])
def test_read_gap_clusters_from_flags(tmp_path, a_coref, b_coref, n_clusters):
    (doc,) = read_gap(_write(tmp_path, [_row(a_coref=a_coref, b_coref=b_coref)]))
    assert len(get_clusters(doc)) == n_clusters
    assert len(doc.spans[GOLD_MENTIONS_KEY]) == 3


def test_read_gap_quote_at_field_start_is_text(tmp_path):
    # A CSV reader with quoting on would swallow the tabs after an opening `"`.
    text = '"Her" he said, and Ann left.'
    row = _row(text=text, pronoun="he", p_off="6", a="Ann", a_off="19", b="Her", b_off="1")
    doc, second = read_gap(_write(tmp_path, [row, _row(id_="development-2")]))
    assert doc.text == text
    assert doc.user_data[GAP_URL] == "http://x"
    assert second.user_data[GAP_ID] == "development-2"


def test_gap_round_trip_is_byte_identical(tmp_path):
    rows = [_row(), _row(id_="development-2", a_coref="TRUE", b_coref="FALSE", url="")]
    path = _write(tmp_path, rows)
    write_docs(read_docs(path), tmp_path / "out.tsv")
    assert (tmp_path / "out.tsv").read_text(encoding="utf8") == path.read_text(encoding="utf8")


def test_write_gap_uses_the_clusters_given(tmp_path):
    (doc,) = read_gap(_write(tmp_path, [_row()]))
    spans = {span.label_: span for span in doc.spans[GOLD_MENTIONS_KEY]}
    set_clusters(doc, [[(s.start, s.end) for s in (spans["A"], spans["PRONOUN"])]])
    write_gap([doc], tmp_path / "pred.tsv")
    row = (tmp_path / "pred.tsv").read_text(encoding="utf8").splitlines()[1].split("\t")
    assert (row[6], row[9]) == ("TRUE", "FALSE")


def test_write_gap_needs_the_three_spans(tmp_path):
    with pytest.raises(DataFormatError, match="CE026"):
        write_gap([Doc(Vocab(), words=["a"])], tmp_path / "out.tsv")


# One fixture per defect: (rows, header, error code, line number).
DEFECTS = {
    "offset_off_the_text": ([_row(), _row(a_off="9")], HEADER, "CE023", 3),
    "span_not_in_text": ([_row(b="Bob")], HEADER, "CE023", 2),
    "offset_past_the_end": ([_row(p_off="500")], HEADER, "CE023", 2),
    "offset_not_a_number": ([_row(p_off="4x")], HEADER, "CE022", 2),
    "bad_label": ([_row(), _row(), _row(b_coref="YES")], HEADER, "CE024", 4),
    "missing_column": ([_row().rsplit("\t", 1)[0]], HEADER, "CE021", 2),
    "bad_header": ([_row()], "ID\tText", "CE020", 1),
}


@pytest.mark.parametrize("defect", sorted(DEFECTS))
def test_malformed_gap_names_file_and_line(tmp_path, defect):
    rows, header, code, line = DEFECTS[defect]
    path = _write(tmp_path, rows, header)
    with pytest.raises(DataFormatError, match=code) as info:
        list(read_gap(path))
    assert f"{path}:{line}:" in str(info.value)

"""read_docs / write_docs: formats by file name, directories, DocBin, stats helpers."""
import pytest
from spacy.tokens import Doc
from spacy.vocab import Vocab

from spacy_coref.annotations import get_clusters, get_doc_id, set_clusters, set_doc_id
from spacy_coref.errors import DataFormatError
from spacy_coref.formats import data_format, read_docs, write_docs
from spacy_coref.formats.stats import corpus_stats, count_nested

CONLL = (
    "#begin document ({name}); part 000\n{name}\t0\t0\tHe\t(0)\n{name}\t0\t1\tran\t-\n"
    "#end document\n"
)


@pytest.mark.parametrize(
    "name,fmt",
    [("a.conll", "conll"), ("a.gold_conll", "conll"), ("a.v4_gold_conll", "conll"),
     ("cctv_0000.v9_auto_conll", "conll"), ("gap-test.tsv", "gap"), ("a.jsonl", "jsonl"),
     ("a.jsonlines", "jsonl"), ("train.spacy", "spacy"), ("a.txt", None), ("LICENSE", None)],
)
def test_data_format(name, fmt):
    assert data_format(name) == fmt


def test_read_docs_directory_reads_data_files_in_name_order(tmp_path):
    (tmp_path / "b.conll").write_text(CONLL.format(name="b"), encoding="utf8")
    (tmp_path / "a_conll").write_text(CONLL.format(name="a"), encoding="utf8")
    (tmp_path / "README.md").write_text("not data", encoding="utf8")
    (tmp_path / "sub").mkdir()
    docs = read_docs(tmp_path)
    assert [get_doc_id(doc)["name"] for doc in docs] == ["a", "b"]
    assert docs[0].vocab is docs[1].vocab


def test_read_docs_unknown_extension_and_empty_directory(tmp_path):
    (tmp_path / "data.txt").write_text("x", encoding="utf8")
    with pytest.raises(DataFormatError, match="CE001"):
        read_docs(tmp_path / "data.txt")
    with pytest.raises(DataFormatError, match="CE002"):
        read_docs(tmp_path)
    with pytest.raises(DataFormatError, match="CE001"):
        write_docs([], tmp_path / "out.txt")


def test_docbin_keeps_clusters_and_identity(tmp_path):
    doc = Doc(Vocab(), words=["a", "b", "c"], sent_starts=[True, False, True])
    set_clusters(doc, [[(0, 2), (2, 3)], [(1, 2)]])
    set_doc_id(doc, "x", part="001", header="#begin document (x); part 001")
    write_docs([doc], tmp_path / "sub" / "out.spacy")
    (again,) = read_docs(tmp_path / "sub" / "out.spacy")
    assert get_clusters(again) == get_clusters(doc)
    assert get_doc_id(again) == get_doc_id(doc)
    assert [t.is_sent_start for t in again] == [True, False, True]


def test_corrupt_docbin(tmp_path):
    (tmp_path / "bad.spacy").write_bytes(b"not a docbin")
    with pytest.raises(DataFormatError, match="CE003.*bad.spacy"):
        read_docs(tmp_path / "bad.spacy")


def test_count_nested_counts_spans_strictly_inside_another():
    # [0:4] holds [0:2], [1:2] and [2:4]; [1:2] is also in [0:2]; [5:6] stands alone; the
    # repeated [0:2] counts once.
    assert count_nested([(0, 4), (0, 2), (1, 2), (2, 4), (5, 6), (0, 2)]) == 3
    assert count_nested([(0, 2), (1, 3)]) == 0


def test_corpus_stats():
    doc = Doc(Vocab(), words=["a", "b", "c"], sent_starts=[True, True, False])
    set_clusters(doc, [[(0, 2), (2, 3)], [(1, 2)], [(1, 2)]])
    assert corpus_stats([doc, Doc(Vocab(), words=[])]) == {
        "documents": 2, "tokens": 3, "sentences": 2, "mentions": 4, "clusters": 3,
        "singletons": 2, "nested_mentions": 1, "longest_doc": 3,
    }

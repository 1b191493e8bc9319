"""The GUM genres of the training corpus (spacy_coref.training.corpus)."""
import csv

from spacy.tokens import Doc
from spacy.vocab import Vocab

from spacy_coref.annotations import set_doc_id
from spacy_coref.training.corpus import (
    GUM_COMMERCIAL_GENRES,
    GUM_GENRE_LICENSES,
    gum_genre,
    keep_genres,
)

NON_COMMERCIAL = ("essay", "fiction", "letter", "podcast", "whow")
COMMERCIAL = ("academic", "bio", "court", "interview", "news")
COMMERCIAL += ("speech", "textbook", "vlog", "voyage")


def test_default_genres_are_those_with_a_known_commercial_license():
    assert set(GUM_COMMERCIAL_GENRES) == set(GUM_GENRE_LICENSES) == set(COMMERCIAL)
    assert not set(GUM_COMMERCIAL_GENRES) & {*NON_COMMERCIAL, "conversation"}
    assert GUM_GENRE_LICENSES["bio"] == GUM_GENRE_LICENSES["voyage"] == "CC BY-SA 3.0"
    assert all(isinstance(text, str) and text for text in GUM_GENRE_LICENSES.values())


def test_keep_genres_filters_by_document_name():
    docs = []
    for name in ("GUM_bio_x", "GUM_fiction_y", "GUM_vlog_z", "GUM_conversation_w", "other"):
        doc = Doc(Vocab(), words=["a"])
        set_doc_id(doc, name)
        docs.append(doc)
    kept = keep_genres(docs, GUM_COMMERCIAL_GENRES)
    assert [gum_genre(doc) for doc in kept] == ["bio", "vlog"]


def test_default_genres_of_the_shared_data(shared_data):
    with (shared_data / "gum" / "doc_sources.tsv").open(encoding="utf8") as file_:
        rows = list(csv.DictReader(file_, delimiter="\t", quoting=csv.QUOTE_NONE))
    train = [row for row in rows if row["split"] == "train"]
    assert {row["genre"] for row in train} >= set(GUM_COMMERCIAL_GENRES)
    assert sum(row["genre"] in GUM_COMMERCIAL_GENRES for row in train) == 117

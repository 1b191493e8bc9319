"""The word-tag table of the fast pipeline: each lower-case word's most frequent tag, built by
`spacy-coref word-tags` and shipped with the package."""
import gzip
import json
from collections import Counter

import pytest
import spacy
from spacy.tokens import Doc
from typer.testing import CliRunner

from spacy_coref.cli import app
from spacy_coref.linguistics.word_tags import (
    TABLE_PATH,
    TAG_CODES,
    count_word_tags,
    load_fine_word_tags,
    load_word_tags,
    most_frequent_tags,
    tag_codes,
    write_word_tags,
)

runner = CliRunner()


def test_the_shipped_table_knows_common_words():
    tags = load_word_tags()
    assert len(tags) > 10_000
    assert all(word == word.lower() for word in tags)
    assert [tags[w] for w in ("paid", "thanked", "at", "the", "plan", "quickly")] == [
        "VERB", "VERB", "ADP", "DET", "NOUN", "ADV",
    ]
    fine = load_fine_word_tags()
    assert set(fine) == set(tags)
    assert [fine[w] for w in ("need", "thinks", "thought", "plans")] == ["VBP", "VBZ", "VBD", "NNS"]


def test_the_arrays_find_words_that_are_also_spacy_symbols():
    # a doc stores the small id of spaCy's "number" and "root" (labels too), not their hashes
    doc = Doc(spacy.blank("en").vocab, words=["the", "number", "of", "the", "root", "plan"])
    tags = load_word_tags()
    expected = [TAG_CODES.get(tags.get(t.lower_), 0) for t in doc]
    assert expected[1] == expected[4] == TAG_CODES["NOUN"]
    assert tag_codes(doc.to_array("LOWER"), tags).tolist() == expected


def test_counts_leave_out_words_with_capitals():
    words = ["Tom", "paid", "the", "bill", "and", "Paid", "again"]
    pos = ["PROPN", "VERB", "DET", "NOUN", "CCONJ", "VERB", "ADV"]
    tags = ["NNP", "VBD", "DT", "NN", "CC", "VBD", "RB"]
    counts = count_word_tags([Doc(spacy.blank("en").vocab, words=words, pos=pos, tags=tags)])
    assert set(counts) == {"paid", "the", "bill", "and", "again"}
    assert counts["paid"] == Counter({("VERB", "VBD"): 1})


def test_most_frequent_tag_with_a_minimum_count_and_a_fixed_order_for_ties():
    counts = {
        # the coarse tag by all its fine ones: VERB (5) over NOUN (4), though NN is the pair
        # seen most often
        "saw": Counter({("VERB", "VBD"): 3, ("VERB", "VBP"): 2, ("NOUN", "NN"): 4}),
        "like": Counter({("VERB", "VB"): 2, ("ADP", "IN"): 2}),  # a tie: alphabetical order
        "rare": Counter({("ADJ", "JJ"): 1}),
    }
    table = most_frequent_tags(counts, min_count=2)
    assert table == {"saw": ("VERB", "VBD"), "like": ("ADP", "IN")}
    assert most_frequent_tags(counts, min_count=1)["rare"] == ("ADJ", "JJ")


def test_written_tables_read_back_and_do_not_depend_on_when_they_were_written(tmp_path):
    table = {"paid": ("VERB", "VBD"), "at": ("ADP", "IN")}
    first, second = tmp_path / "a.tsv.gz", tmp_path / "b.tsv.gz"
    assert write_word_tags(table, first)[0] == 2
    write_word_tags(dict(reversed(list(table.items()))), second)
    assert first.read_bytes() == second.read_bytes()
    assert load_word_tags(first) == {"paid": "VERB", "at": "ADP"}
    assert load_fine_word_tags(first) == {"paid": "VBD", "at": "IN"}


def test_a_broken_line_names_its_file_and_line(tmp_path):
    path = tmp_path / "broken.tsv.gz"
    with gzip.open(path, "wt", encoding="utf8") as f:
        f.write("paid\tVERB\tVBD\nat\tADP\n")
    with pytest.raises(ValueError, match=r"broken\.tsv\.gz:2: .*'at\tADP'.*word-tags"):
        load_word_tags(path)


def test_the_shipped_table_is_in_the_package():
    # `include_package_data` and setup.cfg's package_data put it in the wheel
    assert TABLE_PATH.name == "word_tags.tsv.gz" and TABLE_PATH.exists()


def test_the_command_tags_unlabeled_text(tmp_path):
    data = tmp_path / "texts.jsonl"
    text = "She paid the bill. He paid the rent and left. They paid the driver."
    data.write_text(json.dumps({"id": "a", "text": text}) + "\n", encoding="utf8")
    output = tmp_path / "tags.tsv.gz"
    result = runner.invoke(app, ["word-tags", str(output), "--unlabeled", str(data)])
    assert result.exit_code == 0, result.output
    tags = load_word_tags(output)
    # three times each: "paid" and "the"; once: "rent"; capitalised words are left out
    assert tags == {"paid": "VERB", "the": "DET"}
    result = runner.invoke(app, ["word-tags", str(output)])
    assert result.exit_code != 0 and "CE152" in result.output and "--unlabeled" in result.output
    result = runner.invoke(app, ["word-tags", str(output), "--unlabeled", str(data),
                                 "--base", str(tmp_path / "no_pipeline")])
    assert result.exit_code != 0 and "E050" in result.output and "Traceback" not in result.output

"""Modern unlabeled text (../shared/data/modern): Wikipedia-like chunks in order of pronoun
density, chit-chat conversations split at turns and read by the pipeline as transcripts whose
turns have their speakers, and file:line errors for bad input."""
import json
import random

import pytest
import spacy

from spacy_coref.annotations import get_speakers
from spacy_coref.linguistics.transcripts import mark_transcript_speakers, turn_labels
from spacy_coref.training.unlabeled import (
    conversation_turns,
    pronoun_rate,
    read_texts,
    split_text,
    split_turns,
)

NLP = spacy.blank("en")
# chit-chat as ../shared/data/modern/chitchat.jsonl has it: turns as lines, a speaker may take
# two turns in a row, a turn may be empty
CHAT_TURNS = [
    "A: I would binge watch just about every tv show I like",
    "B: Honestly I would drive over to Banzai Bowls and make a sick acai bowl for free :)",
    "A: Goals",
    "B: Banzai is such a good time no joke, my sister loves it",
    "B: ",
    "A: Truth. Did you tell her about the new place downtown?",
    "A: I changed my mind, I would just raid the cafe instead",
    "B: She told me they close early on Sundays, so maybe not",
]


def write_jsonl(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf8")
    return path


def turns_of(n_turns, words_per_turn, speakers="AB"):
    """Turns "A: w w w", "B: w w w", ... of `words_per_turn` words each (the label included)."""
    return [f"{speakers[i % len(speakers)]}: " + " ".join(["talk"] * (words_per_turn - 1))
            for i in range(n_turns)]


def test_pronoun_dense_chunks_come_first_ties_by_id(tmp_path):
    records = [
        {"id": "low", "text": "The bridge was built in 1900. It spans the river.",
         "words": 10, "pronouns": 0},
        {"id": "high", "text": "She said he saw them.", "words": 5, "pronouns": 3},
        {"id": "b-mid", "text": "x", "words": 10, "pronouns": 2},
        {"id": "a-mid", "text": "y", "words": 20, "pronouns": 4},  # same rate: id decides
        # no counts: counted in the text (4 of 8 words; "It" is not counted)
        {"id": "counted", "text": "He told her that they saw It there."},
    ]
    path = write_jsonl(tmp_path / "wikipedia-00.jsonl", records)
    texts = read_texts(path, order="pronouns")
    assert [i for i, _ in texts] == ["high", "counted", "a-mid", "b-mid", "low"]
    assert pronoun_rate(records[-1]) == pytest.approx(3 / 8)
    assert read_texts(path, order="pronouns", max_texts=2) == texts[:2]
    # the default order stays the seeded shuffle, and "file" keeps the file's
    ids = [r["id"] for r in records]
    random.Random(0).shuffle(ids)
    assert [i for i, _ in read_texts(path)] == ids
    assert [i for i, _ in read_texts(path, order="file")] == [r["id"] for r in records]
    with pytest.raises(ValueError, match="CE275.*'density'"):
        read_texts(path, order="density")


def test_pronoun_order_splits_chunks_and_spans_files(tmp_path):
    para = "She met him there and they talked about her work."  # 4 pronouns in 10 words
    write_jsonl(tmp_path / "wikipedia-00.jsonl", [
        {"id": "w1", "text": "A quiet town by the sea.\n\nIt has a port.", "pronouns": 0,
         "words": 10},
        {"id": "w2", "text": f"{para}\n\n{para}\n\n{para}", "pronouns": 12, "words": 30},
    ])
    write_jsonl(tmp_path / "chitchat.jsonl", [{"id": "c1", "text": "\n".join(CHAT_TURNS)}])
    texts = read_texts(tmp_path, order="pronouns", max_words=20)
    ids = [i for i, _ in texts]
    assert ids[:2] == ["w2#0", "w2#1"] and ids[-1] == "w1"  # pieces stay in their order
    assert texts[0][1] == f"{para}\n\n{para}"
    assert [i for i, _ in read_texts(tmp_path, order="pronouns", max_words=20, max_texts=3)] \
        == ids[:3]


def test_a_pattern_of_file_names_reads_the_prose_without_the_conversations(tmp_path):
    write_jsonl(tmp_path / "wikipedia-00.jsonl", [{"id": "w0", "text": "She left."}])
    write_jsonl(tmp_path / "wikipedia-01.jsonl", [{"id": "w1", "text": "He stayed."}])
    write_jsonl(tmp_path / "chitchat.jsonl", [{"id": "c1", "text": "\n".join(CHAT_TURNS)}])
    assert [i for i, _ in read_texts(tmp_path, order="file")] == ["c1", "w0", "w1"]
    prose = read_texts(tmp_path / "wikipedia-*.jsonl", order="file")
    assert [i for i, _ in prose] == ["w0", "w1"]
    with pytest.raises(ValueError, match=r"CE260.*books-\*\.jsonl"):
        read_texts(tmp_path / "books-*.jsonl")
    with pytest.raises(ValueError, match="CE260"):
        read_texts(tmp_path / "missing.jsonl")


def test_a_conversation_splits_at_turns_into_transcripts():
    turns = turns_of(12, 10)
    text = "\n".join(turns)
    assert conversation_turns(text) == turns
    pieces = split_text(text, 35)
    assert [len(p.split("\n")) for p in pieces] == [3, 3, 3, 3]
    for piece in pieces:
        assert all(line in turns for line in piece.split("\n"))  # whole turns only
    assert "\n".join(pieces) == text
    # a turn longer than max_words stays whole, joined with the turns before it
    long_turn = "B: " + " ".join(["word"] * 39)
    pieces = split_text("\n".join(turns[:3] + [long_turn] + turns[:3]), 35)
    assert pieces == ["\n".join(turns[:3] + [long_turn]), "\n".join(turns[:3])]
    # prose is still split at paragraphs, and a paragraph opened by "Note:" is prose
    prose = "Note: one two three\n\nfour five six"
    assert conversation_turns(prose) is None and split_text(prose, 4) == [
        "Note: one two three", "four five six"]
    assert conversation_turns("He said: no.\nShe said: yes.") is None


def test_a_piece_too_short_to_read_as_a_transcript_joins_its_neighbour():
    # 7 turns of 10 words at 30 words: the last piece would be one turn, which the pipeline
    # would not read as a transcript
    turns = turns_of(7, 10)
    assert [len(p.split("\n")) for p in split_turns(turns, 30)] == [3, 4]
    # the first piece too short: it joins the one after it
    first = ["A: " + " ".join(["long"] * 20), "B: " + " ".join(["long"] * 20)]
    assert [len(p.split("\n")) for p in split_turns(first + turns_of(3, 10), 40)] == [5]
    # a long stretch of one speaker's turns is not joined beyond twice max_words
    monologue = turns_of(6, 10) + turns_of(9, 10, speakers="B")
    pieces = split_turns(monologue, 30)
    assert all(len(p.split()) <= 60 for p in pieces)
    assert "\n".join(pieces) == "\n".join(monologue)
    # a conversation of one speaker stays as it is split: nothing would make it a transcript
    assert [len(p.split("\n")) for p in split_turns(turns_of(7, 10, speakers="A"), 30)] == [
        3, 3, 1]


def test_chitchat_turns_reach_the_pipeline_as_speakers(tmp_path, tiny_span_model):
    conversation = CHAT_TURNS * 3
    path = write_jsonl(tmp_path / "chitchat.jsonl", [
        {"id": "chat-1", "text": "\n".join(conversation)},
    ])
    texts = read_texts(path, max_words=60)
    assert len(texts) > 1 and [i for i, _ in texts][:2] == ["chat-1#0", "chat-1#1"]
    teacher = spacy.load(tiny_span_model(CHAT_TURNS[0], [[(0, 1), (2, 3)]]))
    for _, text in texts:
        for doc in (mark_transcript_speakers(NLP(text)), teacher(text)):
            speakers = get_speakers(doc)
            assert len(turn_labels(doc)) == len(text.split("\n"))
            start = 0
            for line in text.split("\n"):
                label, end = line.split(":")[0], start + len(line)
                tokens = [t for t in doc if start <= t.idx < end]
                assert tokens and all(speakers[t.i] == label for t in tokens), line
                start = end + 1
            assert None not in speakers


def test_bad_lines_empty_files_and_missing_text_name_file_and_line(tmp_path):
    path = tmp_path / "wikipedia-00.jsonl"
    path.write_text('{"id": "a", "text": "x"}\n{"id": "b", "text": \n', encoding="utf8")
    with pytest.raises(ValueError, match=r"CE201.*wikipedia-00.jsonl:2"):
        read_texts(path)
    path.write_text('{"id": "a", "text": "x"}\n\n{"id": "b", "title": "No text"}\n',
                    encoding="utf8")
    with pytest.raises(ValueError, match=r"CE201.*wikipedia-00.jsonl:3.*No text"):
        read_texts(path)
    path.write_text('{"id": "a", "text": 12}\n', encoding="utf8")
    with pytest.raises(ValueError, match=r"CE201.*wikipedia-00.jsonl:1"):
        read_texts(path)
    # an empty file among good ones is named, not skipped
    write_jsonl(path, [{"id": "a", "text": "Some text."}])
    (tmp_path / "chitchat.jsonl").write_text("", encoding="utf8")
    with pytest.raises(ValueError, match=r"CE201.*chitchat.jsonl:1.*an empty file"):
        read_texts(tmp_path)
    (tmp_path / "chitchat.jsonl").write_text("\n\n", encoding="utf8")
    with pytest.raises(ValueError, match=r"CE201.*chitchat.jsonl:2.*blank lines only"):
        read_texts(tmp_path)


def test_distill_label_reads_a_modern_directory_in_pronoun_order(tmp_path, tiny_span_model):
    from typer.testing import CliRunner

    from spacy_coref.cli import app
    from spacy_coref.training.silver import silver_teacher

    data = tmp_path / "modern"
    data.mkdir()
    write_jsonl(data / "wikipedia-00.jsonl", [
        {"id": "enwiki1-0", "text": "The bridge spans the river. It was built in stone.",
         "words": 10, "pronouns": 0},
        {"id": "enwiki2-0", "text": "Ann met Bo. She said he had left her a note.",
         "words": 11, "pronouns": 3},
    ])
    write_jsonl(data / "chitchat.jsonl", [{"id": "chat-1", "text": "\n".join(CHAT_TURNS)}])
    teacher = tiny_span_model(CHAT_TURNS[0], [[(0, 1), (2, 3)]])
    out = tmp_path / "silver_modern"
    args = ["distill-label", str(teacher), str(data), str(out), "--max-texts", "2",
            "--max-words", "1000", "--order", "pronouns", "--soft", "--shard-size", "1"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    manifest = json.loads((out / "silver.json").read_text(encoding="utf8"))
    # enwiki2 (3 of 11 words), then the conversation ("her" once), not the bridge
    assert manifest["texts"] == ["enwiki2-0", "chat-1"] and manifest["order"] == "pronouns"
    assert silver_teacher(out)["weights_sha256"][:16] in result.output  # "Teacher: ..."
    result = CliRunner().invoke(app, args[:4] + ["--order", "density"])
    assert result.exit_code != 0 and "CE275" in result.output
    help_text = CliRunner().invoke(app, ["distill-label", "--help"]).output
    assert "--order" in help_text and "--relabel" in help_text

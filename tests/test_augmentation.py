"""Training data augmentation (spacy_coref.training.augmentation) and the corpus reader v2."""
import random

import pytest
import spacy
from spacy.tokens import Doc
from spacy.util import registry
from spacy.vocab import Vocab

from spacy_coref.annotations import (
    GOLD_MENTIONS_KEY,
    get_clusters,
    get_doc_id,
    get_scheme,
    get_speakers,
    set_clusters,
    set_doc_id,
    set_scheme,
    set_speakers,
)
from spacy_coref.formats import read_docs, write_docs
from spacy_coref.training.augmentation import (
    AUGMENTED_KEY,
    FEMALE_NAMES,
    GENDER_SWAP,
    MALE_NAMES,
    NAMES,
    SURNAMES,
    augment_docs,
    augmentation_counts,
    augmentation_report,
    find_persons,
    gender_swap_words,
    replace_words,
    substitute_name,
    swap_gender,
)


def make_doc(text, clusters=(), *, tags=None, sent_starts=None):
    words = text.split(" ")
    doc = Doc(Vocab(), words=words, tags=tags, sent_starts=sent_starts)
    set_clusters(doc, clusters)
    return doc


def words_of(doc):
    return [token.text for token in doc]


GENDERED = (
    "He told her that his sister , HIS WIFE and Mr. Brown met her father . "
    "She saw him and herself with the boys ."
)


def test_gender_swap_swaps_pronouns_and_nouns_keeping_case():
    doc = make_doc(GENDERED, [[(0, 1), (4, 5)], [(2, 3), (13, 14), (16, 17)]])
    swapped = swap_gender(doc)
    assert swapped is not None
    expected = (
        "She told him that her brother , HER HUSBAND and Ms. Brown met his mother . "
        "He saw her and himself with the girls ."
    )
    assert words_of(swapped) == expected.split(" ")
    assert len(swapped) == len(doc)
    assert get_clusters(swapped) == get_clusters(doc)
    assert swapped.text_with_ws.count(" ") == doc.text_with_ws.count(" ")
    assert swapped.user_data[AUGMENTED_KEY] == GENDER_SWAP
    # the original is left as it was
    assert words_of(doc) == GENDERED.split(" ") and AUGMENTED_KEY not in doc.user_data


@pytest.mark.parametrize(
    "text,expected",
    [
        ("I saw her .", "him"),
        ("I saw her", "him"),
        ("I gave her a book", "him"),
        ("I went with her to Paris", "him"),
        ("I took her book", "his"),
        ("I took her own book", "his"),
        ("She turned her 80th birthday", "his"),
        ("The book is his .", "hers"),
        ("The book is his", "hers"),
        ("I took his book", "her"),
        ("Then hers was gone", "his"),
    ],
)
def test_her_and_his_by_the_next_word(text, expected):
    doc = make_doc(text)
    index = next(token.i for token in doc if token.text in ("her", "his", "hers"))
    assert gender_swap_words(doc, random.Random(0))[index] == expected


def test_her_by_tag_where_the_doc_has_tags():
    # the tags say the opposite of the next-word rule: they win
    tags = ["PRP", "VBD", "PRP$", ".", "PRP", "VBD", "PRP", "NN"]
    doc = make_doc("I took her . I saw her book", tags=tags)
    replacements = gender_swap_words(doc, random.Random(0))
    assert replacements[2] == "his"
    assert replacements[6] == "him"


def test_gender_swap_maps_listed_first_names_consistently():
    doc = make_doc("Mary met John . Then Mary and JOHN left . Kathleen stayed .")
    swapped = swap_gender(doc, seed=3)
    words = words_of(swapped)
    mary, john, kathleen = words[0], words[2], words[10]
    assert mary in MALE_NAMES and john in FEMALE_NAMES and kathleen in MALE_NAMES
    assert words[5] == mary and words[7] == john.upper()
    # different people stay different, and no new name was already in the doc
    assert len({mary, john, kathleen}) == 3
    assert not {mary, john, kathleen} & {"Mary", "John", "Kathleen"}
    changed = {i for i, (a, b) in enumerate(zip(words, words_of(doc))) if a != b}
    assert changed == {0, 2, 5, 7, 10}


def test_titles_before_a_name():
    doc = make_doc("Miss Bennet and Sir Walter , sir , miss the lady and Lady Catherine")
    words = words_of(swap_gender(doc, seed=0))
    assert words[:3] == ["Mr", "Bennet", "and"]
    assert words[3] == "Dame"
    assert words[6] == "madam"  # "sir" without a name after it
    assert words[8] == "miss"  # the verb stays
    assert words[10] == "gentleman" and words[12] == "Lord"


def test_a_doc_without_gendered_words_or_names_gives_no_copy():
    doc = make_doc("The committee met and it voted on the budget .", [[(0, 2), (4, 5)]])
    assert swap_gender(doc) is None
    assert substitute_name(doc) is None
    assert augment_docs([doc], [NAMES, GENDER_SWAP]) == []


NAMED = "John Smith came home . Smith said he was tired . Later , John Smith and Zorblax slept ."
NAMED_CLUSTERS = [[(0, 2), (5, 6), (7, 8), (13, 15)], [(16, 17)]]


def test_name_substitution_is_consistent_and_keeps_the_gender():
    doc = make_doc(NAMED, NAMED_CLUSTERS)
    seen = set()
    for seed in range(5):
        new = substitute_name(doc, seed=seed)
        words = words_of(new)
        first, surname = words[0], words[1]
        assert first in MALE_NAMES and first != "John"
        assert surname in SURNAMES and surname != "Smith"
        assert words[5] == surname and (words[13], words[14]) == (first, surname)
        # nothing else changes: Zorblax has no known gender, so it is never picked
        changed = {i for i, (a, b) in enumerate(zip(words, words_of(doc))) if a != b}
        assert changed == {0, 1, 5, 13, 14}
        assert get_clusters(new) == get_clusters(doc)
        assert new.user_data[AUGMENTED_KEY] == NAMES
        seen.add((first, surname))
    assert len(seen) > 1  # the seed picks the names


def test_name_gender_from_the_pronouns_and_titles():
    doc = make_doc(
        "Cheryl Cassidy said that she would come . Mr. Zorblax said that Zorblax would too .",
        [[(0, 2), (4, 5)], [(8, 10), (12, 13)]],
    )
    persons = sorted(find_persons(doc))
    assert persons == [("female", {"Cheryl"}, {"Cassidy"}), ("male", set(), {"Zorblax"})]
    # she vs he tie, a function word, a sentence-initial capitalised word: no person
    unknown = make_doc(
        "Outfielder said he and she met The .", [[(0, 1), (2, 3), (4, 5)], [(6, 7), (2, 3)]]
    )
    assert find_persons(unknown) == []
    assert substitute_name(unknown) is None


def test_copies_keep_annotation_and_user_data():
    doc = make_doc(
        "Mary said : I saw him . He left .",
        [[(5, 6), (7, 8)]],
        tags=["NNP", "VBD", ":", "PRP", "VBD", "PRP", ".", "PRP", "VBD", "."],
        sent_starts=[True, False, False, False, False, False, False, True, False, False],
    )
    set_speakers(doc, ["Mary"] * 6 + [None] * 4)
    set_doc_id(doc, "GUM_news_x", part="000", header="#begin document (GUM_news_x); part 000")
    set_scheme(doc, "ontonotes")
    doc.user_data["other"] = {"kept": [1, 2]}
    doc.cats = {"NEWS": 1.0}
    new = replace_words(doc, {0: "Lucy", 5: "her", 7: "She"}, GENDER_SWAP)
    assert words_of(new) == "Lucy said : I saw her . She left .".split(" ")
    assert [t.is_sent_start for t in new] == [t.is_sent_start for t in doc]
    assert [t.tag_ for t in new] == [t.tag_ for t in doc]
    assert get_speakers(new) == get_speakers(doc)
    assert set(new.spans) == set(doc.spans)
    assert get_doc_id(new) == get_doc_id(doc) and get_scheme(new) == "ontonotes"
    assert new.user_data["other"] == {"kept": [1, 2]}
    assert new.user_data[AUGMENTED_KEY] == GENDER_SWAP
    assert new.cats == {"NEWS": 1.0}
    new.user_data["other"]["kept"].append(3)
    assert doc.user_data["other"] == {"kept": [1, 2]}  # a deep copy


def test_replaced_tokens_lose_lemma_and_norm_and_swap_morph_gender():
    doc = Doc(
        Vocab(),
        words=["He", "ran"],
        lemmas=["he", "run"],
        morphs=["Case=Nom|Gender=Masc|Person=3", "Tense=Past"],
    )
    doc[0].norm_ = "hee"
    doc[1].norm_ = "rann"
    (new,) = augment_docs([doc], [GENDER_SWAP])
    assert words_of(new) == ["She", "ran"]
    assert [t.lemma_ for t in new] == ["", "run"]
    assert new[0].norm_ != "hee" and new[1].norm_ == "rann"
    assert [str(t.morph) for t in new] == ["Case=Nom|Gender=Fem|Person=3", "Tense=Past"]


def test_gap_docs_are_augmented_with_their_spans(tmp_path):
    header = "ID\tText\tPronoun\tPronoun-offset\tA\tA-offset\tA-coref\tB\tB-offset\tB-coref\tURL"
    text = "Zelda Quill met Amos Vroom when she was young."
    row = f"development-1\t{text}\tshe\t32\tZelda Quill\t0\tTRUE\tAmos Vroom\t16\tFALSE\thttp://x"
    path = tmp_path / "gap.tsv"
    path.write_text(f"{header}\n{row}\n", encoding="utf8")
    (doc,) = read_docs(path)
    (swapped,) = augment_docs([doc], [GENDER_SWAP])
    spans = {span.label_: span.text for span in swapped.spans[GOLD_MENTIONS_KEY]}
    assert spans == {"PRONOUN": "he", "A": "Zelda Quill", "B": "Amos Vroom"}
    assert get_clusters(swapped) == get_clusters(doc)
    assert swapped.user_data["gap_id"] == "development-1"
    # the A name is in the pronoun's cluster (she: female); B stands alone with no gender
    (renamed,) = augment_docs([doc], [NAMES], seed=1)
    words = words_of(renamed)
    assert words[0] in FEMALE_NAMES and words[1] in SURNAMES and words[3:5] == ["Amos", "Vroom"]


def test_augment_docs_is_deterministic_and_counted():
    docs = [make_doc(NAMED, NAMED_CLUSTERS), make_doc(GENDERED), make_doc("It rained .")]
    copies = augment_docs(docs, [NAMES, GENDER_SWAP], seed=7)
    again = augment_docs(docs, [NAMES, GENDER_SWAP], seed=7)
    assert [words_of(d) for d in copies] == [words_of(d) for d in again]
    assert augmentation_counts(docs + copies) == {NAMES: 1, GENDER_SWAP: 2}


def test_unknown_augmentation_raises():
    with pytest.raises(ValueError, match="CE340"):
        augment_docs([make_doc(GENDERED)], ["gender-swap"])


# The reader


@pytest.fixture
def corpus_path(tmp_path):
    vocab = Vocab()
    named = Doc(vocab, words=NAMED.split(" "))
    set_clusters(named, NAMED_CLUSTERS)
    set_doc_id(named, "named")
    gendered = Doc(vocab, words=GENDERED.split(" "))
    set_doc_id(gendered, "gendered")
    neutral = Doc(vocab, words="It rained all day .".split(" "))
    path = tmp_path / "train" / "docs.spacy"
    write_docs([named, gendered, neutral], path)
    return path.parent


def read_corpus(path, reader="spacy_coref.CoNLLCorpus.v1", **settings):
    config = {"corpus": {"@readers": reader, "path": str(path), **settings}}
    corpus = registry.resolve(config)["corpus"]
    return list(corpus(spacy.blank("en")))


def test_reader_v1_reads_originals_only(corpus_path):
    examples = read_corpus(corpus_path)
    assert [get_doc_id(eg.reference)["name"] for eg in examples] == ["named", "gendered", None]
    assert not any(AUGMENTED_KEY in eg.reference.user_data for eg in examples)


def test_reader_v2_adds_augmented_copies(corpus_path):
    plain = read_corpus(corpus_path, "spacy_coref.CoNLLCorpus.v2")
    assert [words_of(eg.reference) for eg in plain] == [
        words_of(eg.reference) for eg in read_corpus(corpus_path)
    ]
    augment = ["names", "gender_swap"]
    examples = read_corpus(corpus_path, "spacy_coref.CoNLLCorpus.v2", augment=augment)
    kinds = [eg.reference.user_data.get(AUGMENTED_KEY) for eg in examples]
    assert kinds == [None, None, None, NAMES, GENDER_SWAP, GENDER_SWAP]
    names = [get_doc_id(eg.reference)["name"] for eg in examples[3:]]
    assert names == ["named", "named", "gendered"]
    for eg in examples:
        # predicted docs have the copy's words, so the gold mentions align
        assert words_of(eg.predicted) == words_of(eg.reference)
    assert words_of(examples[5].reference)[:3] == ["She", "told", "him"]
    assert get_clusters(examples[3].reference) == get_clusters(examples[0].reference)
    again = read_corpus(
        corpus_path, "spacy_coref.CoNLLCorpus.v2", augment=["names"], augment_seed=0
    )
    assert words_of(again[3].reference) == words_of(examples[3].reference)


def test_reader_v2_max_docs_applies_before_augmentation(corpus_path):
    examples = read_corpus(
        corpus_path, "spacy_coref.CoNLLCorpus.v2", augment=["gender_swap"], max_docs=1
    )
    assert len(examples) == 2 and words_of(examples[1].reference)[7] == "she"


def test_reader_v2_rejects_unknown_augmentation(corpus_path):
    with pytest.raises(ValueError, match="CE340"):
        read_corpus(corpus_path, "spacy_coref.CoNLLCorpus.v2", augment=["synonyms"])


def test_augmentation_report(corpus_path):
    assert augmentation_report(corpus_path, [GENDER_SWAP, NAMES]) == {GENDER_SWAP: 2, NAMES: 1}


@pytest.fixture
def mix_path(tmp_path):
    """Ten short docs to mix in, 5 words each, the first with a gendered pronoun."""
    vocab = Vocab()
    docs = [Doc(vocab, words=f"He saw item {i} .".split(" ")) for i in range(10)]
    for i, doc in enumerate(docs):
        set_doc_id(doc, f"mix-{i}")
    path = tmp_path / "mix" / "problems.spacy"
    write_docs(docs, path)
    return path.parent


def test_reader_v3_mixes_in_a_weighted_share_of_short_docs(corpus_path, mix_path):
    v3 = "spacy_coref.CoNLLCorpus.v3"
    plain = read_corpus(corpus_path, v3)
    assert [words_of(eg.reference) for eg in plain] == [
        words_of(eg.reference) for eg in read_corpus(corpus_path)
    ]
    words = sum(len(eg.reference) for eg in plain)
    examples = read_corpus(corpus_path, v3, mix_path=str(mix_path), mix_weight=0.5)
    mixed = [eg for eg in examples if (get_doc_id(eg.reference)["name"] or "").startswith("mix-")]
    # drawn until their words reach half the documents' words: no fewer, one doc at most over
    mixed_words = sum(len(eg.reference) for eg in mixed)
    assert words * 0.5 <= mixed_words < words * 0.5 + 5
    assert len(mixed) < 10
    assert [words_of(eg.reference) for eg in examples[: len(plain)]] == [
        words_of(eg.reference) for eg in plain
    ]
    again = read_corpus(corpus_path, v3, mix_path=str(mix_path), mix_weight=0.5)
    assert [words_of(eg.reference) for eg in again] == [words_of(eg.reference) for eg in examples]
    # a weight above their share mixes them all in, each once
    every = read_corpus(corpus_path, v3, mix_path=str(mix_path), mix_weight=100.0)
    names = [get_doc_id(eg.reference)["name"] for eg in every[len(plain):]]
    assert sorted(names) == sorted(f"mix-{i}" for i in range(10))


def test_reader_v3_augments_the_mixed_docs_too(corpus_path, mix_path):
    examples = read_corpus(corpus_path, "spacy_coref.CoNLLCorpus.v3", mix_path=str(mix_path),
                           mix_weight=100.0, augment=["gender_swap"])
    swapped = [eg for eg in examples if (get_doc_id(eg.reference)["name"] or "").startswith("mix-")
               and eg.reference.user_data.get(AUGMENTED_KEY) == GENDER_SWAP]
    assert len(swapped) == 10 and all(words_of(eg.reference)[0] == "She" for eg in swapped)
    assert all(words_of(eg.predicted) == words_of(eg.reference) for eg in examples)


@pytest.mark.parametrize("settings", [{"mix_weight": -0.1}, {"mix_weight": 0.2}])
def test_reader_v3_rejects_a_weight_without_docs_or_below_zero(corpus_path, settings):
    with pytest.raises(ValueError, match="CE153"):
        read_corpus(corpus_path, "spacy_coref.CoNLLCorpus.v3", **settings)

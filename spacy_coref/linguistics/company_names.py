"""Names of companies and other organisations by their last word: "Norvell Energy", "Redstone
Motors", "Acme Holdings Inc.". Such a name is "it" or "they", never "he" or "she", and so are
the names inside it that the candidates hold ("Norvell"): the uncased encoder reads an unknown
capitalised word as a person's name, and the default had linked "she" of "Chief executive Ana
Ruiz ... said she expected a recovery" to the "Norvell" of "Shares of Norvell Energy fell".

A name counts where the entity recognizer calls it an organisation and its last word is one of
COMPANY_WORDS; without entities (the fast pipeline), where it lies in a run of capitalised
words that ends in one (`company_run_ends`). Left out are the words that end people's names
too ("Power", "Steel", "Banks", "Mills", "Church"), and words that name places ("Park",
"Hill").

A lone word of a company's name elsewhere in the doc is the company's short name ("Victor
Amsel, who founded Norvell in 2012. He ..."), unless the doc also names a person with it
("Dell" of "Dell Technologies" and "Michael Dell").
"""
from typing import FrozenSet

import numpy
from spacy.strings import hash_string
from spacy.tokens import Doc, Span

from ..lang.en import english

# the list is data: spacy_coref/lang/en/company_words.json
COMPANY_WORDS = english().company_words
_COMPANY_IDS = numpy.asarray([hash_string(w) for w in COMPANY_WORDS], dtype="uint64")


def in_company_name(span: Span) -> bool:
    """Whether the span is, or lies inside, an organisation's name that ends in one of
    COMPANY_WORDS."""
    root = span.root
    if root.ent_type_ != "ORG":
        return False
    doc = span.doc
    end = root.i + 1
    while end < len(doc) and doc[end].ent_iob_ == "I":
        end += 1
    return span.end <= end and doc[end - 1].text in COMPANY_WORDS


def company_run_ends(doc: Doc) -> numpy.ndarray:
    """[T] bool: for each token, whether it is capitalised and the run of capitalised words it
    is in ends in one of COMPANY_WORDS ("Norvell" and "Energy" of "Norvell Energy"), for docs
    without entities. Read as arrays: the fast pipeline decodes with it."""
    n = len(doc)
    if not n:
        return numpy.zeros(0, dtype=bool)
    title, upper, alpha, orth = doc.to_array(["IS_TITLE", "IS_UPPER", "IS_ALPHA", "ORTH"]).T
    company = numpy.isin(orth.astype("uint64"), _COMPANY_IDS)
    capital = title.astype(bool) | (upper.astype(bool) & alpha.astype(bool)) | company
    last = capital & ~numpy.append(capital[1:], False)  # a run's last word
    # the index of the next run end at or after each token
    positions = numpy.where(last, numpy.arange(n), n)
    run_end = numpy.minimum.accumulate(positions[::-1])[::-1]
    return capital & company[numpy.minimum(run_end, n - 1)]


def company_short_names(doc: Doc) -> FrozenSet[str]:
    """The capitalised words before the last word of the doc's company names (those of
    `in_company_name`: "Norvell" of "Norvell Energy"), less the words of its people's names.

    doc (Doc): a doc with entities.
    RETURNS (FrozenSet[str]): the words, as written.
    """
    words, people = set(), set()
    for ent in doc.ents:
        if ent.label_ == "ORG" and len(ent) > 1 and ent[-1].text in COMPANY_WORDS:
            words.update(t.text for t in ent[:-1] if t.is_title and t.is_alpha)
        elif ent.label_ == "PERSON":
            people.update(t.text for t in ent)
    return frozenset(words - people - COMPANY_WORDS)


def unparsed_company_short_names(
    doc: Doc, company_runs: numpy.ndarray, people: numpy.ndarray
) -> numpy.ndarray:
    """`company_short_names` for a doc without entities: the ORTH ids of the capitalised
    words of runs that end in one of COMPANY_WORDS, less those of `people`.

    doc (Doc): the doc.
    company_runs (numpy.ndarray): [T] bool, `company_run_ends(doc)`.
    people (numpy.ndarray): ORTH ids of words of people's names.
    RETURNS (numpy.ndarray): [n] uint64 ORTH ids.
    """
    if not len(doc):
        return numpy.zeros(0, dtype="uint64")
    orth, title = doc.to_array(["ORTH", "IS_TITLE"]).T
    orth = orth.astype("uint64")
    short = company_runs & title.astype(bool) & ~numpy.isin(orth, _COMPANY_IDS)
    return numpy.setdiff1d(orth[short], numpy.asarray(people, dtype="uint64"))

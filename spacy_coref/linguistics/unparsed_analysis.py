"""`mention_constraints` of a doc without a parse (the fast pipeline), as arrays: its
candidates are every short span, about ten per token, so each token is read once and the spans
only index what was read. Each span gets what `mention_analysis.agreement_class` gives it alone;
the roles that need a parse are -1.
"""
from typing import Dict, List, Tuple

import numpy
from spacy.strings import get_string_id
from spacy.symbols import PRON
from spacy.tokens import Doc

from .company_names import company_run_ends, unparsed_company_short_names
from .mention_classes import COLLECTIVE, CONJOINED, FEMININE, MASCULINE, PLURAL
from .mention_constraints import MentionConstraints
from .mention_words import (
    FIRST_NAME_TABLE,
    GENDERED_TITLE_TABLE,
    INDEFINITE_TABLE,
    MAX_UNPARSED_NOUN_WORDS,
    NOUN_TABLE,
    PRONOUN_TABLE,
    REFLEXIVE_TABLE,
    TITLE_TABLE,
)
from .parse_arrays import morph_has
from .word_tables import look_up
from .word_tags import TAG_CODES, load_word_tags, tag_codes

_AND, _COMMA = (get_string_id(word) for word in ("and", ","))


def unparsed_constraints(doc: Doc, spans: numpy.ndarray, first_names: bool) -> MentionConstraints:
    """`mention_constraints` of a doc without a parse, as arrays: the fast pipeline's
    candidates are every short span, about ten per token, so each token is read once and the
    spans only index what was read. Each span gets what `agreement_class` gives it alone."""
    n = len(spans)
    starts, ends = spans[:, 0], spans[:, 1]
    last = ends - 1  # [n] a span's last token stands in for its head
    n_tokens = len(doc)
    # one entry per token, and one past the end for empty lookups
    lower, orth, title, pos, lower_case, is_punct = _padded(
        doc.to_array(["LOWER", "ORTH", "IS_TITLE", "POS", "IS_LOWER", "IS_PUNCT"])
    )
    pronoun_class = look_up(lower, PRONOUN_TABLE)  # [T + 1]
    pronoun_pos = pos == PRON
    reflexive_word = look_up(lower, REFLEXIVE_TABLE).astype(bool)
    if doc.has_annotation("MORPH"):
        morph = numpy.asarray(doc.to_array("MORPH"), dtype="uint64").reshape(-1)
        reflexive_word[:n_tokens] |= morph_has(doc, morph, "Reflex", ("Yes",))
    title_case = title.astype(bool)
    title_word = look_up(lower, TITLE_TABLE).astype(bool)  # "Dr.", "Mrs.": not a first name
    name_class = look_up(orth, FIRST_NAME_TABLE)
    single = ends - starts == 1  # [n]
    classes = numpy.where(single | pronoun_pos[last], pronoun_class[last], 0)  # [n]
    if first_names:
        # a name alone: every word title-cased, the first word that is not a title a first name
        untitled = numpy.concatenate([[0], numpy.cumsum(~title_case[:n_tokens])])  # [T + 1]
        all_title = untitled[ends] - untitled[starts] == 0  # [n]
        # the first token at or after each position that is not a title word
        positions = numpy.where(title_word, n_tokens, numpy.arange(n_tokens + 1))
        first_word = numpy.minimum.accumulate(positions[::-1])[::-1]  # [T + 1]
        first = first_word[starts]  # [n]
        named = numpy.where(first < ends, name_class[first], 0)
        # a name after a gendered title takes the title's gender: "Mrs. Novak", "Uncle Raj"
        gendered_title = look_up(lower, GENDERED_TITLE_TABLE)  # [T + 1]
        named = numpy.where((named == 0) & title_word[starts], gendered_title[starts], named)
        # and one right after a first name or such a title, a part of that name: "Ellison" of
        # "Ruth Ellison", "Haddad" of "Mrs. Haddad"
        before = numpy.maximum(starts - 1, 0)
        after_first = (starts > 0) & title_case[before]
        named = numpy.where((named == 0) & after_first, name_class[before], named)
        named = numpy.where((named == 0) & after_first, gendered_title[before], named)
        classes = numpy.where((classes == 0) & all_title, named, classes)
        # a company's name, and a name inside it: "Norvell Energy", "Norvell" (as with a parse)
        company_runs = company_run_ends(doc)  # [T]
        company = company_runs[starts] & all_title  # [n]
        classes = numpy.where(company & ~(single & pronoun_pos[starts]), COLLECTIVE, classes)
        # a coordination is a group ("Professor Sørensen and her student Ahmed Karimi ... He":
        # not the group): an "and" inside the span, not at an edge, nor after an adjective
        joins = lower[:n_tokens] == _AND
        joins[1:] &= tag_codes(lower[: n_tokens - 1], load_word_tags()) != TAG_CODES["ADJ"]
        conjunction = numpy.concatenate([[0], numpy.cumsum(joins)])
        coordinated = conjunction[ends - 1] - conjunction[starts + 1] > 0  # [n]
        classes = numpy.where((classes == 0) & coordinated, PLURAL | CONJOINED, classes)
        # a short phrase without punctuation, its last word as its head: "the defendant",
        # "her aunt", "the jury"
        noun = numpy.where(lower_case[last] > 0, look_up(lower, NOUN_TABLE)[last], 0)
        punct = numpy.concatenate([[0], numpy.cumsum(is_punct[:n_tokens])])  # [T + 1]
        short = (ends - starts <= MAX_UNPARSED_NOUN_WORDS) & (punct[ends] == punct[starts])
        classes = numpy.where((classes == 0) & ~single & short, noun, classes)
        # a name after a comma ends the phrase it names: "The mayor of Lindholm, Greta
        # Sundqvist" (`_appositive_name_class`)
        comma = lower == _COMMA  # [T + 1]
        not_title_word = gendered_title == 0
        for size in (1, 2):
            name_start = ends - size  # [n]
            has_name = (name_start - 1 > starts) & comma[numpy.maximum(name_start - 1, 0)]
            if size == 2:  # the first name, then a surname
                has_name &= title_case[last] & not_title_word[last]
            gender = numpy.where(has_name, name_class[numpy.maximum(name_start, 0)], 0)
            classes = numpy.where(classes == 0, gender, classes)
        # a surname alone takes the gender of the doc's full names before it that end in it,
        # where they agree: "Reyes" after "Sofia Reyes" (`_share_surname_classes`); a full
        # name is a capitalised word after a first name of the lists
        tokens = numpy.arange(1, n_tokens)
        surnames = title_case[tokens] & ~title_word[tokens] & (name_class[tokens] == 0)
        surnames &= numpy.isin(name_class[tokens - 1], (MASCULINE, FEMININE))
        genders: Dict[int, List[Tuple[int, int]]] = {}  # surname -> [(position, gender)]
        for t in tokens[surnames].tolist():
            genders.setdefault(int(orth[t]), []).append((t, int(name_class[t - 1])))
        lone = numpy.flatnonzero(single & (classes == 0) & title_case[starts])
        for i in lone.tolist() if genders else ():
            found = {g for t, g in genders.get(int(orth[starts[i]]), ()) if t < starts[i]}
            if len(found) == 1:
                classes[i] = next(iter(found))
        # a lone word of a company's name elsewhere: "who founded Norvell" (as with a parse)
        companies = unparsed_company_short_names(doc, company_runs, orth[tokens[surnames]])
        short_name = single & (classes == 0) & numpy.isin(orth[starts], companies)
        classes = numpy.where(short_name, COLLECTIVE, classes)
    reflexive = single & reflexive_word[last]
    unbound = numpy.full(n, -1, dtype="int64")
    # no parse to find the head: any span from "a" or "an" on counts as indefinite
    indefinite = look_up(lower, INDEFINITE_TABLE).astype(bool)[starts] & ~single
    return MentionConstraints(
        classes, unbound, unbound.copy(), reflexive, unbound.copy(), unbound.copy(), indefinite,
        unbound.copy(), numpy.zeros(n, dtype=bool),
    )


def _padded(columns: numpy.ndarray) -> List[numpy.ndarray]:
    """The columns of a [T, n] token array, each with a 0 after the last token."""
    columns = numpy.asarray(columns, dtype="uint64").reshape((-1, columns.shape[-1]))
    return [numpy.append(column, numpy.uint64(0)) for column in columns.T]

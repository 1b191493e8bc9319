"""The attributes of candidate mentions that spacy_coref.S2ECoref.v3 scores with: what the parse,
the morphology, the entities and the speakers on the doc say about each candidate. The encoder
is uncased and small; these are facts it cannot see or does not learn from a few hundred
thousand tokens (agreement, binding, capitalisation, speakers).

The doc is read as arrays, once per distinct head; everything about pairs is computed from
these arrays in the torch head (`ml/torch/pair_features.py`, which also defines the columns and
their values).
"""
import functools
from typing import Dict, List, Optional, Tuple

import numpy
from spacy.symbols import PRON
from spacy.tokens import Doc, MorphAnalysis, Span

from ..annotations import SPEAKERS_KEY, get_speakers
from ..lang.en import english
from ..linguistics.mention_classes import FEMININE, MASCULINE, NEUTER, PLURAL
from ..linguistics.shared_analysis import MentionAnalysis
from ..profiling import FEATURES, section
from .torch import pair_features as pf

# fmt: off
# Personal pronouns by form: (person, number, gender), where the morphology says nothing; 0
# where the form has none ("you": either number; "they": any gender). From the lexicon's
# pronoun table, in its order ("i", "me", ..., "themselves"), but the archaic forms and
# "oneself".
_PERSON_IDS = {1: pf.FIRST, 2: pf.SECOND, 3: pf.THIRD}
_NUMBER_IDS = {"singular": pf.SINGULAR, "plural": pf.PLURAL, None: 0}
_GENDER_IDS = {"masculine": pf.MASCULINE, "feminine": pf.FEMININE, "neuter": pf.NEUTER, None: 0}
PRONOUN_FORMS: Dict[str, Tuple[int, int, int]] = {
    p.form: (_PERSON_IDS[p.person], _NUMBER_IDS[p.number], _GENDER_IDS[p.gender])
    for p in english().pronoun_table
    if not p.archaic and not p.generic
}
PERSONS = {"1": pf.FIRST, "2": pf.SECOND, "3": pf.THIRD}
NUMBERS = {"Sing": pf.SINGULAR, "Plur": pf.PLURAL}
GENDERS = {"Masc": pf.MASCULINE, "Fem": pf.FEMININE, "Neut": pf.NEUTER}
ENTITY_LABELS = ("PERSON", "NORP", "FAC", "ORG", "GPE", "LOC", "PRODUCT", "EVENT", "WORK_OF_ART",
                 "LAW", "LANGUAGE", "DATE", "TIME", "PERCENT", "MONEY", "QUANTITY", "ORDINAL",
                 "CARDINAL")
ENTITY_IDS = {label: i + 1 for i, label in enumerate(ENTITY_LABELS)}
# the gender of each agreement class of `mention_classes` (bit flags up to 8; 0: none)
_CLASS_GENDERS = numpy.zeros(16, dtype="int64")
_CLASS_GENDERS[[1, 2, 4]] = (pf.MASCULINE, pf.FEMININE, pf.NEUTER)
OTHER_ENTITY = pf.N_ENTITY_VALUES - 1
# the POS ids (none, PRON) where a head's form says its type, person, number and gender
_FORM_POS = (0, PRON)
# what the features read (spacy_coref.S2ECoref.v4): the doc's annotations, or its text alone
FEATURE_ANNOTATIONS = ("doc", "text")
# the annotations a text view leaves out (`text_view`)
VIEW_LEAVES_OUT = ("TAG", "POS", "MORPH", "LEMMA", "DEP", "ENT_IOB")
# fmt: on


def candidate_attributes(
    doc: Doc, candidates: numpy.ndarray, *, analysis: Optional[MentionAnalysis] = None
) -> numpy.ndarray:
    """The attributes of each candidate mention (columns and values: `pair_features`).

    doc (Doc): the doc. A parse, POS, morphology, entities and sentences make the attributes
        informative; without them the attributes fall back to the word forms (or "unknown").
    candidates (numpy.ndarray): [C, 2] (start, end) token offsets, end exclusive.
    analysis (Optional[MentionAnalysis]): the doc's analysis of these candidates, to read
        (and leave for the decoding); None: the doc is read here.
    RETURNS (numpy.ndarray): [C, N_ATTRIBUTES] int64.
    """
    with section(FEATURES):
        candidates = numpy.asarray(candidates, dtype="int64").reshape((-1, 2))
        if analysis is None:  # the features' variant alone: no decoding reads it after
            analysis = MentionAnalysis(doc, candidates, both=False)
        return _candidate_attributes(doc, candidates, analysis)


def _candidate_attributes(
    doc: Doc, candidates: numpy.ndarray, analysis: MentionAnalysis
) -> numpy.ndarray:
    out = numpy.zeros((len(candidates), pf.N_ATTRIBUTES), dtype="int64")
    if not len(candidates):
        return out
    starts, ends = candidates[:, 0], candidates[:, 1]
    # first names and binding through subjectless clauses are the decoding's (the shipped
    # models were trained without them)
    mentions = analysis.for_features()
    # mention_constraints has no head without a parse: then the last token, as it does
    heads = numpy.where(mentions.roots >= 0, mentions.roots, ends - 1)  # [C]
    sentences = sentence_indices(doc)  # [T]
    # the head's attributes, read once per distinct head (candidates share heads)
    distinct, head_of = numpy.unique(heads, return_inverse=True)  # [H], [C]
    by_head = _head_attributes(doc, distinct, sentences)[head_of]  # [C, 7]
    mention_type, person, number, gender, entity, shape, lemma = by_head.T  # [C] each
    classes = mentions.classes  # [C]
    number = numpy.where(classes & PLURAL, pf.PLURAL, number)
    # gendered nouns and titles ("his aunt", "Mr. Reyes")
    genders = classes & (MASCULINE | FEMININE | NEUTER)
    gender = numpy.where(gender != 0, gender, _CLASS_GENDERS[genders])
    coordinated = _holding_conjuncts(doc, heads, starts, ends)  # "Ann and Bo", "it and the twins"
    number[coordinated], gender[coordinated] = pf.PLURAL, pf.UNKNOWN_GENDER
    columns = (mention_type, person, number, gender, mentions.reflexive, entity, shape)
    out[:, : pf.SHAPE + 1] = numpy.stack(columns, axis=1)
    out[:, pf.TEXT] = _text_ids(doc.to_array("LOWER"), starts, ends)
    out[:, pf.LEMMA] = lemma
    out[:, pf.WIDTH] = numpy.searchsorted(pf.BUCKET_BOUNDARIES[:6], ends - starts - 1, "right")
    out[:, pf.SENTENCE] = sentences[starts]
    out[:, pf.START] = starts
    out[:, pf.END] = ends
    out[:, pf.HEAD] = heads
    out[:, pf.SUBJECT] = mentions.clause_subjects
    out[:, pf.SPEAKER] = speaker_ids(doc)[heads]
    return out


def text_view(doc: Doc) -> Doc:
    """A copy of the doc with its words, sentence boundaries and speakers only: what the
    features of a model trained without a parser read, so that the parse, tags and entities of
    a full pipeline change nothing. A doc with none of what the view leaves out (a blank
    pipeline's) is its own view: copying its tokens one by one cost a tenth of the fast
    pipeline's scoring."""
    if not any(doc.has_annotation(attr) for attr in VIEW_LEAVES_OUT):
        return doc
    # read as arrays: a Token object per token cost more than the rest of the view
    orths, spaces, starts = doc.to_array(["ORTH", "SPACY", "SENT_START"]).T  # [T] each
    strings = doc.vocab.strings
    sent_starts = (starts == 1).tolist() if doc.has_annotation("SENT_START") else None
    view = Doc(doc.vocab, words=[strings[orth] for orth in orths.tolist()],
               spaces=spaces.astype(bool).tolist(), sent_starts=sent_starts)
    if SPEAKERS_KEY in doc.spans:
        view.spans[SPEAKERS_KEY] = [Span(view, s.start, s.end, label=s.label)
                                    for s in doc.spans[SPEAKERS_KEY]]
    return view


def sentence_indices(doc: Doc) -> numpy.ndarray:
    """The index of each token's sentence ([T] int64); all 0 without sentence boundaries."""
    starts = numpy.zeros(len(doc), dtype=bool)
    if doc.has_annotation("SENT_START"):
        starts = doc.to_array("SENT_START").astype("int64") == 1  # [T]
    if len(doc):
        starts[0] = True
    return numpy.cumsum(starts) - 1  # [T]


def speaker_ids(doc: Doc) -> numpy.ndarray:
    """A doc-local id of each token's speaker ([T] int64), -1 where unknown."""
    ids: Dict[str, int] = {}
    speakers = get_speakers(doc)
    return numpy.asarray(
        [-1 if s is None else ids.setdefault(s, len(ids)) for s in speakers], dtype="int64"
    ).reshape((len(doc),))


@functools.lru_cache(maxsize=1 << 16)  # read for every distinct head of every doc
def word_shape(text: str, first_word: bool = False) -> int:
    """LOWER, CAPITALISED (CAPITALISED_FIRST_WORD at a sentence start, where capitals say
    less), ALL_CAPS (two or more letters) or OTHER_SHAPE (no letters, or mixed case)."""
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return pf.OTHER_SHAPE
    if all(c.islower() for c in letters):
        return pf.LOWER
    if len(letters) > 1 and all(c.isupper() for c in letters):
        return pf.ALL_CAPS
    if letters[0].isupper() and all(c.islower() for c in letters[1:]):
        return pf.CAPITALISED_FIRST_WORD if first_word else pf.CAPITALISED
    return pf.OTHER_SHAPE


def _head_attributes(doc: Doc, heads: numpy.ndarray, sentences: numpy.ndarray) -> numpy.ndarray:
    """[H, 7] (type, person, number, gender, entity, shape, lemma id) of the head tokens
    `heads`, read from the doc's arrays, each attribute worked out once per distinct value of
    what decides it (the default's features: 73 ms per 10,000 words with a Token per head, 46
    without; BENCHMARKS.md)."""
    if not len(heads):
        return numpy.zeros((0, 7), dtype="int64")
    rows = doc.to_array(["POS", "MORPH", "LOWER", "ORTH", "LEMMA", "ENT_TYPE"])[heads]  # [H, 6]
    previous = numpy.where(heads > 0, heads - 1, 0)
    first_words = (heads == 0) | (sentences[heads] != sentences[previous])  # [H]
    strings = doc.vocab.strings
    kinds: Dict[tuple, Tuple[int, int, int, int]] = {}
    entities: Dict[int, int] = {0: 0}
    lemma_of: Dict[tuple, int] = {}  # (LEMMA, ORTH): the id of the lower-cased lemma
    lemma_ids: Dict[str, int] = {}
    found = []
    for (pos, morph, lower, orth, lemma, ent), first in zip(rows.tolist(), first_words.tolist()):
        form = lower if pos in _FORM_POS else 0  # the form matters for pronouns alone
        kind = kinds.get((pos, morph, form))
        if kind is None:
            kind = kinds[pos, morph, form] = _kind(doc, strings[pos], morph, strings[form])
        entity = entities.get(ent)
        if entity is None:
            entity = entities[ent] = ENTITY_IDS.get(strings[ent], OTHER_ENTITY)
        lemma_id = lemma_of.get((lemma, orth))
        if lemma_id is None:  # the word itself where there is no lemma
            text = ((strings[lemma] if lemma else "") or strings[orth]).lower()
            lemma_id = lemma_of[lemma, orth] = lemma_ids.setdefault(text, len(lemma_ids))
        found.append((*kind, entity, word_shape(strings[orth], first), lemma_id))
    return numpy.asarray(found, dtype="int64")


def _kind(doc: Doc, pos: str, morph_key: int, lower: str) -> Tuple[int, int, int, int]:
    """(type, person, number, gender) of a head with this POS, morphology and form."""
    morph = MorphAnalysis.from_id(doc.vocab, morph_key)
    return (_mention_type(pos, morph, lower), *_morphology(pos, morph, lower))


def _holding_conjuncts(doc: Doc, heads, starts, ends) -> List[int]:
    """The candidates that hold a conjunct ("conj" dependent) of their head."""
    conjuncts = _conjuncts(doc)
    if not conjuncts:
        return []
    return [i for i in numpy.flatnonzero(numpy.isin(heads, list(conjuncts))).tolist()
            if any(starts[i] <= t < ends[i] for t in conjuncts[int(heads[i])])]


def _text_ids(lower: numpy.ndarray, starts: numpy.ndarray, ends: numpy.ndarray) -> numpy.ndarray:
    """[C] ids equal exactly where the candidates' lower-cased texts are: the rows of LOWER
    hashes are made unique one width at a time."""
    ids = numpy.zeros(len(starts), dtype="int64")
    widths = ends - starts
    next_id = 0
    for width in numpy.unique(widths).tolist():
        rows = numpy.flatnonzero(widths == width)
        hashes = lower[starts[rows, None] + numpy.arange(width)]  # [n, width]
        _, inverse = numpy.unique(hashes, axis=0, return_inverse=True)
        ids[rows] = inverse.reshape(-1) + next_id
        next_id += int(inverse.max()) + 1
    return ids


def _conjuncts(doc: Doc) -> Dict[int, List[int]]:
    """The conjuncts ("conj" dependents) of each token that has some."""
    out: Dict[int, List[int]] = {}
    if not doc.has_annotation("DEP"):
        return out
    deps, offsets = doc.to_array(["DEP", "HEAD"]).T  # [T] each; HEAD is relative
    conjuncts = numpy.flatnonzero(deps == doc.vocab.strings["conj"])  # [n]
    heads = conjuncts + offsets[conjuncts].astype("int64")  # [n]
    for conjunct, head in zip(conjuncts.tolist(), heads.tolist()):
        out.setdefault(head, []).append(conjunct)
    return out


def _mention_type(pos: str, morph: MorphAnalysis, lower: str) -> int:
    if pos == "PRON" or (not pos and lower in PRONOUN_FORMS):
        personal = "Prs" in morph.get("PronType") or lower in PRONOUN_FORMS
        return pf.PERSONAL_PRONOUN if personal else pf.OTHER_PRONOUN
    if pos == "DET":  # "this", "that", "all" as a noun phrase
        return pf.OTHER_PRONOUN
    if pos == "PROPN":
        return pf.PROPER
    if pos in ("NOUN", "NUM"):
        return pf.NOMINAL
    if pos in ("VERB", "AUX"):
        return pf.EVENT
    return pf.OTHER_TYPE


def _morphology(pos: str, morph: MorphAnalysis, lower: str) -> Tuple[int, int, int]:
    """(person, number, gender) from the morphology, else from the pronoun's form."""
    unknown = (0, 0, 0)
    form = PRONOUN_FORMS.get(lower, unknown) if pos in ("PRON", "") else unknown
    if not len(morph):  # no morphology (a text view, a pipeline without a tagger)
        return form
    keys = ("Person", "Number", "Gender")
    values = []
    for key, table, fallback in zip(keys, (PERSONS, NUMBERS, GENDERS), form):
        found = [table[value] for value in morph.get(key) if value in table]
        values.append(found[0] if found else fallback)
    return values[0], values[1], values[2]

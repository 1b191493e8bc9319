"""Which mention of a cluster is its main one (`choose_main`): the first nominal mention, not a
pronoun or a verb. A mention's category is read from its tags and parse where it has them, and
from its words' forms where not; the resolved text (`resolved_text.py`) reads it too.
"""
from typing import List

from spacy.tokens import Span, Token

from ..lang.en import english

# fmt: off
_PRONOUN_TAGS = {"PRP", "PRP$", "WP", "WP$"}
_VERB_POS = {"VERB", "AUX"}
_NOMINAL_POS = {"NOUN", "PROPN", "PRON", "NUM"}
_NOMINAL_TAG_PREFIXES = ("NN", "PRP", "CD", "WP")
# the English pronoun sets (spacy_coref/lang/en/: function_words.json, pronouns.json)
_EN = english()
# English word lists, used where a token has no POS or tag annotation, and for personal pronouns
# that the tagger took for names (en_core_web_sm tags a sentence-initial "Hers" NNP): every
# form but "oneself", and of the archaic ones the singular ("thou", "thee", "thy", "thine")
_PERSONAL = {
    *_EN.pronouns(generic=False), *_EN.pronouns(archaic=True, number="singular"),
}
_OTHER_PRONOUNS = set(_EN.words("wh_relatives", "demonstratives"))  # "who", ..., "this", ...
# fmt: on


def choose_main(mentions: List[Span]) -> Span:
    """The first nominal mention (not a pronoun, not a verb); else the first pronoun; else the
    first mention."""
    non_empty = [m for m in mentions if len(m)] or list(mentions)
    for mention in non_empty:
        if not is_pronoun(mention) and not is_verbal(mention):
            return mention
    for mention in non_empty:
        if is_pronoun(mention):
            return mention
    return non_empty[0]


def is_pronoun(span: Span) -> bool:
    words = [t for t in span if not t.is_punct]
    return bool(words) and all(is_pronoun_token(t) for t in words)


def is_pronoun_token(token: Token) -> bool:
    if token.pos_ == "PRON" or token.tag_ in _PRONOUN_TAGS:
        return True
    text = token.text
    lower = text.lower()
    cased = text.islower() or text.istitle()  # so that "US" and "IT" are not "us" and "it"
    if not token.pos_ and not token.tag_:
        return (cased and lower in _PERSONAL) or lower in _OTHER_PRONOUNS
    # The tagger can take a pronoun for a name ("Hers is red") or a noun ("lent him hers").
    is_noun = token.pos_ in ("PROPN", "NOUN") or token.tag_.startswith("NN")
    return is_noun and cased and lower in _PERSONAL


def is_verbal(span: Span) -> bool:
    if not len(span):
        return False
    if any(t.dep for t in span):  # parsed (not doc.has_annotation: that scans the whole doc)
        return _is_verb_token(span.root)
    # No parse: a verb and nothing nominal ("sang loudly", not "the singing man").
    words = [t for t in span if not t.is_punct]
    has_verb = any(_is_verb_token(t) for t in words)
    return has_verb and not any(_is_nominal_token(t) for t in words)


def _is_verb_token(token: Token) -> bool:
    return token.pos_ in _VERB_POS or token.tag_.startswith("VB")


def _is_nominal_token(token: Token) -> bool:
    return token.pos_ in _NOMINAL_POS or token.tag_.startswith(_NOMINAL_TAG_PREFIXES)

"""`MentionConstraints`: what the analysis knows of each mention of a doc, as arrays over its
mentions; read with a parse by `mention_analysis.py`, without one by `unparsed_analysis.py`."""
from typing import NamedTuple, Optional

import numpy


class MentionConstraints(NamedTuple):
    """What the constraints know of each mention of a doc (arrays over its M mentions)."""

    classes: numpy.ndarray  # [M] agreement classes (bit flags), 0 where unknown
    roots: numpy.ndarray  # [M] token index of the syntactic head, -1 for I/we/you (unbound)
    clause_subjects: numpy.ndarray  # [M] token index of the subject binding it, -1 if none
    reflexive: numpy.ndarray  # [M] bool
    heads: numpy.ndarray  # [M] token index of the syntactic head, -1 without a parse
    possessed: numpy.ndarray  # [M] head of the noun phrase it is the possessor of, -1 if none
    indefinite: numpy.ndarray  # [M] bool: a noun phrase with "a" or "an"
    # [M] token index of the verb whose object or prepositional object it is, -1 if none
    argument_of: numpy.ndarray
    pronoun: numpy.ndarray  # [M] bool: a personal pronoun ("them", "it")
    # [M] token index of a second subject of the binding subject's verb, -1 if none: a parse
    # error that also makes "the headmaster" of "Mr. Abbott, the headmaster, called Jo, and
    # the headmaster asked him" a subject of "asked" beside "Abbott" (decoding only)
    co_subjects: Optional[numpy.ndarray] = None
    # [M] token index of the word a mention's head is in apposition to ("Glenn Gould" of "the
    # pianist Glenn Gould"), -1 if none: binding keeps it from its subject's arguments too
    apposed_to: Optional[numpy.ndarray] = None
    # [M] token index of the noun that the relative clause a pronoun is the subject of
    # modifies ("the dictator who he believed was..."), or that noun's head if it is an
    # appositive ("The butler, a man he had met"), -1 if none: not one entity
    relative_head: Optional[numpy.ndarray] = None

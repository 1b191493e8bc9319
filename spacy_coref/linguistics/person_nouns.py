"""Nouns whose referent is a person of either gender: "the physicist", "a neighbour"; and
nouns of a body of people: "the jury", "the committee".

Agreement reads the first as human (`mention_classes.HUMAN`), so that "it" does not take one of
them as its antecedent ("Pierre was a physicist ... won it"), while "he", "she" and "they" may.
The gendered ones ("aunt", "king") are `mention_classes.GENDERED_WORDS`. A body of people is "it"
or "they" and never "he", "she" or one person (`mention_classes.COLLECTIVE`): "the jury" is not the
"she" of the lawyer who spoke to it.

Written for this project, lemmas in lower case. Left out are the nouns that often name a
company, a country, a device or a thing as well ("client", "driver", "member", "leader",
"owner", "partner", "enemy", "coach", "chemist", "assistant", "pupil"), and the young
("child", "baby", "infant", "kid"), whom older texts call "it".

The lists are data: `spacy_coref/lang/en/person_nouns.json` (in groups) and
`collective_nouns.json`.
"""

from ..lang.en import english

_EN = english()
PERSON_NOUNS = _EN.person_nouns
# Left out: nouns that also name one person's side, a place or a thing ("party", "court",
# "house", "bench", "side").
COLLECTIVE_NOUNS = _EN.collective_nouns

"""Nouns whose referent is never a person or an animal: "the garden", "the meeting", "a phone".

Agreement reads a mention headed by one of them (singular, lower case) as neuter in decoding
(`mention_analysis.agreement_class`): "he" and "she" never take it. The model's scores alone had
given "She" of "Priya's neighbour ... fell in his garden. She heard him" to "his garden", once
agreement had sent it away from "his", and "She" of "Tariq emailed Sophie after the meeting"
to "the meeting".

Written for this project, lemmas in lower case. Left out are the nouns that also name a person
or something texts call "he" or "she": a person's role or kind ("head", "hand", "chair",
"star", "model", "date", "match", "type", "source", "contact", "guide", "host", "second",
"subject", "character", "party", "lead"), a person's shape or trace ("body", "figure", "face",
"voice", "shadow", "form", "soul", "spirit", "ghost"), what older texts and poems call "she"
("ship", "boat", "vessel", "sea", "moon", "sun", "earth", "nature", "country", "nation",
"church", "city"), toys and machines that may be characters ("doll", "robot"), and animals.

The list is data, in groups: `spacy_coref/lang/en/thing_nouns.json`.
"""

from ..lang.en import english

THING_NOUNS = english().thing_nouns

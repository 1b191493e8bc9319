"""First names of clear gender, for the agreement constraint: "Alice" and "he" do not share a
cluster, nor "Robert" and "she". A name counts only as a person's name, the first word of it
that is not a title (`mention_analysis.agreement_class`). Left out: names borne by women and men
alike (Alex, Sam, Jordan, Leslie), names whose gender differs between languages (Andrea,
Simone, Marion), names that are also words at the start of a sentence (Will, May, Hope, Rose,
Grace, Ivy), and common surnames (Lewis, Scott, Martin), which name women too. Besides English
names, the lists hold common German, Scandinavian, Romance, Slavic, Turkish, Arabic, Indian,
Japanese and West African ones (Petra, Lars, Marco, Yusuf, Priya, Kenji, Kwame). The lists hold
the names the training augmentation swaps. `PLACE_NAMES` are the listed names that are also
well-known places: the agreement constraint reads a lone one as a place where the NER does.
`UNISEX_FIRST_NAMES` are common first names of no one gender: they give no gender, but the
names rule (`person_names`) reads them as first names ("Pat" and "David" are two people).

The lists are data: `spacy_coref/lang/en/first_names.json`, `place_names.json` and
`titles.json`, read once by the English lexicon (`spacy_coref.lang.en.english()`)."""
from ..lang.en import english

_EN = english()
FEMININE_FIRST_NAMES = _EN.feminine_first_names
MASCULINE_FIRST_NAMES = _EN.masculine_first_names
# both lists, as written ("Mark", not "mark")
FIRST_NAMES = FEMININE_FIRST_NAMES | MASCULINE_FIRST_NAMES
# First names of no one gender (left out of the two lists), for reading names alone: "Pat"
# and "David" are two people's first names. Not the many that are common surnames too
# (Taylor, Morgan, Casey, Kelly, Darcy, Quinn, Ali) or words (Drew).
UNISEX_FIRST_NAMES = _EN.unisex_first_names
# Titles of either gender, which may come before a first name ("Dr. Alice Okafor").
NEUTRAL_TITLES = _EN.neutral_titles
# First names that are also well-known places: a lone one that the NER calls a place is one.
PLACE_NAMES = _EN.place_first_names

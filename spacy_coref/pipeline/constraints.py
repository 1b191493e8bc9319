"""Grammatical constraints on coreference links, read off the parse that runs before
`coref_cluster`. A 22M-parameter uncased encoder trained on 400k tokens does not learn them
reliably, and their violations are the errors a user sees first:

* agreement: one entity is not referred to by "he" and by "she", nor by "it" and by a person's
  pronoun, nor by "they" and by "he"/"she" (singular they joins no he/she cluster, and an
  organisation may be "it" and "they"). Gendered nouns and titles ("his aunt", "Mr. Reyes") and
  plural nouns and coordinations ("the twins", "Ann and Bo") count like pronouns, and so do
  people's names with a first name of clear gender ("Alice Okafor", `first_names.py`; a lone
  first name even where the small NER calls it an organisation: "Sigrid met Rohan"), and a
  noun phrase a person's name names ("a teacher called Mr. Patel"). A noun for a person of
  either gender ("the physicist", `person_nouns.py`) is never "it", a body of people ("the
  jury") never "he", "she" or one person, and a coordination never "it". A conflict cuts the
  link that joins the two mentions at the least cost (its score above what the mention cut
  off can link to elsewhere; without a parse, genders keep a cluster's majority). First and
  second person are left free in dialogue, where "I" is the "he" of the narration; where the
  doc gives its speakers, two speakers' "I" are two people, and where it gives none (an
  email), "you" is never the writer's "I".
* binding: a (non-reflexive) direct or indirect object, or the object of an argument
  preposition ("talked to her"), never refers to the subject of its own clause ("The nurse
  called the plumber and thanked him": him is not the nurse); a reflexive refers to it
  ("He hurt himself"). A clause without a subject of its own takes the one of the clause it
  hangs from: "Denton began to suffocate him", "Percy left, telling him", "after meeting
  him, Sam left" (the subject), "Ann asked Bo to help him" (the object: him is not Bo).
  "him" as the subject of a verb's complement is that verb's object: "Tom watched him
  leave", "wanted him to stay", "made him captain" (him is not Tom), also where the parser
  reads "made her laugh" as a possessor and a noun. A pronoun's argument preposition may
  hang from the verb as a dative or agent ("wrote a note to him", "impressed by him"), be
  one of on/with/after/against where the verb has no object ("relied on her"), hang from an
  adverb ("walked away from him") or from a predicate adjective ("angry with him"); time
  and place phrases and "looked about him" stay free. Verbs joined by a comma share their
  subject too ("called the plumber, then thanked him").
  Binding rules out the link itself, and where other links still join the two ("He asked
  him", both linked to "Sam"), the later one leaves the cluster: a parse error then costs one
  mention's link, not a narrator's whole cluster. A possessor is not the noun phrase it is
  part of: "her mother" leaves the cluster of its "her" (`part_possessors`). Without a
  parse, the words show the clause of "him", "her", "them" or a reflexive right after a verb
  ("Tom paid him", "called the plumber and thanked him"; `linguistics/unparsed_clauses.py`).
* quotes: a quote's "I" is its speaker and its "you" the one it is said to, where the parse
  (without one, the words next to the quote) shows a speech tag ("..." Tom told Anna); a
  letter's "I" is its signature and its "you" its greeting's name; applied after the others
  (`decoding/steps/quotes.py`, `linguistics/unparsed_quotes.py`).
* names: a name repeated ("Petra" ... "Petra", "Helena Kurz" ... "Kurz") joins its earlier
  mention's cluster where agreement allows (`decoding/steps/names.py`); without a parse, people's
  names alone, by their titles and first names.
* distinct_names: two people's names that cannot be one person's ("Ricardo Rocha" and "Eugenio
  Bernal", "Mr. Hale" and "Mr. Dunmore"), or two one-word place names ("Norway" and "Canada"),
  are never in one cluster, even where a pronoun between them was linked to both
  (`linguistics/person_names.py`); with `names` on, a repeated name does not bring them together
  either.
* indefinites: a noun phrase with "a" or "an" ("a new library") introduces an entity: it
  takes no antecedent, though later mentions may take it as theirs. Appositives and
  predicates ("Ann, a nurse"; "Ann is a nurse") count too: the dev sets' annotations rarely
  link them. Without a parse, any span of two or more words from "a" or "an" on counts.
* contrasts: one head noun with modifiers that exclude each other ("the old bridge", "a new
  bridge"; "the first chapter", "the second chapter"; "two boxes", "three boxes") is two
  entities (`decoding/steps/contrasts.py`).
* same_head: of two nested mentions with one head word in a cluster ("Greta" and "Greta, who
  laughed at him"), the cluster keeps one; two clusters that hold such a pair ("old Cotter" in
  one, "Cotter" in the other) are made one first, where they agree
  (`decoding/steps/same_head.py`). Without a parse a mention's last word stands for its head,
  and clusters are not merged.
* other_heads: a common noun phrase takes an earlier one with another head noun ("the plan"
  after "the government") only where the link scores well above "no antecedent"
  (`decoding/steps/other_heads.py`); without a parse, the heads of short lower-case phrases come
  from each word's usual tag (`linguistics/word_tags.py`).
* whole_phrases: a mention is its whole noun phrase: "the house" linked where the candidates
  hold "the little house in Great Britain Street" becomes that, and a cluster whose only
  names are first words of a longer name ("Norvell" of "Norvell Energy") goes to the whole
  name (`decoding/steps/whole_phrases.py`); applied last.
* salience: no constraint but a preference, applied first: a "he" or "she" takes a subject
  over an object, a mention in its own or the last sentence, a closer one, and one in its own
  role, by more than the model's scores alone say (`decoding/steps/salience.py`).

This module holds the steps' names and the checks of the settings that name them. Each step
is a registered function in `spacy_coref/decoding/steps/` beside its rule (docs/decoding.md),
and the decoder turns them into what `clustering.constrained_clusters` needs: a class per
mention (bit flags, `linguistics/mention_classes.py`), masks of forbidden and required
(mention, antecedent) pairs (`decoding/steps/binding.py`, `linguistics/persons.py`) and each
mention's person name. What is known of each mention is read once, with a parse or without one
(`linguistics/mention_analysis.py`); the pair masks are array operations.
"""
from typing import Dict, Iterable, List

from ..errors import Errors

AGREEMENT = "agreement"
BINDING = "binding"
QUOTES = "quotes"  # a quote's I and you go with its speaker and addressee (steps/quotes.py)
NAMES = "names"  # a repeated name goes with its earlier mention (steps/names.py)
DISTINCT_NAMES = "distinct_names"  # two people's names part a cluster (linguistics/person_names.py)
INDEFINITES = "indefinites"  # "a new library" takes no antecedent
CONTRASTS = "contrasts"  # "the old bridge" is not "the new bridge" (steps/contrasts.py)
SAME_HEAD = "same_head"  # a cluster keeps one of "Greta" and "Greta, who ..." (steps/same_head.py)
CATAPHORA = "cataphora"  # "When she landed, the pilot ..." (steps/cataphora.py)
GROUPS = "groups"  # "the cat and the dog ... they": the pair, not one of them (steps/groups.py)
WHOLE_PHRASES = "whole_phrases"  # "the house in Great Britain Street", not "the house"
OTHER_HEADS = "other_heads"  # "the plan" is seldom "the government" (steps/other_heads.py)
SALIENCE = "salience"  # "he" prefers a subject close by in its own role (steps/salience.py)
CONSTRAINTS = (
    AGREEMENT, BINDING, QUOTES, NAMES, DISTINCT_NAMES, INDEFINITES, CONTRASTS, SAME_HEAD,
    CATAPHORA, GROUPS, WHOLE_PHRASES, OTHER_HEADS, SALIENCE,
)
# The steps on by default (the factory's 'constraints'): each wins beyond its bootstrap interval
# on a dev set and loses on none, or fixes behaviour-suite items of its own; "salience" does
# neither and is kept off (docs/constraints_and_features.md, "What each step adds").
DEFAULT_CONSTRAINTS = tuple(c for c in CONSTRAINTS if c != SALIENCE)


def check_null_scores_by_form(by_form: Dict[str, float], name: str) -> Dict[str, float]:
    """The null scores by form of a component setting, checked. Raises CE109 for a key that
    is not a lower-case word or a value that is not a number."""
    out = {}
    for key, value in dict(by_form).items():
        valid_key = isinstance(key, str) and key and key == key.lower() and " " not in key
        valid_value = isinstance(value, (int, float)) and not isinstance(value, bool)
        if not (valid_key and valid_value):
            raise ValueError(Errors.CE109.format(name=name, key=key, value=value))
        out[key] = float(value)
    return out


def check_constraints(constraints: Iterable[str], name: str) -> List[str]:
    """The constraint names of a component setting, checked. Raises CE108 for unknown names."""
    constraints = list(constraints)
    unknown = [c for c in constraints if c not in CONSTRAINTS]
    if unknown:
        raise ValueError(Errors.CE108.format(name=name, unknown=unknown, valid=list(CONSTRAINTS)))
    return constraints

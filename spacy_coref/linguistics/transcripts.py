"""Transcripts written as text: each turn on its own line, opened by its speaker's label
("Customer: My laptop won't start.", "Interviewer: How did you start?"). A doc whose speakers
are not given but whose lines read so gets them from the labels (`mark_transcript_speakers`),
so that the model's speaker features, `speaker_persons` and `speakers_you_apart` see two
people where two labels speak; the quotes step (`decoding/steps/quotes.py`) then puts each
speaker's "I" with their label and, between two speakers, each turn's "you" with the other one.

A transcript has at least TURNS labelled lines, two labels or more, and a label that opens two
turns: an email's "From:", "To:" and "Subject:" lines each open one.
"""
from collections import Counter
from typing import List, Optional, Sequence

import numpy
from spacy.tokens import Doc

from ..annotations import SPEAKERS_KEY, set_speakers
from ..types import MentionOffset

TURNS = 3
MAX_LABEL_TOKENS = 3


def turn_labels(doc: Doc) -> List[MentionOffset]:
    """The (start, end) offsets of the speaker labels that open a transcript's turns, in order,
    or none where the doc does not read as a transcript. A label is one to MAX_LABEL_TOKENS
    capitalised words at the start of a line, followed by a colon."""
    labels: List[MentionOffset] = []
    if not len(doc):
        return labels
    # the lines' first tokens: the doc's, and each after a space token with a line break
    spaces = numpy.flatnonzero(doc.to_array("IS_SPACE"))
    starts = [0] + [int(i) + 1 for i in spaces if i + 1 < len(doc) and "\n" in doc[int(i)].text]
    for i in starts:
        end = i
        while end < len(doc) and end - i < MAX_LABEL_TOKENS and label_word(doc[end].text):
            end += 1
        if end > i and end < len(doc) and doc[end].text == ":":
            labels.append((i, end))
    if not reads_as_transcript([doc[start:end].text for start, end in labels]):
        return []
    return labels


def reads_as_transcript(labels: Sequence[Optional[str]]) -> bool:
    """Whether turns opened by these labels, in order, make a transcript: at least TURNS of
    them, two labels or more, and one that opens two turns."""
    counts = Counter(labels)
    return len(labels) >= TURNS and len(counts) >= 2 and counts.most_common(1)[0][1] >= 2


def label_word(text: str) -> bool:
    """A word of a speaker's label: "Customer", "Dr.", "Q", "JONES"."""
    return text[:1].isupper() and text.rstrip(".").replace("-", "").isalpha()


def transcript_speakers(doc: Doc) -> Optional[List[Optional[str]]]:
    """Each token's speaker by the turn it is in (its label's text; None before the first
    turn), or None where the doc does not read as a transcript."""
    labels = turn_labels(doc)
    if not labels:
        return None
    speakers: List[Optional[str]] = [None] * len(doc)
    bounds = [start for start, _ in labels] + [len(doc)]
    for (start, end), next_start in zip(labels, bounds[1:]):
        speakers[start:next_start] = [doc[start:end].text] * (next_start - start)
    return speakers


def mark_transcript_speakers(doc: Doc) -> Doc:
    """The doc, with its speakers read from its turn labels where none are given."""
    if not len(doc.spans.get(SPEAKERS_KEY, [])):
        speakers = transcript_speakers(doc)
        if speakers is not None:
            set_speakers(doc, speakers)
    return doc

"""Unlabeled text for pre-training and distillation: JSON Lines chunks ({"id", "text"} per line,
the layout of ../shared/data/unlabeled and ../shared/data/modern), split into texts of bounded
size: prose at paragraph breaks, conversations at turn boundaries.

A conversation is a chunk whose every line opens with a speaker's label, as the chit-chat of
../shared/data/modern/chitchat.jsonl does ("A: ...", "B: ..."). Each turn stays a line opened
by its label, so that the coreference pipeline reads the text as a transcript and gives every
turn its speaker (`linguistics/transcripts.py`), and each piece of a long conversation holds
turns enough for that (TURNS or more, two speakers, one of them twice) where the whole does.
"""

import json
import random
import re
from pathlib import Path
from typing import List, NamedTuple, Optional, Sequence, Tuple

from ..errors import Errors
from ..linguistics.transcripts import MAX_LABEL_TOKENS, label_word, reads_as_transcript

# the orders of `read_texts`: "random" (seeded), "pronouns" (the pronoun-dense chunks first),
# "file" (the files' order)
ORDERS = ("random", "pronouns", "file")
# the third-person personal pronouns that the "pronouns" field of ../shared/data/modern counts
THIRD_PERSON_PRONOUNS = frozenset(
    "he him his himself she her hers herself they them their theirs themselves".split()
)
_WORD = re.compile(r"[^\W\d_]+")
# what makes a path's last part a pattern of file names (`unlabeled_files`)
_PATTERN = re.compile(r"[*?[]")
# what may open a turn: a label and a colon at the start of a line (`_turn_label` checks it)
_TURN = re.compile(r"([^:\n]{1,80}):(?:\s|$)")


class Chunk(NamedTuple):
    """One record of an unlabeled .jsonl file."""

    id: str
    text: str
    pronoun_rate: float  # third-person personal pronouns per word


def unlabeled_files(path: Path) -> List[Path]:
    """The .jsonl files of a directory (sorted), the files whose names match a pattern in
    the path's last part (sorted; e.g. "../shared/data/modern/wikipedia-*.jsonl", for the
    prose of a directory that holds conversations too), or the file itself."""
    path = Path(path)
    if path.is_dir():
        files = sorted(path.glob("*.jsonl"))
    elif not path.exists() and _PATTERN.search(path.name):
        files = sorted(f for f in path.parent.glob(path.name) if f.is_file())
    else:
        files = [path]
    if not files or not all(f.exists() for f in files):
        raise ValueError(Errors.CE260.format(path=path))
    return files


def read_records(path: Path) -> List[Chunk]:
    """Every record of the JSON Lines file(s), in file order, with its pronoun rate: its
    "pronouns" per "words" where the record gives them (../shared/data/modern), else counted
    in its text. A line that is no JSON object with a string "text", and a file without any
    record, raise CE201 naming the file and line."""
    chunks: List[Chunk] = []
    for file in unlabeled_files(path):
        n, before = 0, len(chunks)
        with file.open(encoding="utf8") as f:
            for n, line in enumerate(f, start=1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                except ValueError as e:
                    raise ValueError(Errors.CE201.format(loc=f"{file}:{n}", found=e)) from e
                if not isinstance(record, dict) or not isinstance(record.get("text"), str):
                    raise ValueError(Errors.CE201.format(loc=f"{file}:{n}", found=line[:80]))
                chunk_id = str(record.get("id", f"{file.name}:{n}"))
                chunks.append(Chunk(chunk_id, record["text"], pronoun_rate(record)))
        if len(chunks) == before:
            found = "blank lines only" if n else "an empty file"
            raise ValueError(Errors.CE201.format(loc=f"{file}:{max(n, 1)}", found=found))
    return chunks


def read_chunks(path: Path) -> List[Tuple[str, str]]:
    """Every (id, text) of the JSON Lines file(s), in file order."""
    return [(chunk.id, chunk.text) for chunk in read_records(path)]


def pronoun_rate(record: dict) -> float:
    """Third-person personal pronouns per word of a record: its "pronouns" and "words" counts
    where it gives them as numbers, else counted in its "text" (words split at whitespace)."""
    text = record["text"]
    pronouns, words = record.get("pronouns"), record.get("words")
    if not _is_count(pronouns):
        pronouns = sum(w in THIRD_PERSON_PRONOUNS for w in _WORD.findall(text.lower()))
    if not _is_count(words):
        words = len(text.split())
    return pronouns / words if words else 0.0


def _is_count(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0


def split_text(text: str, max_words: int) -> List[str]:
    """Paragraph groups of at most about `max_words` words (a longer paragraph stays whole); a
    conversation (`conversation_turns`) is split at turns instead (`split_turns`)."""
    turns = conversation_turns(text)
    if turns is not None:
        return split_turns(turns, max_words)
    return _paragraph_groups(text.split("\n\n"), max_words)


def conversation_turns(text: str) -> Optional[List[str]]:
    """The turns of a conversation, one line each ("A: Hi there"), or None where the text is
    no conversation: it has fewer than two non-blank lines, or one of them does not open with a
    speaker's label."""
    lines = [line.rstrip() for line in text.split("\n") if line.strip()]
    if len(lines) < 2 or not all(_turn_label(line) for line in lines):
        return None
    return lines


def _turn_label(line: str) -> Optional[str]:
    """The speaker's label that opens a line, as `transcripts.turn_labels` reads one: one to
    MAX_LABEL_TOKENS capitalised words ("A", "Customer", "Dr. Ana Silva") and a colon."""
    match = _TURN.match(line)
    words = match.group(1).split(" ") if match else []
    if not 1 <= len(words) <= MAX_LABEL_TOKENS or not all(map(label_word, words)):
        return None
    return match.group(1)  # type: ignore[union-attr]


def split_turns(turns: Sequence[str], max_words: int) -> List[str]:
    """Groups of whole turns of at most about `max_words` words, each a text of lines. Where
    the whole conversation reads as a transcript, a group that would not (fewer than TURNS
    turns, one speaker, or no speaker twice) joins the group before it (or else the one after
    it) where the two keep within twice `max_words`, so that its turns get their speakers; a
    longer stretch of one speaker's turns stays a piece of its own, which the pipeline reads
    without speakers, as it does a conversation with one speaker."""
    groups = _turn_groups(turns, max_words)
    if not _reads_as_transcript([t for group in groups for t in group]):
        return ["\n".join(group) for group in groups]
    i = 0
    while i < len(groups):
        if _reads_as_transcript(groups[i]):
            i += 1
            continue
        size = _words(groups[i])
        fits = [j for j in (i - 1, i + 1)
                if 0 <= j < len(groups) and size + _words(groups[j]) <= 2 * max_words]
        if not fits:
            i += 1
            continue
        first = min(i, fits[0])
        groups[first:first + 2] = [groups[first] + groups[first + 1]]
        i = first  # the joined group is checked again
    return ["\n".join(group) for group in groups]


def _words(turns: Sequence[str]) -> int:
    return sum(len(turn.split()) for turn in turns)


def _turn_groups(turns: Sequence[str], max_words: int) -> List[List[str]]:
    groups: List[List[str]] = []
    current: List[str] = []
    size = 0
    for turn in turns:
        n = len(turn.split())
        if current and size + n > max_words:
            groups.append(current)
            current, size = [], 0
        current.append(turn)
        size += n
    if current:
        groups.append(current)
    return groups


def _reads_as_transcript(turns: Sequence[str]) -> bool:
    """Whether `transcripts.turn_labels` reads these turns as a transcript."""
    return reads_as_transcript([_turn_label(turn) for turn in turns])


def _paragraph_groups(paragraphs: Sequence[str], max_words: int) -> List[str]:
    pieces, current, size = [], [], 0
    for paragraph in paragraphs:
        n = len(paragraph.split())
        if current and size + n > max_words:
            pieces.append("\n\n".join(current))
            current, size = [], 0
        if n:
            current.append(paragraph)
            size += n
    if current:
        pieces.append("\n\n".join(current))
    return pieces


def read_texts(
    path: Path,
    *,
    max_texts: int = 0,
    max_words: int = 0,
    seed: Optional[int] = 0,
    order: str = "random",
) -> List[Tuple[str, str]]:
    """Texts for self-supervised training and distillation: the chunks of the .jsonl file(s)
    in `order`, split to `max_words` (0: whole chunks), at most `max_texts` of them (0: all).

    path (Path): a .jsonl file, a directory of them, or a pattern of file names.
    max_texts (int): at most this many texts (0: all).
    max_words (int): split chunks into texts of about this many words, prose at paragraph
        breaks and conversations at turns (0: whole chunks).
    seed (Optional[int]): with order "random", the seed of the shuffle (None: the files' order).
    order (str): "random" (seeded), "pronouns" (the chunks with the most third-person personal
        pronouns per word first, ties by id), or "file" (the files' order).
    RETURNS (List[Tuple[str, str]]): (id, text); split pieces get ids "<chunk id>#<n>".
    """
    if order not in ORDERS:
        raise ValueError(Errors.CE275.format(order=order, orders=", ".join(ORDERS)))
    chunks = read_records(path)
    if not any(chunk.text.strip() for chunk in chunks):  # nothing to mask or label
        raise ValueError(Errors.CE260.format(path=path))
    if order == "pronouns":
        chunks.sort(key=lambda chunk: (-chunk.pronoun_rate, chunk.id))
    elif order == "random" and seed is not None:
        random.Random(seed).shuffle(chunks)
    texts: List[Tuple[str, str]] = []
    for chunk_id, text, _ in chunks:
        pieces = split_text(text, max_words) if max_words else [text]
        for n, piece in enumerate(pieces):
            texts.append((f"{chunk_id}#{n}" if len(pieces) > 1 else chunk_id, piece))
        if max_texts and len(texts) >= max_texts:
            return texts[:max_texts]
    return texts

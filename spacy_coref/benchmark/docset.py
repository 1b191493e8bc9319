"""A fixed, seeded set of benchmark documents cut from the unlabeled prose.

Lengths mix short and long texts as real input does: most documents have 80-560 words and a few
2,000-2,400 (mean about 450). The set is written once to a JSONL file so that every system,
including fastcoref in its own environment, reads exactly the same texts.
"""
import random
import re
from operator import itemgetter
from pathlib import Path
from typing import Dict, List

import srsly

from ..errors import Errors

SHORT_WORDS = (80, 560)
LONG_WORDS = (2000, 2400)
LONG_SHARE = 0.07
WORD = re.compile(r"\S+")


def load_chunks(data_dir: Path) -> List[Dict[str, str]]:
    """Read the unlabeled chunks ({"id", "text"} per line of every *.jsonl file), sorted by id.

    data_dir (Path): the unlabeled prose directory.
    RETURNS (List[Dict[str, str]]): the chunks.
    """
    chunks = []
    for path in sorted(Path(data_dir).glob("*.jsonl")):
        chunks.extend(srsly.read_jsonl(path))
    return sorted(chunks, key=itemgetter("id"))


def cut_words(text: str, n_words: int) -> str:
    """The text up to the end of its n_words-th whitespace-separated word, spacing kept."""
    end = 0
    for i, match in enumerate(WORD.finditer(text)):
        if i == n_words:
            break
        end = match.end()
    return text[:end]


def build_docset(data_dir: Path, n_docs: int = 300, *, seed: int = 0) -> List[Dict[str, str]]:
    """Cut n_docs documents of seeded random lengths from distinct chunks.

    data_dir (Path): the unlabeled prose directory.
    n_docs (int): how many documents.
    seed (int): the random seed; the same seed and data give the same set.
    RETURNS (List[Dict[str, str]]): {"id", "text"} per document.
    """
    chunks = load_chunks(data_dir)
    rng = random.Random(seed)
    targets = [
        rng.randint(*LONG_WORDS) if rng.random() < LONG_SHARE else rng.randint(*SHORT_WORDS)
        for _ in range(n_docs)
    ]
    total_words = sum(len(chunk["text"].split()) for chunk in chunks)
    if len(chunks) < n_docs or total_words < sum(targets):
        raise ValueError(
            Errors.CE242.format(minimum=sum(targets), path=data_dir, found=total_words)
        )
    picked = rng.sample(range(len(chunks)), n_docs)
    docs = []
    for target, index in zip(targets, picked):
        # a long target joins the following chunks of the same file when one is too short
        text = chunks[index]["text"]
        follow = index + 1
        while len(text.split()) < target and follow < len(chunks):
            text = text + "\n\n" + chunks[follow]["text"]
            follow += 1
        docs.append({"id": chunks[index]["id"], "text": cut_words(text, target)})
    return docs


def long_document(data_dir: Path, n_words: int) -> str:
    """One document of n_words words: consecutive chunks joined by blank lines.

    data_dir (Path): the unlabeled prose directory.
    n_words (int): the length in whitespace-separated words.
    RETURNS (str): the text.
    """
    parts: List[str] = []
    count = 0
    for chunk in load_chunks(data_dir):
        parts.append(chunk["text"])
        count += len(chunk["text"].split())
        if count >= n_words:
            return cut_words("\n\n".join(parts), n_words)
    raise ValueError(Errors.CE242.format(minimum=n_words, path=data_dir, found=count))


def write_docset(docs: List[Dict[str, str]], path: Path) -> None:
    """Write the set as JSONL (the file every system reads)."""
    srsly.write_jsonl(path, docs)


def read_docset(path: Path) -> List[Dict[str, str]]:
    """Read a set written by write_docset."""
    return list(srsly.read_jsonl(path))

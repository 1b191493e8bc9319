"""Unlabeled prose for pre-training and distillation: JSON Lines chunks ({"id", "text"} per line,
the layout of ../shared/data/unlabeled), split at paragraph breaks into texts of bounded size."""

import json
import random
from pathlib import Path
from typing import List, Optional, Tuple

from ..errors import Errors


def unlabeled_files(path: Path) -> List[Path]:
    """The .jsonl files of a directory (sorted), or the file itself."""
    path = Path(path)
    files = sorted(path.glob("*.jsonl")) if path.is_dir() else [path]
    if not files or not all(f.exists() for f in files):
        raise ValueError(Errors.CE260.format(path=path))
    return files


def read_chunks(path: Path) -> List[Tuple[str, str]]:
    """Every (id, text) of the JSON Lines file(s), in file order."""
    chunks = []
    for file in unlabeled_files(path):
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
                chunks.append((str(record.get("id", f"{file.name}:{n}")), record["text"]))
    return chunks


def split_text(text: str, max_words: int) -> List[str]:
    """Paragraph groups of at most about `max_words` words (a longer paragraph stays whole)."""
    pieces, current, size = [], [], 0
    for paragraph in text.split("\n\n"):
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
    path: Path, *, max_texts: int = 0, max_words: int = 0, seed: Optional[int] = 0
) -> List[Tuple[str, str]]:
    """Texts for self-supervised training: chunks in a seeded random order (None: file order),
    split to `max_words` (0: whole chunks), at most `max_texts` of them (0: all).

    RETURNS (List[Tuple[str, str]]): (id, text); split pieces get ids "<chunk id>#<n>".
    """
    chunks = read_chunks(path)
    if not any(text.strip() for _, text in chunks):  # nothing to mask or label
        raise ValueError(Errors.CE260.format(path=path))
    if seed is not None:
        random.Random(seed).shuffle(chunks)
    texts: List[Tuple[str, str]] = []
    for chunk_id, text in chunks:
        pieces = split_text(text, max_words) if max_words else [text]
        for n, piece in enumerate(pieces):
            texts.append((f"{chunk_id}#{n}" if len(pieces) > 1 else chunk_id, piece))
        if max_texts and len(texts) >= max_texts:
            return texts[:max_texts]
    return texts

"""`spacy-coref word-tags OUTPUT --unlabeled DIR --data FILE`: the word-tag table of the fast
pipeline (`spacy_coref.linguistics.word_tags`), each word's most frequent tag in text that a
tagger read."""
import time
from pathlib import Path
from typing import List, Optional

import typer
from wasabi import msg

from ..errors import DataFormatError, Errors
from ..linguistics.word_tags import MIN_COUNT, count_word_tags, most_frequent_tags, write_word_tags
from ..pipeline.loading import BASE_PIPELINE
from ._app import app, fail_one_line


@app.command("word-tags")
def word_tags_cli(
    # fmt: off
    output: Path = typer.Argument(..., help="The table to write (.tsv.gz)"),
    unlabeled: Optional[Path] = typer.Option(None, "--unlabeled", help="Unlabeled text: a .jsonl file or a directory of them", exists=True),
    max_words: int = typer.Option(1_000_000, "--max-words", help="Read about this many words of the unlabeled text, its chunks in a seeded random order"),
    data: Optional[List[Path]] = typer.Option(None, "--data", help="A corpus whose texts are read too (any format `convert` reads: GAP .tsv, CoNLL-2012, .jsonl, .spacy); repeatable", exists=True),
    min_count: int = typer.Option(MIN_COUNT, "--min-count", help="Leave out words seen fewer times"),
    base: str = typer.Option(BASE_PIPELINE, "--base", help="The pipeline whose tagger tags the text"),
    # fmt: on
) -> None:
    """Write each lower-case word's most frequent part of speech in the given texts."""
    import spacy

    from ..formats import read_docs
    from ..training.unlabeled import read_texts

    if unlabeled is None and not data:
        fail_one_line(Errors.CE152)
    texts: List[str] = []
    try:
        if unlabeled is not None:
            words = 0
            for _, text in read_texts(unlabeled, seed=0):
                if words >= max_words:
                    break
                texts.append(text)
                words += len(text.split())
        for path in data or []:
            texts.extend(doc.text for doc in read_docs(path))
    except (DataFormatError, ValueError) as e:
        fail_one_line(str(e))
    # the tagger and the rules that map its tags to coarse ones; the parser and NER not needed
    try:
        nlp = spacy.load(base, exclude=["parser", "ner", "lemmatizer", "senter"])
    except OSError as e:  # no such package or directory: spaCy's own message, on one line
        fail_one_line(str(e))
    start = time.perf_counter()
    counts = count_word_tags(nlp.pipe(texts, batch_size=32))
    seconds = time.perf_counter() - start
    table = most_frequent_tags(counts, min_count)
    n_words, n_bytes = write_word_tags(table, output)
    msg.good(
        f"Saved {output}: {n_words:,} words ({n_bytes:,} bytes) from {len(texts):,} texts "
        f"tagged in {seconds:.0f} s"
    )

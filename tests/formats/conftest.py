import warnings
from pathlib import Path
from typing import Callable, Dict, List, Tuple

import pytest
from spacy.tokens import Doc

from spacy_coref.formats import read_docs

# Every split of ../shared/data, as a path relative to it.
SPLITS = {
    "litbank_train": "litbank/train/conll",
    "litbank_dev": "litbank/dev/conll",
    "gum_train": "gum/train",
    "gum_dev": "gum/dev",
    "gap_train": "gap/gap-development.tsv",
    "gap_dev": "gap/gap-validation.tsv",
}

ReadResult = Tuple[List[Doc], List[str]]


@pytest.fixture(scope="session")
def read_split(shared_data: Path) -> Callable[[str], ReadResult]:
    """Read a split of the shared data once per session: its docs and the warnings given."""
    cache: Dict[str, ReadResult] = {}

    def read(split: str) -> ReadResult:
        if split not in cache:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                docs = read_docs(shared_data / SPLITS[split])
            cache[split] = (docs, [str(w.message) for w in caught])
        return cache[split]

    return read

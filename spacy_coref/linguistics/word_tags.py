"""Each common lower-case word's usual part of speech, for the pipelines that run without a
tagger: the fast pipeline reads "paid" as a verb and "at" as a preposition from this table to
find a pronoun's clause (`unparsed_clauses.py`). One word, one tag: the tag a tagger gave it
most often in running text (`spacy-coref word-tags` builds the table), so one lower-case word
in eight to twelve gets another tag than a tagger would give it ("saw" the tool, "like" the
verb: 92.3% agree on LitBank dev, 87.1% on OntoGUM dev); the rules that read it only act
where the tags make one reading clear.

The table ships with the package (`word_tags.tsv.gz`): one line per word, "word<TAB>POS<TAB>TAG",
its usual tag in the Universal Dependencies tag set (VERB, AUX, ADP, NOUN...) and the Penn
Treebank tag that came with it most often (VBP, VBD, IN, NN...).
"""
import gzip
from collections import Counter, defaultdict
from functools import lru_cache
from pathlib import Path
from typing import Dict, Iterable, List, Tuple

import numpy

from ..errors import Errors
from .word_tables import WordTable, look_up, word_table

TABLE_PATH = Path(__file__).parent / "word_tags.tsv.gz"
# words seen fewer times than this are left out: their most frequent tag says little
MIN_COUNT = 3
# capitalised words with these usual tags are no names, without a tagger to say ("Dear All",
# "Hi There", "When")
FUNCTION_WORD_TAGS = frozenset(
    ("ADP", "ADV", "AUX", "CCONJ", "DET", "INTJ", "PART", "PRON", "SCONJ")
)
# the Universal Dependencies tags as small integers, for array lookups; 0: not in the table
TAG_CODES = {
    tag: code
    for code, tag in enumerate(
        ("ADJ", "ADP", "ADV", "AUX", "CCONJ", "DET", "INTJ", "NOUN", "NUM", "PART", "PRON",
         "PROPN", "PUNCT", "SCONJ", "SYM", "VERB", "X"),
        start=1,
    )
}


@lru_cache(maxsize=4)
def _read_table(path: Path) -> Tuple[Dict[str, str], Dict[str, str]]:
    """The coarse and the fine tags of the table at `path`. Raises CE117 (with the file and
    line) for a line that is not "word<TAB>POS<TAB>TAG"."""
    coarse: Dict[str, str] = {}
    fine: Dict[str, str] = {}
    with gzip.open(path, "rt", encoding="utf8") as f:
        for n, line in enumerate(f, start=1):
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 3 or not fields[0] or not fields[1].isupper():
                raise ValueError(Errors.CE117.format(loc=f"{path}:{n}", found=line[:80].rstrip()))
            coarse[fields[0]], fine[fields[0]] = fields[1], fields[2]
    return coarse, fine


@lru_cache(maxsize=4)
def load_word_tags(path: Path = TABLE_PATH) -> Dict[str, str]:
    """The table at `path`: lower-case word -> its usual coarse part of speech ("VERB")."""
    return _read_table(Path(path))[0]


@lru_cache(maxsize=4)
def load_fine_word_tags(path: Path = TABLE_PATH) -> Dict[str, str]:
    """The table at `path`: lower-case word -> the Penn Treebank tag that goes with its usual
    coarse one ("VBP" for "think", which a name as subject would not take)."""
    return _read_table(Path(path))[1]


def count_word_tags(docs: Iterable) -> Dict[str, Counter]:
    """How often each lower-case word carries each (coarse, fine) tag pair in tagged `docs`.
    Words with a capital are left out: a capital mid-sentence makes a name whatever the table
    says, and at the start of a sentence the word's lower-case form is looked up."""
    counts: Dict[str, Counter] = defaultdict(Counter)
    for doc in docs:
        for token in doc:
            if token.is_lower and token.pos_:
                counts[token.text][(token.pos_, token.tag_)] += 1
    return counts


def most_frequent_tags(
    counts: Dict[str, Counter], min_count: int = MIN_COUNT
) -> Dict[str, Tuple[str, str]]:
    """Each word seen at least `min_count` times, its most frequent coarse tag and that tag's
    most frequent fine one (ties: the tag first in alphabetical order, so that the table does
    not depend on the order of the text)."""
    table = {}
    for word, by_pair in counts.items():
        if sum(by_pair.values()) < min_count:
            continue
        by_coarse: Counter = Counter()
        for (coarse, _), n in by_pair.items():
            by_coarse[coarse] += n
        coarse = _most_frequent(by_coarse)
        fine = _most_frequent(Counter({t: n for (c, t), n in by_pair.items() if c == coarse}))
        table[word] = (coarse, fine)
    return table


def _most_frequent(counts: Counter) -> str:
    return min(counts.items(), key=lambda item: (-item[1], item[0]))[0]


def write_word_tags(table: Dict[str, Tuple[str, str]], path: Path) -> Tuple[int, int]:
    """Write `table` to `path` (gzip, sorted by word, no timestamp: the same table gives the
    same bytes, whatever the file is called). RETURNS (Tuple[int, int]): words and bytes written."""
    lines = "".join(f"{word}\t{pos}\t{tag}\n" for word, (pos, tag) in sorted(table.items()))
    with open(path, "wb") as raw, gzip.GzipFile(filename="", fileobj=raw, mode="wb", mtime=0) as f:
        f.write(lines.encode("utf8"))
    return len(table), Path(path).stat().st_size


# the last tables turned into `word_tables` arrays, with the dicts they were made from (kept, so
# that an id is not reused while its arrays are here)
_ARRAYS: List[Tuple[Dict[str, str], WordTable]] = []


def tag_codes(lower_ids: numpy.ndarray, tags: Dict[str, str]) -> numpy.ndarray:
    """The `TAG_CODES` of words given by the string ids of their lower-case forms (a doc's
    `to_array("LOWER")`), 0 for a word not in `tags`."""
    for table, arrays in _ARRAYS:
        if table is tags:
            break
    else:
        arrays = word_table({word: TAG_CODES.get(tag, 0) for word, tag in tags.items()})
        _ARRAYS[:] = [*_ARRAYS[-3:], (tags, arrays)]
    return look_up(lower_ids, arrays)

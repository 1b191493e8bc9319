"""The training and evaluation corpora built from the open data in `../shared/data` (or the same
layout downloaded by `spacy project assets`)."""
from pathlib import Path
from typing import Dict, Iterable, List, Sequence

from spacy.tokens import Doc
from spacy.vocab import Vocab

from ..annotations import get_doc_id, set_scheme
from ..formats import read_docs, write_docs

# The license of the texts of each GUM genre that allows commercial use (the annotations are
# CC BY 4.0 throughout; see the data README and gum/doc_sources.tsv): academic, court (various
# CC BY 4.0 sources), interview and news (Wikinews), bio (Wikipedia) and voyage (Wikivoyage),
# textbook (OpenStax and other open textbooks), vlog (YouTube videos under Creative Commons) and
# speech (public speeches, mostly government works). These are the default training genres; a
# model card lists them for attribution. The others are kept out unless asked for with `--genre`:
# essay, fiction, letter, podcast and whow are non-commercial (CC BY-NC-SA), and conversation
# (the Santa Barbara Corpus) states no license.
# fmt: off
GUM_GENRE_LICENSES = {
    "academic": "CC BY 4.0",
    "bio": "CC BY-SA 3.0",
    "court": "CC BY 4.0",
    "interview": "CC BY 2.5",
    "news": "CC BY 2.5",
    "speech": "public speeches, mostly government works",
    "textbook": "CC BY",
    "vlog": "CC BY",
    "voyage": "CC BY-SA 3.0",
}
# fmt: on
# The GUM genres a model for commercial use may be trained on (bio and voyage: share-alike).
GUM_COMMERCIAL_GENRES = tuple(GUM_GENRE_LICENSES)

# Annotation schemes (doc.user_data["coref_scheme"]). LitBank marks people, places,
# organisations, facilities and vehicles only, singletons included; OntoGUM follows OntoNotes
# (every referring NP and events, no singletons). GAP labels pronoun-name links of Wikipedia
# text, which hold under the OntoNotes scheme, the one users get by default.
ONTONOTES, LITBANK = "ontonotes", "litbank"

# output file -> (input path relative to the data directory, filter GUM genres?, scheme)
TRAIN_FILES = {
    "train/litbank.spacy": ("litbank/train/conll", False, LITBANK),
    "train/gum.spacy": ("gum/train", True, ONTONOTES),
    "train/gap.spacy": ("gap/gap-development.tsv", False, ONTONOTES),
}
# every dev file, for checkpoint selection on all of them (configs/coref_features.cfg)
ALL_DEV_DIR = "dev-all"
DEV_FILES = {
    "dev/litbank.spacy": ("litbank/dev/conll", False, LITBANK),
    "dev/gum.spacy": ("gum/dev", False, ONTONOTES),
    "gap-dev/gap.spacy": ("gap/gap-validation.tsv", False, ONTONOTES),
}
# GUM documents of a training genre kept out of train/ all the same, with the reason: a model of
# this corpus is for commercial use (the data README).
GUM_LEFT_OUT_DOCUMENTS = {
    "GUM_court_carpet": "a Santa Barbara Corpus recording (SBC053), under the LDC's terms",
}
# Pronoun problems that need knowledge (WinoGrande, the Winograd schemas, PDP, BUG's
# occupation-pronoun sentences; pronouns/ of the data directory, CC BY and MIT), as one-pronoun
# partial examples (spacy_coref.formats.pronoun_problems), written apart from train/ so that a
# recipe mixes them in with a weight of its own (spacy_coref.CoNLLCorpus.v3's `mix_weight`).
# WinoGrande dev is scored with its accuracy (`spacy-coref evaluate`), never trained on.
PRONOUN_FILES = {
    "pronouns/train.spacy": (
        "pronouns/winogrande-train-l.jsonl",
        "pronouns/wsc273.jsonl",
        "pronouns/pdp.jsonl",
        "pronouns/bug-gold-wikipedia.jsonl",
    ),
    "pronouns-dev/winogrande.spacy": ("pronouns/winogrande-dev.jsonl",),
}
# GUM's training documents of the genres left out of train/: no model of this corpus is trained
# on them or selects a checkpoint or a decoding setting on them, unlike the dev files, so a
# comparison there is free of that selection. The default genres leave 60 documents (61,474
# tokens, twice GUM dev); texts for evaluation only, as their licences allow.
FRESH_FILE = "fresh/gum.spacy"


def gum_genre(doc: Doc) -> str:
    """The genre of a GUM document from its name (GUM_<genre>_<title>)."""
    name = get_doc_id(doc)["name"] or ""
    parts = name.split("_")
    return parts[1] if len(parts) > 2 and parts[0] == "GUM" else ""


def keep_genres(docs: Iterable[Doc], genres: Sequence[str]) -> List[Doc]:
    """The GUM documents of the given genres (see `gum_genre`), less those of
    `GUM_LEFT_OUT_DOCUMENTS`."""
    return [doc for doc in docs if gum_genre(doc) in genres and not left_out_document(doc)]


def left_out_document(doc: Doc) -> bool:
    """Whether a GUM document is kept out of train/ whatever its genre."""
    return get_doc_id(doc)["name"] in GUM_LEFT_OUT_DOCUMENTS


def build_corpus(
    data_dir: Path, output_dir: Path, *, genres: Sequence[str] = GUM_COMMERCIAL_GENRES
) -> Dict[str, int]:
    """Convert the shared data to .spacy files: train/ (LitBank, GUM of the given genres, GAP),
    dev/ (LitBank, all of GUM) and gap-dev/ (GAP validation), kept apart because GAP is scored
    with its own metrics, dev-all/ (the three dev files together, for a training run that
    selects its checkpoint on CoNLL and GAP F1 at once), fresh/ (GUM's training documents of the
    genres and documents left out of train/, see `FRESH_FILE`) and, where the data directory
    has pronouns/, pronouns/ and pronouns-dev/ (see `PRONOUN_FILES`). Each doc names the
    annotation scheme of its dataset.

    data_dir (Path): the data directory (with litbank/, gum/, gap/, and optionally pronouns/).
    output_dir (Path): where to write.
    genres (Sequence[str]): GUM genres to train on; default: those whose texts allow commercial
        use (the keys of `GUM_GENRE_LICENSES`).
    RETURNS (Dict[str, int]): documents written per output file.
    """
    vocab = Vocab()
    counts = {}
    for out_name, (in_name, filter_genres, scheme) in {**TRAIN_FILES, **DEV_FILES}.items():
        all_docs = read_docs(data_dir / in_name, vocab=vocab)
        for doc in all_docs:
            set_scheme(doc, scheme)
        docs = keep_genres(all_docs, genres) if filter_genres else all_docs
        counts[out_name] = write_file(docs, output_dir / out_name)
        if out_name in DEV_FILES:
            write_docs(docs, output_dir / ALL_DEV_DIR / Path(out_name).name)
        if filter_genres:
            left_out = [doc for doc in all_docs if not keep_genres([doc], genres)]
            if left_out:
                counts[FRESH_FILE] = write_file(left_out, output_dir / FRESH_FILE)
            elif (output_dir / FRESH_FILE).exists():
                # an earlier run's, with fewer genres in train/: its documents are trained on now
                (output_dir / FRESH_FILE).unlink()
    if (data_dir / "pronouns").is_dir():
        for out_name, in_names in PRONOUN_FILES.items():
            docs = [doc for name in in_names for doc in read_docs(data_dir / name, vocab=vocab)]
            for doc in docs:
                set_scheme(doc, ONTONOTES)
            counts[out_name] = write_file(docs, output_dir / out_name)
    return counts


def write_file(docs: List[Doc], path: Path) -> int:
    """Write the docs to path, making its directory; the number written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_docs(docs, path)
    return len(docs)

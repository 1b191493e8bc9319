"""Dev CoNLL F1 (LitBank, OntoGUM) and GAP F1 of a trained pipeline for other decoding settings,
scoring each dev doc once: the model's antecedent scores are kept and only the decoding is
repeated, so a sweep of many settings costs one pass of the model.

    python scripts/decoding_sweep.py [--model default] [--top-lambda 0.4] [--scores PATH]
        [--set MODULE.NAME=EXPR] SETTING ...

SETTING is comma-separated key=value pairs of `decode_clusters` options, e.g.
`null=-0.5,constraints=binding` (constraints joined by "+", or "none"); `pronoun_null=-0.75`
gives it/its/itself and they/them/their/theirs/themselves that null score
(`null_scores_by_form`; "none": no form has its own). An empty SETTING ("") is the model's
own decoding, which every unnamed option keeps. Reads corpus/dev and corpus/gap-dev (`spacy
project run convert`). --top-lambda: the candidates kept per token when scoring (the model's
own setting by default). --scores PATH keeps the scored dev docs in a pickle and reads them
from there on the next run (about 35 s saved each time; delete it when the model, the top
lambda or the corpus changes). --set MODULE.NAME=EXPR (repeatable) sets a constant of a
decoding module of `spacy_coref.pipeline` before decoding, to try a rule's variant on the
same scores, e.g. `--set "constraints.PLACE_ADVERBS=frozenset()"`.
"""
import importlib
import pickle
import sys
import time
from pathlib import Path

from spacy_coref.formats import read_docs
from spacy_coref.pipeline.constraints import NEUTER_PLURAL_PRONOUNS
from spacy_coref.training.evaluation import (
    _conll_scores, _gap_scores, load_coref_nlp, redecode_docs, scored_docs,
)

OPTIONS = ("null", "constraints", "pronoun_null")


def parse_setting(text, own):
    """The decoding options of SETTING `text`, the model's `own` for those it leaves out."""
    setting = dict(own)
    for item in filter(None, text.split(",")):
        key, value = item.split("=")
        if key not in OPTIONS:
            raise SystemExit(f"unknown setting {key!r}: one of {list(OPTIONS)}")
        if key == "constraints":
            setting[key] = [c for c in value.split("+") if c and c != "none"]
        elif key == "pronoun_null":
            by_form = {} if value == "none" else dict.fromkeys(NEUTER_PLURAL_PRONOUNS, float(value))
            setting["by_form"] = by_form
        else:
            setting[key] = float(value)
    return setting


def score(model, top_lambda):
    """The dev sets (references), the model's docs for them, each doc's scores (by position)
    and the component's decoding settings."""
    nlp = load_coref_nlp(model)
    inner = nlp.get_pipe("coref").inner
    cluster = inner.get_pipe("coref_cluster")
    if top_lambda is not None:  # the head is built from the config: set it in place
        cluster.model.get_ref("head").shims[0]._model.top_lambda = top_lambda
    sets = {name: read_docs(f"corpus/dev/{name}.spacy") for name in ("litbank", "gum")}
    sets["gap"] = read_docs("corpus/gap-dev/gap.spacy")
    preds, scores = {}, {}
    start = time.perf_counter()
    for name, refs in sets.items():
        scored = scored_docs(nlp, refs)
        preds[name] = [doc for doc, _ in scored]
        scores[name] = [doc_scores for _, doc_scores in scored]
    print(f"scored in {time.perf_counter() - start:.0f} s", flush=True)
    return sets, preds, scores, dict(cluster.cfg)


def set_constant(assignment):
    """`--set MODULE.NAME=EXPR`: a decoding module's constant set to EXPR's value."""
    target, expr = assignment.split("=", 1)
    module_name, name = target.rsplit(".", 1)
    module = importlib.import_module(f"spacy_coref.pipeline.{module_name}")
    if not hasattr(module, name):
        raise SystemExit(f"spacy_coref.pipeline.{module_name} has no {name}")
    setattr(module, name, eval(expr, vars(module)))


def main(settings, model="default", top_lambda=None, scores_path=None, assignments=()):
    if scores_path is not None and Path(scores_path).exists():
        with open(scores_path, "rb") as file_:
            sets, preds, scores, cfg = pickle.load(file_)
        print(f"scores read from {scores_path}", flush=True)
    else:
        sets, preds, scores, cfg = score(model, top_lambda)
        if scores_path is not None:
            with open(scores_path, "wb") as file_:
                pickle.dump((sets, preds, scores, cfg), file_)
    for assignment in assignments:
        set_constant(assignment)
    own = {"null": cfg.get("null_score", 0.0),
           "constraints": list(cfg.get("constraints", [])),
           "by_form": dict(cfg.get("null_scores_by_form", {}))}
    for text in settings:
        setting = parse_setting(text, own)
        for name, docs in preds.items():
            redecode_docs(docs, scores[name], cfg, constraints=setting["constraints"],
                          null_score=setting["null"], null_scores_by_form=setting["by_form"])
        out = []
        for name in ("litbank", "gum"):
            out.append(f"{name} {_conll_scores(sets[name], preds[name], False)['conll_f1']:.2f}")
        gap = _gap_scores(sets["gap"], preds["gap"])
        overall = gap["overall"]
        out.append(f"GAP {overall['f']:.1f} (P {overall['p']:.1f} R {overall['r']:.1f})")
        out.append(f"bias {gap['bias']:.3f}")
        print(text or "(as shipped)", *out, flush=True)


if __name__ == "__main__":
    args, options, assignments = sys.argv[1:], {}, []
    while args[:1] in (["--model"], ["--top-lambda"], ["--scores"], ["--set"]):
        key, value, args = args[0], args[1], args[2:]
        if key == "--set":
            assignments.append(value)
        elif key == "--top-lambda":
            options["top_lambda"] = float(value)
        else:
            options["model" if key == "--model" else "scores_path"] = value
    main(args, assignments=assignments, **options)

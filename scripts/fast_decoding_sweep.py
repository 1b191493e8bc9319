"""Dev CoNLL F1 (LitBank, OntoGUM), GAP F1 and speed of the shipped fast pipeline for other
decoding settings: candidates kept per token (top_lambda) and where candidates come from.

    python scripts/fast_decoding_sweep.py [--model DIR] 1.2/sentence_spans 1.5/spans ...

Each argument is TOP_LAMBDA/SOURCE; --model: a trained pipeline that needs no parser (e.g.
training/fast/model-best) instead of the shipped fast pipeline. Reads corpus/dev and corpus/gap-dev (`spacy project run
convert`). Speed: words/s of the whole pipeline on the raw text of OntoGUM dev.
"""
import sys
import time

from spacy_coref.formats import read_docs
from spacy_coref.ml.s2e_coref import head_module
from spacy_coref.training.evaluation import evaluate_docs, load_coref_nlp


def main(settings, model="fast"):
    nlp = load_coref_nlp(model)
    model = nlp.get_pipe("coref").inner.get_pipe("coref_cluster").model
    head = head_module(model)  # built from the config: set it in place
    dev = {name: read_docs(f"corpus/dev/{name}.spacy") for name in ("litbank", "gum")}
    gap = read_docs("corpus/gap-dev/gap.spacy")
    texts = [doc.text for doc in dev["gum"]]
    words = sum(len(text.split()) for text in texts)
    for setting in settings:
        top_lambda, source = setting.split("/")
        head.top_lambda = float(top_lambda)
        model.attrs["candidates"]["source"] = source
        scores = [f"{name} {evaluate_docs(nlp, refs)['conll_without_singletons']['conll_f1']:.2f}"
                  for name, refs in dev.items()]
        gap_scores = evaluate_docs(nlp, gap)["gap"]
        start = time.perf_counter()
        list(nlp.pipe(texts, batch_size=16))
        speed = words / (time.perf_counter() - start)
        print(setting, *scores, f"GAP {gap_scores['overall']['f']:.1f}",
              f"bias {gap_scores['bias']:.3f}", f"{speed:,.0f} words/s", flush=True)


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--model"]:
        main(args[2:], model=args[1])
    else:
        main(args)

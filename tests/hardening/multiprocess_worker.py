"""Run by test_multiprocess.py in a fresh interpreter: the serial run and `n_process=2`, as JSON
on stdout: `python multiprocess_worker.py fork|spawn TEXTS.json [fp32|bf16|auto]`."""

import json
import multiprocessing
import os
import sys

import spacy
import torch
from spacy.language import Language
from spacy.tokens import Doc

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hardening_invariants import BASE_MODEL, snapshot  # noqa: E402

BATCH_SIZE = 4


@Language.component("hardening_record_pid")
def record_pid(doc: Doc) -> Doc:
    doc.user_data["hardening_pid"] = os.getpid()
    return doc


def main(start_method: str, texts_path: str, precision: str = "fp32") -> None:
    multiprocessing.set_start_method(start_method, force=True)
    texts = json.loads(open(texts_path, encoding="utf8").read())
    nlp = spacy.load(BASE_MODEL)
    nlp.add_pipe("coref", config={"store_scores": True, "precision": precision})
    nlp.add_pipe("hardening_record_pid")
    # torch runs with its default threads here first: the state in which forked workers used
    # to deadlock
    default = [snapshot(doc) for doc in nlp.pipe(texts)]
    # the workers run with one thread; so does this reference (the output should not care)
    torch.set_num_threads(1)
    serial = [snapshot(doc) for doc in nlp.pipe(texts, batch_size=BATCH_SIZE)]
    docs = list(nlp.pipe(texts, n_process=2, batch_size=BATCH_SIZE))
    result = {
        "parent": os.getpid(),
        "default": default,
        "serial": serial,
        "parallel": [snapshot(doc) for doc in docs],
        "workers": sorted({doc.user_data["hardening_pid"] for doc in docs}),
        "alive_children": [p.pid for p in multiprocessing.active_children()],
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main(*sys.argv[1:])

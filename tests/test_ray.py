"""`spacy_coref.ray` and `spacy-coref resolve --ray` on a local Ray (2 CPUs): the records of the
serial command, in input order, error records for bad ones, parquet in and out, and a worker
killed in the middle of a job. One Ray test runs by default; the others need --slow."""
import importlib
import importlib.util
import json
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any, Dict, List

import pytest
import spacy
from spacy.language import Language
from typer.testing import CliRunner

from spacy_coref.cli import app
from spacy_coref.extensions import install_extensions

if importlib.util.find_spec("ray") is None:
    pytest.skip("the extra spacy-s2e-coref[ray] is not installed", allow_module_level=True)

import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402
import ray  # noqa: E402

from spacy_coref.ray import CorefActor, column_texts, resolve_dataset  # noqa: E402
from spacy_coref.resolver import load_resolver, resolve_records  # noqa: E402
from spacy_coref.scaleout.job import JobInput, JobOptions, run_resolve_job  # noqa: E402
from spacy_coref.scaleout.records import FAILED, JSON, ROW  # noqa: E402
from spacy_coref.scaleout.units import line_table  # noqa: E402

TEXTS = [
    "Marie Curie was born in Warsaw. She moved to Paris, where she met Pierre Curie.",
    "",
    "Alice saw Bob. She waved at him, and he smiled at her.",
    "The committee met on Monday. It decided to postpone its vote.",
    "John told Mary that he would call her later.",
]
# (line of a jsonl input, the code of its error record, its id there)
BAD = [
    (b'{"id": "bad-int", "text": 12}', "CE201", "bad-int"),
    (b'{"id": "no-text", "title": "x"}', "CE201", "no-text"),
    (b'{"id": "latin1", "text": "na\xefve"}', "CE203", "latin1"),
    (b'{"id": "broken", "text": "a"', "CE200", None),
]
ACTOR_TITLE = b"ray::MapWorker(MapBatches(CorefActor))"


def records(n: int) -> List[Dict[str, Any]]:
    return [{"id": f"d{i}", "text": TEXTS[i % len(TEXTS)], "n": i} for i in range(n)]


def write_jsonl(path: Path, items: List[Dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(item) + "\n" for item in items), encoding="utf8")
    return path


def resolve(args: List[str], **kwargs):
    return CliRunner().invoke(app, ["resolve", *args], **kwargs)


def serial_lines(items: List[Dict[str, Any]], scores: bool = False) -> List[str]:
    """What the serial `spacy-coref resolve` writes for jsonl records (the library it runs)."""
    nlp = load_resolver("default", scores=scores)
    pairs = resolve_records(nlp, items, batch_size=4, scores=scores)
    return [json.dumps(record, ensure_ascii=False) for _, record in pairs]


def assert_same_records(found: List[Dict[str, Any]], expected: List[Dict[str, Any]]) -> None:
    """The same records; pair scores equal up to float32 rounding (a worker runs torch with its
    own number of threads, which sums in another order)."""
    assert [{k: v for k, v in r.items() if k != "scores"} for r in found] == [
        {k: v for k, v in r.items() if k != "scores"} for r in expected
    ]
    for a, b in zip(found, expected):
        assert [(s["mention"], s["antecedent"]) for s in a.get("scores", [])] == [
            (s["mention"], s["antecedent"]) for s in b.get("scores", [])
        ]
        scores = [s["score"] for s in a.get("scores", [])]
        assert scores == pytest.approx([s["score"] for s in b.get("scores", [])], abs=1e-4)


# the serial runs here use one torch thread, as each worker does
pytestmark = pytest.mark.usefixtures("one_torch_thread")


@pytest.fixture(scope="module")
def local_ray():
    """One local Ray with 2 CPUs for the slow tests (the job uses it instead of its own)."""
    if not ray.is_initialized():
        ray.init(num_cpus=2, include_dashboard=False, logging_level="WARNING")
    yield
    ray.shutdown()


# Without Ray running


def test_without_the_extra_import_names_the_install(monkeypatch):
    # the public entry point (`spacy_coref.ray`, a re-export) and the module with the code
    for name in [m for m in sys.modules if m == "ray" or m.startswith(("ray.", "spacy_coref.ray"))]:
        monkeypatch.delitem(sys.modules, name)
    for name in [m for m in sys.modules if m.startswith("spacy_coref.scaleout.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "ray", None)  # what `import ray` finds without the extra
    for module in ("spacy_coref.ray", "spacy_coref.scaleout.workers"):
        with pytest.raises(ImportError, match=r"CE320.*pip install 'spacy-s2e-coref\[ray\]'"):
            importlib.import_module(module)
        assert module not in sys.modules
    result = resolve(["--ray", "Alice saw Bob."])
    assert result.exit_code == 1 and "CE320" in result.stderr and result.stdout == ""


def test_options_that_need_ray_or_do_not_go_with_it(tmp_path):
    for args, code in [
        (["--workers", "2"], "CE324"),
        (["--address", "auto"], "CE324"),
        (["--format", "parquet"], "CE324"),
        (["--ray", "--format", "html"], "CE325"),
        (["--ray", "--format", "parquet", "-o", str(tmp_path / "out.jsonl")], "CE331"),
    ]:
        result = resolve(["Alice saw Bob.", *args])
        assert result.exit_code == 1 and code in result.stderr, (args, result.output)
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "part-000000000000.jsonl").write_text("")
    job_input = JobInput(arguments=[(b'{"text": "a"}', None)])
    with pytest.raises(ValueError, match="CE328"):
        run_resolve_job(job_input, options=JobOptions(), directory=tmp_path / "out")
    if not ray.is_initialized():  # nothing listens there: fails at once
        with pytest.raises(RuntimeError, match="CE333.*127.0.0.1:1"):
            run_resolve_job(job_input, options=JobOptions(address="127.0.0.1:1"))


def test_texts_of_a_column():
    batch = pa.table({"text": ["a", None, "c"], "id": [1, 2, 3]})
    texts, errors = column_texts(batch, "text")
    assert texts == ["a", None, "c"] and errors[0] is None and "CE321" in errors[1]
    texts, errors = column_texts(pa.table({"body": [b"ok", b"\xff"]}), "body")
    assert texts == ["ok", None] and "CE322" in errors[1]
    texts, errors = column_texts(pa.table({"text": [1]}), "text")
    assert "CE321" in errors[0] and "int" in errors[0]
    assert "CE321" in column_texts(batch, "body")[1][2]


@Language.component("test_ray_fails_on_boom")
def fails_on_boom(doc):
    if doc.text == "boom":
        raise RuntimeError("boom")
    return doc


def blank_actor(input_format=None) -> CorefActor:
    """A worker with a blank pipeline whose one component fails on the text "boom" (no Ray)."""
    install_extensions()
    nlp = spacy.blank("en")
    nlp.add_pipe("test_ray_fails_on_boom")
    actor = CorefActor.__new__(CorefActor)
    settings = dict(nlp=nlp, scores=False, batch_size=4, text_column="text", cache={})
    actor.__dict__.update(settings, input_format=input_format)
    return actor


def test_worker_batches_keep_every_row():
    """Column mode and line mode: one row out per row in, a document the pipeline fails on
    gives CE323 and the others of its batch are resolved."""
    batch = pa.table({"id": [1, 2, 3, 4], "text": ["Ann ran.", "boom", None, ""]})
    out = blank_actor()(batch)
    assert out.column_names == ["id", "text", "clusters", "resolved", "error"]
    assert out.column("resolved").to_pylist() == ["Ann ran.", None, None, ""]
    errors = out.column("error").to_pylist()
    assert errors[0] is None and "CE323" in errors[1] and "CE321" in errors[2] and not errors[3]
    lines = [b'{"id": 1, "text": "Ann ran."}', b'{"id": 2, "text": "boom"}', b"", b"{"]
    batch = line_table(lines, names=["in.jsonl"] * 4, first_row=7)
    out = blank_actor("jsonl")(batch)
    assert out.column(ROW).to_pylist() == [7, 8, 9, 10]
    records = [None if line is None else json.loads(line) for line in out.column(JSON).to_pylist()]
    assert records[0] == {"id": 1, "text": "Ann ran.", "clusters": [], "resolved": "Ann ran."}
    assert records[1]["id"] == 2 and "CE323" in records[1]["error"] and records[2] is None
    assert records[3]["error"].startswith("[CE200] in.jsonl:4:")
    assert out.column(FAILED).to_pylist() == [False, True, False, True]


# On a local Ray (the one test of the default run)


def test_ray_gives_the_serial_records_in_order_and_error_records(tmp_path, mixed_length_texts):
    # and documents over two encoder windows: the error records shift the batches, and a
    # document's clusters and scores do not depend on its batch (test_batch_invariance.py)
    long = [{"id": f"long{i}", "text": text} for i, text in enumerate(mixed_length_texts[:8])]
    good = records(8) + long
    serial_input = write_jsonl(tmp_path / "good.jsonl", good)
    serial = resolve(["-i", str(serial_input), "-b", "2", "--scores"])
    assert serial.exit_code == 0, serial.output
    # the same records with bad ones and a blank line between them
    lines = [json.dumps(item).encode() for item in good]
    for i, (line, _, _) in enumerate(BAD):
        lines.insert(2 * i + 1, line)
    lines.insert(3, b"")
    source = tmp_path / "mixed.jsonl"
    source.write_bytes(b"\n".join(lines) + b"\n")
    output = tmp_path / "out" / "resolved.jsonl"
    args = ["--ray", "--workers", "2", "-i", str(source), "-o", str(output), "-b", "3",
            "--scores"]
    result = resolve(args)
    assert result.exit_code == 0, result.output
    assert f"Wrote {len(good) + len(BAD)} record(s)" in result.stderr
    assert "4 error record(s)" in result.stderr and "2 Ray worker(s)" in result.stderr
    written = output.read_text(encoding="utf8").splitlines()
    errors = [json.loads(line) for line in written if '"error": "[CE' in line]
    assert [line for line in written if '"error": "[CE' not in line] == serial.stdout.splitlines()
    assert [(e.get("id"), e["error"][1:6]) for e in errors] == [(i, c) for _, c, i in BAD]
    for error, number in zip(errors, (2, 5, 7, 9)):  # the line of each bad record
        assert f"{source}:{number}:" in error["error"]
    assert not ray.is_initialized()  # the local Ray of the job is stopped


# On a local Ray (--slow)


@pytest.mark.slow
def test_parquet_in_and_out(tmp_path, local_ray):
    items = records(9)
    expected = [json.loads(line) for line in serial_lines(items, scores=True)]
    source = tmp_path / "in"
    source.mkdir()
    pq.write_table(pa.Table.from_pylist(items[:5]), source / "a.parquet", row_group_size=2)
    pq.write_table(pa.Table.from_pylist(items[5:]), source / "b.parquet")
    output = tmp_path / "out.jsonl"
    result = resolve(
        ["--ray", "-w", "2", "-i", str(source), "-o", str(output), "-b", "2", "--scores"]
    )
    assert result.exit_code == 0, result.output
    assert_same_records([json.loads(line) for line in output.read_text().splitlines()], expected)
    shards = tmp_path / "shards"
    args = ["--ray", "-i", str(source), "-o", str(shards), "-f", "parquet", "--shard-size", "4"]
    args += ["-b", "2", "--scores"]
    result = resolve(args)
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in shards.iterdir())
    assert names == [
        "part-000000000000.parquet",
        "part-000000000004.parquet",
        "part-000000000008.parquet",
    ]
    table = pq.read_table([str(shards / name) for name in names])  # one schema for all shards
    assert table.column_names == ["id", "text", "n", "clusters", "resolved", "scores", "error"]
    assert table.column("error").null_count == len(expected)
    assert_same_records(table.drop_columns(["error"]).to_pylist(), expected)


@pytest.mark.slow
def test_jsonl_shards_stdin_and_arguments(tmp_path, local_ray):
    items = records(10)
    expected = serial_lines(items)
    source = write_jsonl(tmp_path / "in.jsonl", items)
    shards = tmp_path / "shards"
    result = resolve(
        ["--ray", "-i", str(source), "-o", str(shards), "--shard-size", "3", "-b", "2"]
    )
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in shards.iterdir())  # 3 rounded up to batches of 2: 4
    assert names == [f"part-00000000000{i}.jsonl" for i in (0, 4, 8)]
    assert [line for n in names for line in (shards / n).read_text().splitlines()] == expected
    # one document per line from stdin, and texts given as arguments (one of them bad)
    result = resolve(["--ray"], input="\n".join(TEXTS) + "\n")
    assert result.exit_code == 0, result.output
    assert [json.loads(line)["text"] for line in result.stdout.splitlines()] == TEXTS
    args = ["--ray", '{"id": 1, "text": "Ann ran."}', '{"id": 2}', "--input-format", "jsonl"]
    result = resolve(args)
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert out[0]["id"] == 1 and out[0]["resolved"] == "Ann ran."
    assert out[1]["id"] == 2 and out[1]["error"].startswith("[CE201] argument 2:")


@pytest.mark.slow
def test_resolve_dataset_adds_the_fields(local_ray):
    items = records(5) + [{"id": "null", "text": None, "n": 5}]
    expected = [json.loads(line) for line in serial_lines(items[:5], scores=True)]
    ds = ray.data.from_items(items)
    rows = resolve_dataset(ds, scores=True, concurrency=2, batch_size=2).take_all()
    rows.sort(key=lambda row: row["n"])
    assert [row["error"] for row in rows[:5]] == [None] * 5
    assert_same_records([{k: row[k] for k in expected[0]} for row in rows[:5]], expected)
    assert rows[5]["clusters"] is None and "CE321" in rows[5]["error"] and rows[5]["id"] == "null"


def actor_pids() -> List[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "cmdline").read_bytes().startswith(ACTOR_TITLE):
                    pids.append(int(entry.name))
            except OSError:
                continue
    return pids


@pytest.mark.slow
def test_a_killed_worker_leaves_the_output_complete(tmp_path, local_ray):
    """SIGKILL one of the two workers once the first shards are written: Ray restarts it
    (max_restarts) and runs its batch again (max_task_retries); every record is written."""
    items = records(1000)
    expected = serial_lines(items)
    source = write_jsonl(tmp_path / "in.jsonl", items)
    shards = tmp_path / "shards"
    options = JobOptions(workers=2, batch_size=4, shard_size=20)
    done: Dict[str, Any] = {}

    def job() -> None:
        done["summary"] = run_resolve_job(JobInput(path=source), options=options, directory=shards)

    thread = threading.Thread(target=job)
    thread.start()
    deadline = time.monotonic() + 300
    while not (shards.exists() and any(shards.glob("part-*"))) and time.monotonic() < deadline:
        time.sleep(0.1)
    pids = actor_pids()
    written = len(list(shards.glob("part-*")))
    assert len(pids) == 2 and written < 50, "the job ended before a worker could be killed"
    os.kill(pids[0], signal.SIGKILL)
    restarted = set()
    while thread.is_alive() and time.monotonic() < deadline:
        restarted |= set(actor_pids()) - set(pids)
        time.sleep(0.2)
    thread.join(timeout=1)
    assert "summary" in done and done["summary"].records == 1000 and done["summary"].errors == 0
    assert restarted, "no worker was started in place of the killed one"
    names = sorted(p.name for p in shards.glob("part-*"))
    assert len(names) == 50
    assert [line for n in names for line in (shards / n).read_text().splitlines()] == expected

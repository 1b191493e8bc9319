import os
from pathlib import Path

import pytest

SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def pytest_addoption(parser):
    parser.addoption("--slow", action="store_true", default=False, help="run slow tests")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--slow"):
        return
    skip_slow = pytest.mark.skip(reason="slow: run with --slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip_slow)


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """`../shared/data` beside the repository (CI has it there)."""
    path = Path(os.environ.get("SPACY_COREF_DATA", SHARED_DATA))
    if not path.exists():
        pytest.fail(f"Shared data not found at {path}: clone the project beside ../shared")
    return path

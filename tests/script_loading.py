"""Loading a script of scripts/ as a module, for the tests of its functions."""
import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def load_script(path: Path, name: str) -> ModuleType:
    """The script at `path`, imported as module `name` (and kept in sys.modules, which
    dataclasses and pickling need)."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module

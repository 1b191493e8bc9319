"""The fixed mmap threshold (spacy_coref/heap.py) takes effect.

Each case runs in a fresh process: the setting is process-wide and cannot be undone.
"""
import ctypes.util
import os
import platform
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc",
    reason="mallopt and mallinfo2 are glibc's",
)

# Frees a 4 MiB block (glibc then raises its mmap threshold to 4 MiB unless it is fixed), then
# prints how many bytes a 1 MiB block added to the mmapped regions: 0 when it came from the heap.
PROBE = textwrap.dedent(
    """
    import ctypes
    class MallInfo2(ctypes.Structure):
        _fields_ = [(name, ctypes.c_size_t) for name in (
            "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
            "fordblks", "keepcost")]
    libc = ctypes.CDLL(LIBC)
    libc.mallinfo2.restype = MallInfo2
    libc.malloc.restype = ctypes.c_void_p
    libc.malloc.argtypes = [ctypes.c_size_t]
    libc.free.argtypes = [ctypes.c_void_p]
    SETUP
    block = libc.malloc(4 << 20)
    libc.free(block)
    before = libc.mallinfo2().hblkhd
    block = libc.malloc(1 << 20)
    print("mmapped", libc.mallinfo2().hblkhd - before)
    """
)


def run_probe(setup: str) -> str:
    code = PROBE.replace("LIBC", repr(ctypes.util.find_library("c") or "libc.so.6"))
    code = code.replace("SETUP", setup)
    environ = {k: v for k, v in os.environ.items() if k != "MALLOC_MMAP_THRESHOLD_"}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            env=environ, timeout=300)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_glibc_raises_the_threshold_by_default():
    """The behaviour the fix is for: without it, the 1 MiB block comes from the heap."""
    assert "mmapped 0\n" in run_probe("pass")


def test_fixed_threshold_maps_large_blocks():
    setup = "from spacy_coref.heap import fix_mmap_threshold; print('set', fix_mmap_threshold())"
    out = run_probe(setup)
    assert "set True" in out
    assert int(out.split("mmapped ")[1]) >= 1 << 20


def test_a_higher_threshold_keeps_smaller_blocks_on_the_heap():
    setup = (
        "from spacy_coref.heap import fix_mmap_threshold; "
        "print('set', fix_mmap_threshold(8 << 20))"
    )
    out = run_probe(setup)
    assert "set True" in out
    assert "mmapped 0\n" in out

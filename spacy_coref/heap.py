"""Keep a long-running process's memory flat: a fixed mmap threshold for glibc's malloc.

glibc serves blocks above its mmap threshold (128 KiB at start) with mmap and returns them to
the system when they are freed. But each time such a block is freed, it raises the threshold to
that block's size (up to 32 MiB), so from then on the encoder's activations, whose sizes change
with every batch of new text, come from the heap, and the holes they leave fit the next batch's
shapes badly: the resident memory creeps up with every new text (it stays flat when the same
texts repeat). Fixing the threshold turns the raising off. It is a trade-off, so it is opt-in:
`scripts/measure_rss.py` over 5,000 documents measured +16.8% RSS after the warm-up with glibc's
default and +4.0% with the threshold fixed, but the benchmark's words/s drop by about 20%
(every large activation is a fresh mmap whose pages fault in). See the README.
"""
import ctypes
import ctypes.util
import sys

M_MMAP_THRESHOLD = -3  # mallopt parameter, glibc's malloc.h
MMAP_THRESHOLD_BYTES = 128 * 1024  # glibc's own starting value, kept fixed


def fix_mmap_threshold(threshold: int = MMAP_THRESHOLD_BYTES) -> bool:
    """Fix glibc's mmap threshold for this whole process (the same as setting the environment
    variable MALLOC_MMAP_THRESHOLD_ before Python starts).

    threshold (int): blocks of at least this many bytes are mmapped and unmapped when freed.
    RETURNS (bool): whether it was set (False where the C library has no mallopt: not glibc).
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # musl and others have no mallopt
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, threshold))

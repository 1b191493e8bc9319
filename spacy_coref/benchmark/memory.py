"""Peak resident memory of this process, resettable on Linux so each phase gets its own peak."""
import resource
import sys
from pathlib import Path

STATUS = Path("/proc/self/status")
CLEAR_REFS = Path("/proc/self/clear_refs")


def _status_mb(field: str) -> float:
    for line in STATUS.read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024  # kB
    return 0.0


def rss_mb() -> float:
    """The resident memory now, in MB (0.0 where /proc is missing)."""
    return _status_mb("VmRSS") if STATUS.exists() else 0.0


def peak_rss_mb() -> float:
    """The peak resident memory since the start or the last reset_peak(), in MB."""
    if STATUS.exists():
        return _status_mb("VmHWM")
    scale = 1024 * 1024 if sys.platform == "darwin" else 1024  # bytes on macOS, kB on Linux
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / scale


def reset_peak() -> bool:
    """Reset the peak to the current resident memory (Linux >= 4.0); False where it cannot."""
    try:
        CLEAR_REFS.write_text("5")
    except OSError:
        return False
    return True

"""What the benchmark's workers report, made up for the tests of the ratios and the report
(tests/benchmark/test_floor.py, test_accurate.py): imported by those test modules, whose
folder pytest puts on sys.path."""

# what (a) and (a') report besides their speed
FLOOR = dict(windows=3, wordpieces=1200, max_window=512, padded_fraction_planned=0.01)
WINDOWS = dict(segments=5, wordpieces=1500, padded_fraction_naive=0.2,
               padded_fraction_planned=0.02)


def fake_result(words_per_s, resolved, **extra):
    """One system's result: its speed and the precision it ran in."""
    return {"words_per_s": words_per_s, "docs_per_s": 1.0, "peak_rss_mb": 900.0,
            "peak_above_loaded_mb": 100.0, "precision_resolved": resolved, **extra}


def fake_banded(speed, resolved, bands, **extra):
    """A result with words/s by length band ({band: words/s})."""
    by_length = {band: {"docs": 1, "words": 100, "seconds": 100 / s, "words_per_s": s}
                 for band, s in bands.items()}
    return fake_result(speed, resolved, by_length=by_length, **extra)

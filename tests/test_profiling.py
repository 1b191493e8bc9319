"""The coref stage's profile (spacy_coref.profiling): each section's own time, the parts adding
up to the whole, nothing recorded without a profile or from another thread."""
import threading
import time

import pytest

from spacy_coref.profiling import ENCODER, HEAD, OTHER, StageProfile, section


def test_a_section_counts_its_own_time_less_the_sections_inside():
    with StageProfile() as profile:
        with section(HEAD):
            time.sleep(0.02)
            with section(ENCODER):
                time.sleep(0.05)
        time.sleep(0.01)
    assert 0.05 <= profile.seconds[ENCODER] < 0.2
    assert 0.02 <= profile.seconds[HEAD] < 0.05  # not the encoder's 0.05 inside it
    rows = {row["part"]: row for row in profile.table(10_000)}
    assert rows[OTHER]["ms_per_10k_words"] >= 10
    parts = sum(row["ms_per_10k_words"] for part, row in rows.items() if part != "total")
    assert parts == pytest.approx(rows["total"]["ms_per_10k_words"])
    assert rows["total"]["share"] == 1.0
    assert [row["part"] for row in profile.table(1)][:2] == [ENCODER, HEAD]  # the parts' order
    assert rows[HEAD]["calls"] == 1


def test_nothing_is_recorded_without_a_profile_or_from_another_thread():
    with section(HEAD):
        pass
    with StageProfile() as profile:
        worker = threading.Thread(target=lambda: section(ENCODER).__enter__())
        worker.start()
        worker.join()
        with section(HEAD):
            pass
    assert set(profile.seconds) == {HEAD}


def test_profiles_do_not_nest_and_the_next_one_starts_clean():
    with StageProfile():
        with pytest.raises(RuntimeError):
            StageProfile().__enter__()
    with StageProfile() as profile:
        pass
    assert profile.seconds == {}

"""No student can hold the shared server: the step limit of a run is cut to what fits in one
run's CPU budget (ui.serving.budget), deterministically, with a sentence on the page."""

import pytest

from tests.support.apptest import open_app
from tests.support.player import payload
from ui.serving import budget

BIG = {"size": "32", "colour": "1"}  # d = 3 x 32 x 32 = 3072 neurons


@pytest.mark.parametrize("kind, mode", [("classical", "async"), ("classical", "sync"),
                                        ("dense", "async"), ("dense", "sync"), ("modern", "")])
@pytest.mark.parametrize("d, N", [(64, 3), (256, 3), (256, 40), (3072, 40)])
def test_caps_grow_as_the_work_per_step_shrinks(kind, mode, d, N):
    most = budget.max_steps(kind, mode, d, N)
    assert most >= 1
    assert most * budget.step_seconds(kind, mode, d, N) <= budget.RUN_SECONDS
    assert budget.max_steps(kind, mode, d, N, share=0.25) <= most
    if d < 3072:
        assert budget.max_steps(kind, mode, 3072, N) <= most


@pytest.mark.parametrize("page", ["classical", "dense", "modern", "side_by_side", "landscape"])
def test_the_default_lessons_are_not_cut(page):
    """At the sidebar's default size (16 x 16 grey, d = 256) no default run hits its cap."""
    at = open_app(page)
    assert not at.exception and _cap_note(at) is None


def _cap_note(at) -> str | None:
    notes = [c.value for c in at.caption if "would hold the class's shared server" in c.value]
    return notes[0] if notes else None


def test_a_classical_run_that_never_settles_is_cut_and_says_so():
    at = open_app("classical", query={**BIG, "T": "1.0"})
    at.number_input(key="classical_steps").set_value(200).run()
    note = _cap_note(at)
    most = budget.max_steps("classical", "async", 3072, 3)
    assert note and f"stopped at {most} steps, not the 200 you asked for" in note
    assert payload(at, "classical")["T"] == most  # the player's run is the cut one
    again = open_app("classical", query={**BIG, "T": "1.0"})  # the same link, the same run
    again.number_input(key="classical_steps").set_value(200).run()
    assert _cap_note(again) == note
    small = open_app("classical", query={"T": "1.0"})  # d = 256: the default 30 steps fit
    assert _cap_note(small) is None


def test_the_dense_page_at_the_largest_size_stays_within_budget():
    at = open_app("dense", query=BIG)
    assert not at.exception
    assert _cap_note(at)  # 30 asynchronous sweeps at d = 3072 do not fit
    assert budget.cap("dense", "async", 3072, 3, 30, share=0.5)[0] < 30

"""The class's budget of new images (ui.store.upload_budget): at most per_minute a minute from
all tabs and processes together, at most half of it from tabs opened in the last minute, kept
on disk beside the images and never longer than a minute."""
import os

import pytest

from ui.store import uploads
from ui.store.upload_budget import FOLDER, Budget, BudgetExceeded

NOW = 1_000_000_000.0
SETTLED, NEW = 600.0, 5.0  # a tab's age in seconds


def admit(budget: Budget, tab_age_s: float, now: float) -> None:
    """What the store does for a new image: check, then (once stored) record."""
    budget.check(tab_age_s, now)
    budget.record(tab_age_s, now)


@pytest.fixture
def budget(tmp_path):
    return Budget(tmp_path, per_minute=10, new_tab_s=60)


def test_the_minutes_worth_is_taken_then_refused_with_when_to_try_again(budget):
    for i in range(10):
        admit(budget, SETTLED, NOW + i)
    with pytest.raises(BudgetExceeded) as refused:
        admit(budget, SETTLED, NOW + 30)
    assert str(refused.value).startswith("The class's shared store is taking in new images as fast "
                                         "as it allows (10 a minute from all tabs together")
    assert "try again in a minute" in str(refused.value)
    admit(budget, SETTLED, NOW + 60.5)  # the first has aged out


def test_new_tabs_take_at_most_half_and_leave_the_rest_to_the_class(budget):
    """A script opening fresh sessions is a stream of new tabs: it gets half the minute, and a
    student whose tab is older still uploads."""
    for i in range(5):
        admit(budget, NEW, NOW + i)
    with pytest.raises(BudgetExceeded, match=r"Tabs opened in the last minute .* \(5 a minute\)"):
        admit(budget, NEW, NOW + 6)
    for i in range(5):
        admit(budget, SETTLED, NOW + 7 + i)
    with pytest.raises(BudgetExceeded, match="as fast as it allows"):
        admit(budget, SETTLED, NOW + 13)


def test_processes_sharing_the_folder_share_the_budget(budget, tmp_path):
    other = Budget(tmp_path, per_minute=10, new_tab_s=60)  # another app process
    for i in range(5):
        admit(budget, SETTLED, NOW + i)
        admit(other, SETTLED, NOW + i)
    with pytest.raises(BudgetExceeded):
        admit(other, SETTLED, NOW + 20)


def test_the_ledger_never_holds_more_than_a_minute_and_ignores_what_is_not_its_own(budget, tmp_path):
    folder = tmp_path / FOLDER
    for i in range(10):
        admit(budget, SETTLED, NOW + i)
    folder.joinpath("junk-file").touch()
    folder.joinpath(f"{int((NOW + 10 ** 6) * 1e9)}-s-ffff").touch()  # from a clock far ahead
    admit(budget, SETTLED, NOW + 200)  # a flood long over: nothing on disk locks it out
    assert sorted(os.listdir(folder)) == [n for n in os.listdir(folder) if n.startswith(str(int((NOW + 200) * 1e9)))]


def test_the_default_budget_follows_the_stores_size_and_hold(monkeypatch, tmp_path):
    from ui.store import upload_budget
    monkeypatch.setenv(uploads.ROOT_ENV, str(tmp_path / "u"))
    monkeypatch.setenv(uploads.SIZE_ENV, "3")
    monkeypatch.setenv(uploads.HOLD_ENV, "2")
    monkeypatch.setenv(upload_budget.NEW_TAB_ENV, "10")
    monkeypatch.setattr(uploads, "_STORES", {})
    b = upload_budget.default_budget()
    assert b.per_minute == uploads.per_minute(3 * 2 ** 20, 120) == 15 and b.new_tab_s == 10
    default = upload_budget.Budget(tmp_path, uploads.per_minute(uploads.MAX_BYTES, uploads.HOLD_S))
    assert (default.per_minute, default.new_tabs) == (87, 43)  # docs/classroom.md's figures
    for junk in ("-1", "nan", "inf", "lots"):
        monkeypatch.setenv(uploads.SIZE_ENV, junk)
        assert uploads.store_bytes() == uploads.MAX_BYTES  # a bad setting is ignored

"""A page's heading is written once (ui/shell/heading.py): every page's title goes through it,
and in presenter mode its lede leaves the top for a place under the live figure."""
from pathlib import Path

from tests.support.apptest import in_order, open_app, where

ROOT = Path(__file__).resolve().parents[3]


def test_only_the_heading_module_writes_a_title():
    found = [f"{p.relative_to(ROOT)}" for folder in ("ui", "app_pages")
             for p in (ROOT / folder).rglob("*.py") if "st.title(" in p.read_text()]
    assert found == ["ui/shell/heading.py"], found


def test_the_lede_is_under_the_title_and_in_presenter_mode_under_the_figure():
    from ui.pages.modern import explain

    plain = in_order(open_app("modern"))
    assert plain[:2] == [explain.TITLE, explain.LEDE]
    shown = in_order(open_app("modern", {"presenter": "1"}))
    assert shown[0] == explain.TITLE and shown[1] != explain.LEDE
    assert where(shown, explain.LEDE) > where(shown, "modern_player")  # under the player and its energy curve

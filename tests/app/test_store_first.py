"""The sentence a page shows while the store is empty has one home (ui.store.store.store_first):
every page says it in the same words, and no page or module writes its own copy."""
from pathlib import Path

import pytest

from tests.support.apptest import open_app
from ui.store.store import store_first

ROOT = Path(__file__).resolve().parents[2]


def test_the_sentence_is_written_once():
    for path in [*(ROOT / "ui").rglob("*.py"), *(ROOT / "app_pages").glob("*.py")]:
        if path != ROOT / "ui" / "store" / "store.py":
            assert "at least one pattern" not in path.read_text().lower(), path


def test_its_words():
    assert store_first() == "Store at least one pattern in the sidebar to begin."
    assert store_first(drawn=True) == ("Store at least one pattern in the sidebar, or draw one "
                                       "above, to begin.")
    assert store_first("to learn from") == "Store at least one pattern in the sidebar to learn from."


@pytest.mark.parametrize("page, said", [("modern", store_first()),
                                        ("classical", store_first(drawn=True))])
def test_a_page_with_an_empty_store_says_it(page, said):
    at = open_app(page, query={"presets": ""})
    assert said in [i.value for i in at.info]

"""In real Chromium: a control a teacher's link hides leaves no empty column in its row of
controls (the classical page lays its row out with Settings.row; the others rely on the page
style, which folds an empty column of controls away), and the "Settings for this lesson" line
is in view, not under the app's header."""
import pytest

from tests.support.browser import assert_healthy, goto, shot

COLUMNS_JS = """() => [...document.querySelectorAll(
    '[data-testid="stMain"] [class*="st-key-controls"] [data-testid="stColumn"]')]
  .map(c => ({width: c.getBoundingClientRect().width,
              items: c.querySelectorAll('[data-testid="stElementContainer"]').length}))"""
LINE_JS = """() => {
  const header = document.querySelector('[data-testid="stHeader"]').getBoundingClientRect().bottom;
  const line = [...document.querySelectorAll('[data-testid="stMain"] p')]
    .find(p => p.innerText.startsWith('Settings for this lesson:'));
  return line ? {text: line.innerText, top: line.getBoundingClientRect().top, header} : null;
}"""


@pytest.mark.parametrize("path, line", [
    ("classical?T=0.1&rule=storkey&T_hide=1&rule_hide=1",
     "Settings for this lesson: temperature T = 0.1, learning rule Storkey."),
    ("dense?n=6&n_hide=1", "Settings for this lesson: degree n = 6."),
], ids=["classical", "dense"])
def test_a_hidden_control_leaves_no_gap_and_the_lesson_line_shows(page, server, path, line):
    goto(page, server, path)
    assert_healthy(page)
    columns = page.evaluate(COLUMNS_JS)
    assert columns and not [c for c in columns if c["items"] == 0 and c["width"] > 0], columns
    found = page.evaluate(LINE_JS)
    assert found and found["text"] == line, found
    assert found["top"] >= found["header"], found  # readable, not under the header
    shot(page, f"hidden_controls_{path.split('?')[0]}")

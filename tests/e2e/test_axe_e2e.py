"""axe-core (Deque's accessibility engine, vendored: tests/e2e/vendor/axe-core/README.txt) on
every page, in the light and the dark theme (the browser's colour scheme), in the default
state and after the page's main interaction (`main_interaction`: a player's Step and Run,
else a primary button, else the page's next view). No violation of impact serious or critical
may remain; a failure lists each rule with the elements (axe's CSS selectors) it found.

One more test opens a page in presenter and high-contrast projector mode (?presenter=1&
projector=1). The vendored file is checked against its sha256 before it is injected: a
changed or truncated copy fails here rather than giving a silent partial answer."""
from __future__ import annotations

import re

import pytest

from tests.support.axe import AXE_VERSION, axe_source, describe, violations
from tests.support.browser import shot, wait_idle
from ui.pages import url_paths

VIEWPORT = {"width": 1400, "height": 1000}
THEMES = ("light", "dark")


def settle(pg) -> None:
    """wait_idle, and then until no skeleton is left: Streamlit draws a skeleton
    (stSkeleton) in place of an element whose code it is still loading (Plotly's is large),
    after the run has ended; on a busy machine the page's buttons and images came up to 5 s
    after the script state read notRunning."""
    wait_idle(pg)
    pg.wait_for_function("() => !document.querySelector('[data-testid=\"stSkeleton\"]')",
                         timeout=60_000)
    wait_idle(pg)


def main_interaction(pg) -> str:
    """Press the page's main control and wait for the run: a player's Step, then its Run to
    the end (so Step shows disabled); else the main area's primary button (the capacity lab's
    Run, where a run waits for it); else the page's second view (a segmented control's next
    option). Returns what was pressed ("" where the page has none of these: Home, side by
    side, attention)."""
    main = pg.locator('[data-testid="stMain"]')
    # a button's name holds its icon's ligature and its shortcut too ("step Step S")
    step = main.get_by_role("button", name=re.compile(r"\bStep\b"))
    pressed = []
    if step.count():
        step.first.click()
        settle(pg)
        pressed.append("Step")
        run = main.get_by_role("button", name=re.compile(r"\bRun\b"))
        if run.count() and run.first.is_enabled():
            run.first.click()
            settle(pg)
            pressed.append("Run")
        return ", ".join(pressed)
    primary = main.locator('[data-testid="stBaseButton-primary"]')
    if primary.count():
        name = max(primary.first.inner_text().split("\n"), key=len).strip()
        primary.first.click()
        settle(pg)
        return name
    views = main.locator('[data-testid="stButtonGroup"] [role="radio"]')
    if views.count() > 1:  # no button: the page's next view (landscape, capacity lab, ...)
        name = views.nth(1).inner_text().strip()
        views.nth(1).click()
        settle(pg)
        return name
    return ""


def audit(browser, server: str, path: str, theme: str, query: str = "",
          viewport: dict | None = None) -> dict[str, list[dict]]:
    """axe's findings on `path` before and after its main interaction, in a fresh session."""
    context = browser.new_context(viewport=viewport or VIEWPORT, color_scheme=theme)
    try:
        pg = context.new_page()
        pg.set_default_timeout(60_000)
        pg.goto(f"{server}/{path}{query}")
        settle(pg)
        before = violations(pg)
        pressed = main_interaction(pg)
        after = violations(pg) if pressed else []
        shot(pg, f"axe_{path or 'home'}_{theme}{'_' + query.strip('?&') if query else ''}")
        return {"default": before, f"after {pressed or 'nothing'}": after}
    finally:
        context.close()


def assert_clean(results: dict[str, list[dict]], where: str) -> None:
    bad = {state: found for state, found in results.items() if found}
    assert not bad, f"{where}: axe found serious or critical violations\n" + "\n".join(
        f"[{state}]\n{describe(found)}" for state, found in bad.items())


def test_the_vendored_axe_is_the_recorded_version():
    assert f"axe v{AXE_VERSION}" in axe_source()[:300]


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("path", url_paths(), ids=lambda p: p or "home")
def test_no_serious_accessibility_violations(browser, server, path, theme):
    assert_clean(audit(browser, server, path, theme), f"/{path} ({theme})")


def test_no_serious_violations_in_presenter_and_projector_mode(browser, server):
    results = audit(browser, server, "classical", "light", "?presenter=1&projector=1")
    assert_clean(results, "/classical?presenter=1&projector=1")

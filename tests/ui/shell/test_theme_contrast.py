"""The theme (.streamlit/config.toml, [theme.light] and [theme.dark]) and the CSS that lightens
Streamlit's fades (ui.shell.page_style.CONTRAST_CSS) meet WCAG 2 in both themes (issue 30): text and
links 4.5:1 on the page and on the sidebar, white button text on the primary colour 4.5:1,
controls (the primary colour, the fields' borders) 3:1; captions and disabled labels, drawn
as the text colour at an opacity, 4.5:1 after the blend. axe checks the drawn page
(tests/e2e/test_axe_e2e.py); this checks the numbers every page's colours come from."""
import tomllib
from pathlib import Path

import pytest

from ui.charts.style import contrast, rgb
from ui.shell.page_style import CAPTION_OPACITY, CONTRAST_CSS, DISABLED_OPACITY

CONFIG = Path(__file__).resolve().parents[3] / ".streamlit" / "config.toml"
THEMES = tomllib.loads(CONFIG.read_text())["theme"]
STREAMLIT_CAPTION_OPACITY = 0.6  # Streamlit 1.67's own fade of a caption


def blend(fg: str, bg: str, alpha: float) -> str:
    """fg drawn at `alpha` opacity over bg, as the browser composites it."""
    return "#" + "".join(f"{round(alpha * f + (1 - alpha) * b):02x}"
                         for f, b in zip(rgb(fg), rgb(bg)))


@pytest.fixture(params=["light", "dark"])
def theme(request):
    return THEMES[request.param]


def grounds(t: dict) -> list[str]:
    return [t["backgroundColor"], t["secondaryBackgroundColor"]]  # the page, the sidebar/fields


def test_both_themes_are_declared_with_every_colour_the_checks_need():
    keys = {"primaryColor", "backgroundColor", "secondaryBackgroundColor", "textColor",
            "linkColor", "borderColor"}
    for name in ("light", "dark"):
        assert keys <= set(THEMES[name]), name
        assert THEMES[name]["showWidgetBorder"] is True, name
    assert "base" not in THEMES  # a base would pin one theme: the browser's choice stays


def test_text_and_links_read_on_the_page_and_the_sidebar(theme):
    for ground in grounds(theme):
        assert contrast(theme["textColor"], ground) >= 4.5
        assert contrast(theme["linkColor"], ground) >= 4.5


def test_controls_stand_out(theme):
    assert contrast("#ffffff", theme["primaryColor"]) >= 4.5  # a primary button's label
    assert contrast(theme["primaryColor"], theme["backgroundColor"]) >= 3.0  # the button
    for ground in grounds(theme):
        assert contrast(theme["borderColor"], ground) >= 3.0  # a field's edge


def test_captions_and_disabled_labels_read_after_the_css(theme):
    for ground in grounds(theme):
        for alpha in (CAPTION_OPACITY, DISABLED_OPACITY):
            assert contrast(blend(theme["textColor"], ground, alpha), ground) >= 4.5, alpha
    assert f"opacity: {CAPTION_OPACITY} !important" in CONTRAST_CSS
    assert f"opacity: {DISABLED_OPACITY} !important" in CONTRAST_CSS


def test_streamlits_own_caption_fade_would_fail_on_white():
    """Why the CSS is there: the fade Streamlit derives from the light text colour."""
    light = THEMES["light"]
    faded = blend(light["textColor"], "#ffffff", STREAMLIT_CAPTION_OPACITY)
    assert faded == "#828180" and contrast(faded, "#ffffff") < 4.5  # axe's finding, 3.88:1

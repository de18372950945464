"""High-contrast projector mode (issue 30): a field of the link (`projector=1`, like presenter
mode), a switch in the sidebar and, in presenter mode (which hides the sidebar), one beside
"Leave presenter mode". On, the page gets the projector CSS and every chart its high-contrast
copy (ui.charts.charts.high_contrast); the stored patterns' pictures say what they show (alt text)."""

from tests.support.apptest import open_app
from tests.support.player import chart_specs
from ui.charts import style as chart_style
from ui.shell import page_style
from ui.shell.sidebar import gallery_alt
from ui.store.shared_settings import LINK

PROJECTOR_CSS_START = page_style.PROJECTOR_CSS.strip()[:60]


def link_of(at) -> dict:
    return {k: (v[-1] if isinstance(v, list) else v) for k, v in at.query_params.items()}


def has_projector_css(at) -> bool:
    return any(h.proto.body.strip().startswith(PROJECTOR_CSS_START) for h in at.get("html"))


def chart_colours(at) -> set[str]:
    """The colours of every line and marker of the page's charts, as sent to the browser."""
    out = set()
    for spec in chart_specs(at):
        for trace in spec["data"]:
            for part in (trace.get("line") or {}, trace.get("marker") or {}):
                colour = part.get("color")
                out |= set(colour) if isinstance(colour, list) else {colour} - {None}
    return {c for c in out if isinstance(c, str)}


def line_widths(at) -> list[float]:
    return [t["line"]["width"] for spec in chart_specs(at)
            for t in spec["data"]
            if t.get("type") == "scatter" and "width" in (t.get("line") or {})]


def test_the_link_turns_projector_mode_on_and_is_written_back():
    assert LINK.fields["projector"].kind == "kept"
    at = open_app("classical", query={"projector": "1"})
    assert at.session_state["projector"] is True and link_of(at)["projector"] == "1"
    assert at.sidebar.toggle(key="projector").value is True
    assert has_projector_css(at)
    assert not has_projector_css(open_app("classical"))
    assert "projector" not in link_of(open_app("classical", query={"projector": "0"}))


def test_the_sidebar_switch_sets_the_css_the_charts_and_the_link():
    at = open_app("classical")
    plain_colours, plain_widths = chart_colours(at), line_widths(at)
    assert set(chart_style.HIGH_CONTRAST) & plain_colours  # the house colours, before
    at.sidebar.toggle(key="projector").set_value(True).run()
    assert not at.exception and link_of(at)["projector"] == "1" and has_projector_css(at)
    dark = chart_colours(at)
    assert not set(chart_style.HIGH_CONTRAST) & dark  # every house colour swapped ...
    assert set(chart_style.HIGH_CONTRAST.values()) & dark  # ... for its twin
    assert plain_widths and min(line_widths(at)) >= max(min(plain_widths), 3.5)
    at.sidebar.toggle(key="projector").set_value(False).run()
    assert "projector" not in link_of(at) and not has_projector_css(at)
    assert chart_colours(at) == plain_colours


def test_presenter_mode_has_its_own_projector_switch_beside_the_way_out():
    at = open_app("classical", query={"presenter": "1"})
    assert [b.key for b in at.button if b.key == "leave_presenter"]
    switch = at.toggle(key="projector_presenter")
    assert switch.label == "High-contrast projector mode" and switch.value is False
    switch.set_value(True).run()
    assert not at.exception and at.session_state["projector"] is True
    assert link_of(at)["projector"] == "1" and link_of(at)["presenter"] == "1"
    assert has_projector_css(at) and at.sidebar.toggle(key="projector").value is True
    at.toggle(key="projector_presenter").set_value(False).run()
    assert at.session_state["projector"] is False and not has_projector_css(at)


def test_presenter_mode_shows_the_switch_on_when_the_link_asked_for_projector_mode():
    at = open_app("classical", query={"presenter": "1", "projector": "1"})
    assert at.toggle(key="projector_presenter").value is True and has_projector_css(at)


def test_the_stored_patterns_pictures_say_what_they_show():
    at = open_app("classical", query={"presets": "letters/A,letters/B", "size": "24"})
    alts = [im.proto.imgs[0].alt for im in at.sidebar.get("image")]
    assert alts == ["Stored pattern 1, A: a 24 x 24 black-and-white image",
                    "Stored pattern 2, B: a 24 x 24 black-and-white image"]
    assert gallery_alt(3, "moon", (16, 16, 3)) == (
        "Stored pattern 3, moon: a 16 x 16 colour image, each channel on or off")

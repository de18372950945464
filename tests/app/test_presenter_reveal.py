"""Presenter mode shows a run's result when the run reaches it, not before (ui/settings/gate.py):
the sections that would tell it draw one line instead; a page without a player shows it on "Show
the result"; a change of a value that defines the run holds it again; outside presenter mode, and
on the capacity lab (whose curves are the run being computed), nothing is held."""
from tests.support.apptest import open_app
from ui.settings import gate


def metric_labels(at) -> set[str]:
    return {m.label for m in at.metric}


def captions(at) -> list[str]:
    return [c.value for c in at.caption]


def test_a_page_with_a_player_holds_its_result_until_the_run_ends():
    at = open_app("modern", query={"presenter": "1"})
    assert "k90" not in metric_labels(at) and "Fixed point" not in metric_labels(at)
    assert gate.REVEAL_TEXT in captions(at)
    assert "modern_show_result" not in {b.key for b in at.button}  # the player's end shows it
    plain = open_app("modern")
    assert {"k90", "Fixed point"} <= metric_labels(plain) and gate.REVEAL_TEXT not in captions(plain)


def test_a_page_without_a_player_shows_its_result_on_show_the_result():
    at = open_app("landscape", query={"presenter": "1"})
    assert "Energy at the end" not in metric_labels(at) and gate.SHOW_TEXT in captions(at)
    at.button(key="landscape_show_result").click().run()
    assert "Energy at the end" in metric_labels(at) and not at.exception
    at.number_input(key="landscape_qx").set_value(-0.4).run()  # another run: held again
    assert "Energy at the end" not in metric_labels(at)
    at.button(key="landscape_show_result").click().run()
    assert "Energy at the end" in metric_labels(at)
    at.button_group(key="landscape_view").set_value("plane").run()  # a section changes no run
    at.button_group(key="landscape_view").set_value("world").run()
    assert "Energy at the end" in metric_labels(at)


def test_side_by_side_and_attention_hold_their_verdicts():
    for page, shown in (("side_by_side", "side_by_side_finals"), ("attention", "attention_strip")):
        at = open_app(page, query={"presenter": "1"})
        keys = {c.proto.id.rsplit("-", 1)[-1] for c in at.get("plotly_chart")}
        assert shown not in keys and gate.SHOW_TEXT in captions(at), page
        at.button(key=f"{page}_show_result").click().run()
        keys = {c.proto.id.rsplit("-", 1)[-1] for c in at.get("plotly_chart")}
        assert shown in keys and not at.exception, page


def test_the_capacity_lab_is_not_held():
    at = open_app("capacity_lab", query={"presenter": "1"})
    assert gate.REVEAL_TEXT not in captions(at) and gate.SHOW_TEXT not in captions(at)


def test_the_landscape_plane_holds_the_path_and_where_it_ends():
    """The plane through image space: the query's dot alone, and only the query's distance to
    the plane, until "Show the result"; then the path, where it ends and its steps."""
    import json

    from ui.player import frames

    def path_points(at) -> int:
        chart = next(c for c in at.get("plotly_chart") if c.proto.id.endswith("landscape_plane_chart"))
        fig = json.loads(chart.proto.spec)
        (path,) = [t for t in fig["data"] if t.get("name") == "query's trajectory (projected)"]
        return len(frames.values(path["x"]))  # a typed array in the JSON

    at = open_app("landscape", query={"presenter": "1", "view": "plane"})
    assert "Query off the plane" in metric_labels(at) and "End off the plane" not in metric_labels(at)
    assert "Steps taken" not in metric_labels(at) and path_points(at) == 1  # the query alone
    at.button(key="landscape_show_result").click().run()
    assert {"End off the plane", "Steps taken"} <= metric_labels(at) and not at.exception
    assert path_points(at) > 1
    plain = open_app("landscape", query={"view": "plane"})
    assert "End off the plane" in metric_labels(plain)

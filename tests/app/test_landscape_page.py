"""The energy-landscape page: every tab renders, the numbers it shows equal the core's for the
same settings, links seed the widgets, clicks move the query, bad table entries are explained."""
import numpy as np

from hopfield_core import (
    ClassicalHopfield,
    DenseAssociativeMemory,
    ModernHopfield,
    analysis,
)
from hopfield_core import binary_landscape as BL
from hopfield_core import landscape as L
from hopfield_core.images import corrupt, resize, to_bipolar, to_continuous
from hopfield_core.presets import preset_image
from tests.support.apptest import bar_under_the_plot, open_app, open_tab

TRIANGLE = np.array([[1.0, 0.0], [-0.5, 0.866], [-0.5, -0.866]])
WORLD, PLANE, SLICE, BINARY = range(4)
VIEWS = ["world", "plane", "slice", "states"]


def show(at, tab):
    """Open the section (only the open one runs) unless it is open already."""
    if at.button_group(key="landscape_view").value != VIEWS[tab]:
        open_tab(at, "landscape_view", VIEWS[tab])
    return at


def qp(at, key):
    v = at.query_params[key]
    return v[0] if isinstance(v, list) else v


def metrics(at, tab) -> dict:
    return {m.label: m.value for m in show(at, tab).metric}


def continuous_letters(letters, size=16):
    return np.stack([to_continuous(resize(preset_image("letters", c, 64), (size, size)), unit_norm=True)
                     for c in letters])


def world_expected(P, beta, q, max_steps=50):
    return ModernHopfield(P, beta=beta).run(np.asarray(q, dtype=float), max_steps=max_steps)


def assert_world_shows(at, traj, P):
    m = metrics(at, WORLD)
    assert m["Energy of the query"] == f"{traj.energies[0]:.6g}"
    assert m["Energy at the end"] == f"{traj.energies[-1]:.6g}"
    assert m["Steps taken"] == str(traj.steps)
    x, y = (0.0 if abs(v) < 0.005 else v for v in traj.final)
    assert m["Ends at"] == f"({x:.2f}, {y:.2f})"
    sentence = analysis.verdict(traj, P, binary=False).sentence([f"x{i + 1}" for i in range(len(P))])
    assert sentence in [i.value for i in show(at, WORLD).info]


# ---------------------------------------------------------------- every tab, defaults

def test_every_tab_renders_with_the_defaults():
    at = open_app("landscape")
    assert not at.exception
    assert len(at.latex) >= 3  # the energy, its constant and the descent law
    shown = {}
    for tab in (PLANE, SLICE, BINARY, WORLD):
        shown[tab] = {m.label for m in show(at, tab).metric}
        assert shown[tab], f"section {VIEWS[tab]} shows no numbers"
        assert qp(at, "view") == VIEWS[tab]
        assert not at.error
    for tab in (PLANE, SLICE, BINARY):
        assert "Energy of the query" not in shown[tab], "a closed section must cost nothing"
        assert not shown[tab] & shown[({PLANE, SLICE, BINARY} - {tab}).pop()] - {"Steps taken"}
    assert at.data_editor(key="landscape_points").value[["x", "y"]].values.tolist() == TRIANGLE.tolist()
    assert_world_shows(at, world_expected(TRIANGLE, 5.0, (0.3, 0.2)), TRIANGLE)
    assert qp(at, "beta") == "5" and qp(at, "pts") == "1,0;-0.5,0.866;-0.5,-0.866"


def test_try_this_prompt_on_the_triangle_holds():
    """The first 'try this': beta 1 gives the global fixed point, beta 3 retrieves x1."""
    at = open_app("landscape", query={"beta": "1"})
    assert_world_shows(at, world_expected(TRIANGLE, 1.0, (0.3, 0.2)), TRIANGLE)
    assert any("Global fixed point" in i.value for i in show(at, WORLD).info)
    at.select_slider(key="landscape_beta").set_value(3.0).run()
    assert_world_shows(at, world_expected(TRIANGLE, 3.0, (0.3, 0.2)), TRIANGLE)
    assert "Retrieved pattern x1." in [i.value for i in show(at, WORLD).info]


# ---------------------------------------------------------------- (a) the 2-D world

def test_url_seeds_the_world_and_widgets_change_it():
    at = open_app("landscape", query={"beta": "20", "qx": "-0.2", "qy": "0.4", "pts": "0,1;1,0;-1,-1"})
    P = np.array([[0.0, 1.0], [1.0, 0.0], [-1.0, -1.0]])
    assert at.select_slider(key="landscape_beta").value == 20.0
    assert at.number_input(key="landscape_qx").value == -0.2
    assert at.number_input(key="landscape_qy").value == 0.4
    assert at.data_editor(key="landscape_points").value[["x", "y"]].values.tolist() == P.tolist()
    assert_world_shows(at, world_expected(P, 20.0, (-0.2, 0.4)), P)
    at.number_input(key="landscape_qx").set_value(0.7).run()
    at.number_input(key="landscape_steps").set_value(3).run()
    assert_world_shows(at, world_expected(P, 20.0, (0.7, 0.4), max_steps=3), P)
    assert qp(at, "qx") == "0.7" and qp(at, "beta") == "20"


def test_off_scale_beta_in_the_link_snaps_to_the_slider():
    at = open_app("landscape", query={"beta": "8"})
    assert at.select_slider(key="landscape_beta").value == 10.0  # nearest on the log scale
    at = open_app("landscape", query={"beta": "lots"})
    assert at.select_slider(key="landscape_beta").value == 5.0
    assert not at.exception


def test_editing_the_table_moves_the_patterns():
    at = open_app("landscape")
    at.session_state["landscape_points"] = {"edited_rows": {}, "added_rows": [{"x": 0.5, "y": 0.5}],
                                     "deleted_rows": []}
    at.run()
    P = np.vstack([TRIANGLE, [[0.5, 0.5]]])
    assert_world_shows(at, world_expected(P, 5.0, (0.3, 0.2)), P)
    assert qp(at, "pts") == "1,0;-0.5,0.866;-0.5,-0.866;0.5,0.5"


def test_clicking_the_chart_moves_the_query_once():
    at = open_app("landscape")
    at.session_state["landscape_world_chart"] = {"selection": {
        "points": [{"x": -0.5, "y": 0.875, "curve_number": 1, "point_number": 3, "point_index": 3}],
        "point_indices": [3], "box": [], "lasso": []}}
    at.run()
    assert not at.exception
    assert at.number_input(key="landscape_qx").value == -0.5
    assert at.number_input(key="landscape_qy").value == 0.875
    assert_world_shows(at, world_expected(TRIANGLE, 5.0, (-0.5, 0.875)), TRIANGLE)
    assert "Retrieved pattern x2." in [i.value for i in show(at, WORLD).info]
    # the same pick is not applied again: typing a new query wins
    at.number_input(key="landscape_qx").set_value(0.9).run()
    assert at.number_input(key="landscape_qx").value == 0.9
    assert_world_shows(at, world_expected(TRIANGLE, 5.0, (0.9, 0.875)), TRIANGLE)


def edit(at, rows):
    at.session_state["landscape_points"] = rows
    at.run()
    assert not at.exception
    return [e.value for e in show(at, WORLD).error]


def test_bad_table_entries_give_a_clear_message():
    cases = [
        ({"edited_rows": {1: {"x": None}}, "added_rows": [], "deleted_rows": []},
         "Row 2, column x is empty or not a number"),
        ({"edited_rows": {0: {"y": "abc"}}, "added_rows": [], "deleted_rows": []},
         "Row 1, column y is empty or not a number"),
        ({"edited_rows": {}, "added_rows": [{"x": 0.1}], "deleted_rows": []},
         "Row 4, column y is empty or not a number"),
        ({"edited_rows": {}, "added_rows": [], "deleted_rows": [1, 2]},
         "Give at least 2 patterns"),
        ({"edited_rows": {}, "added_rows": [{"x": 0, "y": 0}] * 4, "deleted_rows": []},
         "Give at most 6 patterns"),
    ]
    for rows, message in cases:
        at = open_app("landscape")
        errors = edit(at, rows)
        assert any(message in e for e in errors), (message, errors)
        assert not show(at, WORLD).metric  # nothing drawn from a broken table
        assert metrics(at, SLICE)  # the other tabs still work
        assert metrics(at, PLANE)


def test_a_mangled_link_falls_back_to_the_triangle_with_a_warning():
    at = open_app("landscape", query={"pts": "1,abc;0,1", "qx": "nan"})
    assert not at.exception
    assert any("could not be read" in w.value and "column y" in w.value for w in show(at, WORLD).warning)
    assert at.data_editor(key="landscape_points").value[["x", "y"]].values.tolist() == TRIANGLE.tolist()
    assert at.number_input(key="landscape_qx").value == 0.3


# ---------------------------------------------------------------- (b) the plane

def plane_expected(X, plane, beta=10.0, max_steps=30, seed=0, amount=0.2, index=0):
    q = corrupt(X[index], (16, 16), "flip", amount, rng=seed, binary=False)
    traj = ModernHopfield(X, beta=beta).run(q, max_steps=max_steps)
    return traj, plane.distance(traj.states)


def test_plane_tab_shows_the_core_distances():
    at = open_app("landscape")
    X = continuous_letters("HOX")
    plane = L.pca_plane(X)
    traj, off = plane_expected(X, plane)
    m = metrics(at, PLANE)
    assert m["Query off the plane"] == f"{off[0]:.3f}"
    assert m["End off the plane"] == f"{off[-1]:.3f}"
    assert m["Steps taken"] == str(traj.steps)
    assert m["Variance the plane holds"] == f"{100 * sum(plane.explained):.0f} %"


def test_plane_through_three_patterns_from_the_link():
    at = open_app("landscape", query={"presets": "letters/A,letters/B,letters/C,letters/D",
                                      "view": "plane", "plane": "three", "p1": "3", "p2": "1", "p3": "0",
                                      "pbeta": "50", "q_seed": "4"})
    assert at.radio(key="landscape_plane").value == "three"
    assert [at.selectbox(key=f"landscape_p{k}").value for k in (1, 2, 3)] == [3, 1, 0]
    assert at.select_slider(key="landscape_pbeta").value == 50.0
    X = continuous_letters("ABCD")
    plane = L.plane_through(X[3], X[1], X[0])
    traj, off = plane_expected(X, plane, beta=50.0, seed=4)
    m = metrics(at, PLANE)
    assert m["Query off the plane"] == f"{off[0]:.3f}"
    assert m["End off the plane"] == f"{off[-1]:.3f}"
    assert qp(at, "plane") == "three" and qp(at, "p1") == "3"
    at.selectbox(key="landscape_p2").set_value(3).run()
    assert any("same point" in e.value for e in show(at, PLANE).error)
    assert not at.exception


# ---------------------------------------------------------------- (c) the slice

def test_slice_barriers_equal_the_core():
    at = open_app("landscape")
    X = continuous_letters("HOX")
    m = metrics(at, SLICE)
    for beta in (2.0, 5.0, 20.0):
        assert m[f"Barrier at β = {beta:g}"] == f"{L.barrier(X, 0, 1, beta).height:.4g}"
    # the try-this numbers: no barrier at 2, about 0.09 at 5, about 0.2 at 20
    assert m["Barrier at β = 2"] == "0"
    assert abs(float(m["Barrier at β = 5"]) - 0.09) < 0.01
    assert abs(float(m["Barrier at β = 20"]) - 0.2) < 0.01
    table = show(at, SLICE).dataframe[0].value
    assert table["climb from H"].tolist() == [L.barrier(X, 0, 1, b).from_a for b in (2.0, 5.0, 20.0)]


def test_slice_settings_from_the_link_and_the_widgets():
    at = open_app("landscape", query={"view": "slice", "sa": "2", "sb": "0", "betas": "1,50,0.5"})
    assert at.selectbox(key="landscape_sa").value == 2 and at.selectbox(key="landscape_sb").value == 0
    assert at.multiselect(key="landscape_betas").value == [0.5, 1.0, 50.0]
    X = continuous_letters("HOX")
    m = metrics(at, SLICE)
    assert set(m) == {"Barrier at β = 0.5", "Barrier at β = 1", "Barrier at β = 50"}
    assert m["Barrier at β = 50"] == f"{L.barrier(X, 2, 0, 50.0).height:.4g}"
    at.selectbox(key="landscape_sb").set_value(2).run()
    assert any("two different patterns" in w.value for w in show(at, SLICE).warning)
    at.selectbox(key="landscape_sb").set_value(1).run()
    at.multiselect(key="landscape_betas").set_value([]).run()
    assert any("at least one value" in i.value for i in show(at, SLICE).info)
    assert not at.exception


# ---------------------------------------------------------------- (d) every state

def binary_expected(kind, X):
    model = ClassicalHopfield(X) if kind == "classical" else DenseAssociativeMemory(X, degree=3)
    return BL.binary_landscape(model)


def assert_binary_shows(at, land, d):
    m = metrics(at, BINARY)
    assert m["States"] == f"{2 ** d:,}"
    assert m["Local minima"] == str(len(land.minima))
    c = land.counts()
    assert [m[k] for k in ("Stored", "Mirror", "Mixture", "Spurious")] == \
        [str(c[k]) for k in ("stored", "mirror", "mixture", "spurious")]
    table = show(at, BINARY).dataframe[0].value
    assert table["energy"].tolist() == land.energies[land.minima].tolist()
    assert table["class"].tolist() == list(land.kinds)


def test_binary_tab_counts_equal_the_core_and_follow_the_widgets():
    at = open_app("landscape", query={"view": "states", "bd": "16", "bn": "5", "bseed": "0"})
    assert at.slider(key="landscape_bn").value == 5
    X = BL.random_patterns(5, 16, 0)
    land = binary_expected("classical", X)
    assert_binary_shows(at, land, 16)
    # the try-this prompt: classical keeps 2 of 5 (2 mirrors, 2 mixtures); dense keeps all 5
    assert land.counts() == {"stored": 2, "mirror": 2, "mixture": 2, "spurious": 0}
    at.radio(key="landscape_bmodel").set_value("dense").run()
    dense = binary_expected("dense", X)
    assert_binary_shows(at, dense, 16)
    assert dense.counts()["stored"] == 5 and dense.counts()["mirror"] == 0
    at.slider(key="landscape_bd").set_value(9).run()
    at.number_input(key="landscape_bseed").set_value(7).run()
    assert_binary_shows(at, binary_expected("dense", BL.random_patterns(5, 9, 7)), 9)
    assert qp(at, "bd") == "9" and qp(at, "bseed") == "7" and qp(at, "bmodel") == "dense"
    at.radio(key="landscape_bx").set_value("hamming").run()
    assert "Hamming distance to x1" in show(at, BINARY).dataframe[0].value.columns
    assert not at.exception


def test_binary_tab_with_stored_images_shrunk_to_4x4():
    at = open_app("landscape", query={"view": "states", "bsrc": "store", "bn": "3", "bd": "16"})
    X = np.stack([to_bipolar(resize(preset_image("letters", c, 64), (4, 4))) for c in "HOX"])
    assert_binary_shows(at, binary_expected("classical", X), 16)
    at.slider(key="landscape_bd").set_value(12).run()
    assert any("set d = 16" in w.value for w in show(at, BINARY).warning)
    assert_binary_shows(at, binary_expected("classical", BL.random_patterns(3, 12, 0)), 12)


# ---------------------------------------------------------------- the store

def test_empty_and_small_stores_are_explained():
    at = open_app("landscape", query={"presets": "letters/A,letters/B"})
    assert any("at least 3 stored patterns" in i.value for i in show(at, PLANE).info)
    X = continuous_letters("AB")
    assert metrics(at, SLICE)["Barrier at β = 20"] == f"{L.barrier(X, 0, 1, 20.0).height:.4g}"
    at.button(key="clear_store").click().run()
    assert not at.exception
    for tab in (PLANE, SLICE):
        assert any("Store at least one pattern" in i.value for i in show(at, tab).info)
    assert metrics(at, WORLD) and metrics(at, BINARY)  # these need no stored images


def test_the_maps_colour_bars_lie_under_the_plot_and_the_rows_stack_when_narrow():
    import json

    at = open_app("landscape")
    world = next(c for c in at.get("plotly_chart") if c.proto.id.endswith("landscape_world_chart"))
    bar_under_the_plot(json.loads(world.proto.spec))
    keys = [b.proto.id for b in at.get("flex_container") if b.proto.id]
    # ui/shell/responsive_css.py stacks the columns of a row keyed *_wide_row on a narrow screen
    assert any(k.endswith("-landscape_world_wide_row") for k in keys)
    assert any(k.endswith("-controls_landscape_world_wide_row") for k in keys)
    show(at, PLANE)
    plane = next(c for c in at.get("plotly_chart") if c.proto.id.endswith("landscape_plane_chart"))
    bar_under_the_plot(json.loads(plane.proto.spec))
    assert any(b.proto.id.endswith("-landscape_plane_wide_row") for b in at.get("flex_container")
               if b.proto.id)
    assert not at.exception


def test_presenter_mode_shows_a_compact_world_above_the_lede():
    """On a 1024 x 768 projector the 2-D world fits the first screen (issue 30; measured in
    tests/e2e/test_devices_e2e.py): the lede goes under the map, and the map is lower and
    compact (its title and key beside it, no axis titles and no legend, the colour bar beside
    the plot), its plot 40 % of the 1024 px (measured in tests/e2e/test_projector_e2e.py). Without
    presenter mode the page keeps its layout."""
    import json

    from tests.support.apptest import in_order, where
    from ui.pages.landscape import explain
    from ui.pages.landscape import figures as figs

    normal, at = open_app("landscape"), open_app("landscape", query={"presenter": "1"})
    lede = explain.LEDE[:30]
    assert where(in_order(normal), lede) < where(in_order(normal), "landscape_world_chart")
    assert where(in_order(at), "landscape_world_chart") < where(in_order(at), lede)
    big, small = (json.loads(next(c for c in a.get("plotly_chart")
                                  if c.proto.id.endswith("landscape_world_chart")).proto.spec)
                  for a in (normal, at))
    assert small["layout"]["height"] < big["layout"]["height"]
    assert not small["layout"].get("title", {}).get("text")
    assert not small["layout"]["yaxis"].get("title", {}).get("text")
    assert small["layout"]["margin"]["t"] < big["layout"]["margin"]["t"] and not small["layout"]["showlegend"]
    assert figs.KEY in [c.value for c in at.caption]  # the legend's words beside the map
    bar = next(t for t in small["data"] if t["type"] == "contour")["colorbar"]
    assert bar.get("orientation", "v") == "v"
    assert "**E(ξ) at β = 5**" in [m.value for m in at.markdown]
    assert "**E(ξ) at β = 5**" not in [m.value for m in normal.markdown]

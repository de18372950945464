"""The learning page: its numbers and charts are the core's, the player walks the training
run, my points are added and removed, bad input gets a message, the images section learns
from the store, and the numbers its text states hold."""
import json

import numpy as np
import pytest

from hopfield_core import ebm, ebm_data
from tests.support import player
from tests.support.apptest import array, open_app, open_numbers, open_tab
from ui.pages.learning import cache, explain, figures, sections
from ui.pages.learning.settings import FRAMES

PAGE = "learning"


def plane(at, t=0) -> dict:
    """The plane the player shows at frame t."""
    return player.at_step(at, PAGE, t).figure("plane")


def trace(fig, name):
    return next(t for t in fig["data"] if t.get("name") == name)


def metric(at, panel, t=0):
    """(value, change line, tone) of the player's metric `panel` at frame t."""
    return player.at_step(at, PAGE, t).metric(panel)


def st_metric(at, label):
    return next(m.value for m in at.metric if m.label == label)


def grid_axis():
    return np.linspace(-4, 4, figures.GRID)


def on_grid(X, beta, f):
    g = grid_axis()
    U, V = np.meshgrid(g, g)
    return f(X, np.c_[U.ravel(), V.ravel()], beta)


def expected_run(name="clusters", n=300, seed=0, N=6, beta=2.0, lr=0.05, per_frame=5):
    """The same training, from the core alone."""
    train, held = ebm_data.split(ebm_data.dataset(name, n, seed), 0.25, seed)
    t = ebm.Trainer(ebm_data.initial_patterns(N, 2, seed), train, beta, lr, held_out=held)
    t.step(FRAMES * per_frame)
    return train, held, t


def test_the_default_view_is_the_cores_training_run():
    at = open_app(PAGE)
    assert not at.warning and player.players(at) == [PAGE]
    train, held, t = expected_run()
    assert player.steps(at, PAGE) == FRAMES
    assert metric(at, "nll_train")[0] == f"{t.history[0]:.4f}"
    assert metric(at, "nll_held")[0] == f"{t.held[0]:.4f}"
    fig = plane(at)
    np.testing.assert_allclose(array(trace(fig, "patterns x_μ")["x"]), t.path[0][:, 0])
    np.testing.assert_allclose(array(trace(fig, "training data")["y"]), train[:, 1])
    curves = player.at_step(at, PAGE, 0).figure("curves")
    np.testing.assert_allclose(array(trace(curves, "held out")["y"]), np.array(t.held)[::5])
    # the background is log p of the current patterns on the grid (single precision: the
    # player's payload sends it as 4-byte floats)
    contour = fig["data"][0]
    np.testing.assert_allclose(array(contour["x"]), grid_axis())
    np.testing.assert_allclose(array(contour["z"]).ravel(), on_grid(t.path[0], 2.0, ebm.log_density), rtol=1e-6)
    # the draws from the model at frame 0 are the core's (seeded by the page's seed and the frame)
    drawn, _ = ebm.sample(t.path[0], 2.0, 225, rng=[0, 0])
    np.testing.assert_allclose(array(trace(player.at_step(at, PAGE, 0).figure("samples"), "samples from p")["x"]),
                               drawn[:, 0], rtol=1e-6)


def test_the_player_walks_the_training():
    at = open_app(PAGE)
    _, _, t = expected_run()
    one = player.at_step(at, PAGE, 1)
    assert one.metric("nll_train")[0] == f"{t.history[5]:.4f}"
    np.testing.assert_allclose(array(trace(one.figure("plane"), "patterns x_μ")["y"]), t.path[5][:, 1])
    assert one.figure("plane")["layout"]["title"]["text"] == "After 5 Adam steps, β\u00a0=\u00a02"
    assert one.sentence() == (f"Step 1 of 60, after 5 Adam steps: training NLL {t.history[5]:.4f}, "
                              f"held-out NLL {t.held[5]:.4f}.")
    end = player.at_step(at, PAGE, "end")
    assert end.metric("nll_held")[0] == f"{t.held[-1]:.4f}"
    assert t.held[-1] < t.held[0] - 2  # what the player shows: held-out NLL falls
    assert end.metric("nll_train") == (f"{t.history[-1]:.4f}", f"{t.history[-1] - t.history[0]:.3f} since step 0",
                                       "good")
    # the curves' cursor is at the frame's Adam step
    assert end.figure("curves")["layout"]["shapes"][0]["x0"] == 300
    # at step 0 a grey line in the delta's place: the metric keeps its height when Play starts
    assert [metric(at, m)[1:] for m in ("nll_train", "nll_held")] == [("step 0: the start", "off")] * 2
    # the numbers of every step, for a table and a CSV
    table = open_numbers(at, "learning_numbers").dataframe[0].value
    np.testing.assert_array_equal(table["Adam steps"].to_numpy(), np.arange(FRAMES + 1) * 5)
    np.testing.assert_allclose(table["held-out NLL"].to_numpy(), np.array(t.held)[::5])


def test_the_energy_background_is_the_cores_energy():
    at = open_app(PAGE, query={"contour": "energy", "beta": "8"})
    z = array(plane(at)["data"][0]["z"])
    X = ebm_data.initial_patterns(6, 2, 0)
    np.testing.assert_allclose(z.ravel(), on_grid(X, 8.0, ebm.energy), rtol=1e-6)


def test_my_points_are_added_by_clicks_and_removed():
    """A click on the player's plane is a one-time event of the browser player (browser.picked),
    which its callback keeps for the script: set here as the callback sets it."""
    at = open_app(PAGE, query={"data": "mine", "pts": "1,1;2,2;-1,0.5", "N": "2"})
    assert not at.warning
    fig, p = plane(at), player.payload(at, PAGE)
    assert fig["layout"]["clickmode"] == "event+select"
    assert p["panels"]["plane"]["pick"] == figures.PICK  # the squares' trace: the one a click reads
    assert len(array(trace(fig, figures.PICK)["x"])) == figures.CLICK ** 2
    at.session_state[sections.PICKED] = {"x": -2.5, "y": 3.0, "id": "1"}
    at.run()
    assert "4 of at most 200 points" in " ".join(m.value for m in at.markdown)
    fig = plane(at)
    xs = np.r_[array(trace(fig, "training data")["x"]), array(trace(fig, "held out")["x"])]
    assert sorted(xs) == [-2.5, -1.0, 1.0, 2.0]  # the clicked point is data now
    assert player.payload(at, PAGE)["run"] != p["run"]  # a new run, sent to the browser
    at.run()  # the click was taken once
    assert "4 of at most 200 points" in " ".join(m.value for m in at.markdown)
    for bad in ({"x": "nan", "y": 1}, {"x": 9, "y": 0}, {"x": [1], "y": 0}, {"y": 1}, "1,1", None,
                {"x": "1e999", "y": 0}):
        at.session_state[sections.PICKED] = bad
        at.run()
        assert not at.exception
        assert "4 of at most 200 points" in " ".join(m.value for m in at.markdown), bad
    at.button(key="learning_undo").click().run()
    assert "3 of at most 200 points" in " ".join(m.value for m in at.markdown)
    at.button(key="learning_clear").click().run()
    assert "0 of at most 200 points" in " ".join(m.value for m in at.markdown)
    assert any("at least 2 data points" in w.value for w in at.warning)
    assert len(at.get("plotly_chart")) == 1 and not player.players(at)  # the empty plane, to click on
    # on the empty plane the chart's own selection adds the point
    at.session_state[sections.PLANE] = {"selection": {"points": [{"x": 0.5, "y": -3.0}]}}
    at.run()
    assert "1 of at most 200 points" in " ".join(m.value for m in at.markdown)


def test_a_picked_point_is_two_finite_numbers():
    assert sections.point_of({"x": 0.504, "y": "-3"}) == (0.5, -3.0)
    for bad in ({"x": "nan", "y": 1}, {"x": "inf", "y": 1}, {"x": None, "y": 1}, {"y": 1}, [], "x", 3,
                {"x": "1e999", "y": 1}, {"x": "<b>1</b>", "y": 1}):
        assert sections.point_of(bad) is None, bad


@pytest.mark.parametrize("query, message", [
    ({"data": "mine", "pts": "1,1"}, "needs at least 2 data points"),
    ({"data": "mine", "pts": "1,1;2,2;0,0"}, "More patterns (6) than training points (2)"),
    ({"data": "mine", "pts": "1,nan;2,2"}, "The link sets pts"),
    ({"data": "mine", "pts": "[x](http://evil.example)"}, "The link sets pts"),
    ({"beta": "nan", "n": "-5"}, "The link sets beta"),
])
def test_bad_input_gets_a_message_and_the_page_lives(query, message):
    at = open_app(PAGE, query=query)
    assert not at.exception
    text = " ".join(w.value for w in at.warning).replace("\\", "")
    assert message in text, text


def test_images_learn_from_the_store():
    from hopfield_core import images as im

    at = open_app(PAGE)
    open_tab(at, "learning_view", "images")
    assert not at.warning and len(at.get("plotly_chart")) == 1
    stored = at.session_state["store"]  # the default store: H, O, X, 16 x 16 grey
    data = np.stack([im.to_continuous(im.resize(s.image, (16, 16))) for s in stored])
    t = ebm.Trainer(ebm_data.initial_patterns(3, 256, 0, scale=0.1), data, 1.0, 0.05,
                    keep_path=False).step(100)
    assert st_metric(at, "NLL of the images, start") == f"{t.history[0]:.2f}"
    assert st_metric(at, "after 100 Adam steps") == f"{t.history[-1]:.2f}"
    assert st_metric(at, "NLL per pixel value") == f"{t.history[-1] / 256:.3f}"  # d = 16 x 16
    assert t.history[-1] < t.history[0]
    at.slider(key="learning_img_N").set_value(5).run()
    assert any("only 3 stored images" in w.value for w in at.warning)


def test_the_beta_numbers_the_page_states():
    """'the held-out NLL after 300 Adam steps is 3.44 at beta = 0.5, 3.17 at beta = 2 and 4.60
    at beta = 8' (two moons, 6 patterns, the page's other defaults)."""
    for beta, shown in ((0.5, "3.44"), (2.0, "3.17"), (8.0, "4.60")):
        run = cache.plane_run("moons", 300, 0, (), 6, beta, 0.05, 5)
        assert run.per_frame * FRAMES == 300
        assert f"{run.held_nll[-1]:.2f}" == shown
        assert f"{shown} at β = {beta:g}" in explain.PLANE


def test_each_tabs_explanation_describes_what_that_tab_shows():
    """The points tab draws a held-out (dashed) curve and samples; the images tab trains on
    every stored image and draws neither, and its explanation says so (issue 34, item 13). Both
    state the stationary point correctly, with the index k apart from the count n (item 21)."""
    def how_it_works(at):
        return " ".join(m.value for m in at.markdown if "**The gradient has two terms.**" in m.value)

    at = open_app(PAGE)
    plane = how_it_works(at)
    assert "the dashed curve scores the model" in plane and "samples in the last chart" in plane
    assert {"plane", "curves", "samples"} <= set(player.payload(at, PAGE)["panels"])
    open_tab(at, "learning_view", "images")
    images = how_it_works(at)
    curves = [c for c in at.get("plotly_chart") if "learning_img_nll" in c.proto.id]
    assert len(at.get("plotly_chart")) == 1 and len(curves) == 1
    fig = json.loads(curves[0].proto.spec)
    assert [t.get("name") for t in fig["data"]] == ["training data"]  # no held-out curve
    for absent in ("dashed", "held out:", "samples", "on the right", "A quarter of the points"):
        assert absent not in images, absent
    assert "none is held out, so the one curve is the NLL of the stored images" in images
    assert "*NLL per pixel value* divides the last one by the d values" in images
    for text in (plane, images):
        assert "scaled by $R_\\mu/\\pi_\\mu$" in text
        assert "equals the attention-weighted mean" not in text
    shown = [x.value for x in at.latex]
    assert any("\\sum_{k=1}^{n} r_\\mu(\\xi_k)" in f for f in shown)
    assert not any("\\sum_{n}" in f for f in shown)
    assert any("\\frac{R_\\mu}{\\pi_\\mu}\\, m_\\mu" in f for f in shown)


CENTRES = np.array([[-1.8, -1.8], [1.8, -1.8], [-1.8, 1.8], [1.8, 1.8]])  # ebm_data's clusters


def settled(N, seed=0):
    """After the page's Play (300 Adam steps, the other settings as the page opens): how many
    patterns sit within 0.3 of a cluster's centre, how many clusters they cover, each pattern's
    share R_mu of the training data and the patterns themselves."""
    train, _, t = expected_run(N=N, seed=seed)
    dist = np.linalg.norm(t.X[:, None] - CENTRES[None], axis=2)      # (N, 4)
    on = dist.min(axis=1) < 0.3
    scores = 2.0 * train @ t.X.T                                      # beta = 2
    r = np.exp(scores - scores.max(axis=1, keepdims=True))
    r /= r.sum(axis=1, keepdims=True)
    return int(on.sum()), len(set(dist.argmin(axis=1)[on])), r.mean(axis=0), t.X


def test_try_this_four_of_six_patterns_settle_on_the_clusters_and_two_starve():
    """'Four of them settle, one on each cluster; the other two win almost none of the data
    (their share R_mu falls to about 0) ... stall short of any cluster. Set N = 4: at seed 0
    each pattern takes a cluster of its own (not at every seed: at seed 2 one starves and
    another sits between two clusters). Then set N = 2: each pattern settles between two
    clusters' (not 'each settles on a cluster')."""
    assert "Four of them settle, one on each cluster" in explain.PROMPTS
    on, covered, R, X = settled(6)
    assert (on, covered) == (4, 4) and int((R < 0.01).sum()) == 2
    starved = R < 0.01
    assert np.all(np.linalg.norm(X[starved][:, None] - CENTRES[None], axis=2).min(axis=1) > 1)
    on, covered, R, _ = settled(4)
    assert (on, covered) == (4, 4) and R.min() > 0.15                # one each, at seed 0
    on, covered, R, X = settled(4, seed=2)
    assert on < 4 and int((R < 0.01).sum()) == 1                     # not at every seed
    assert any(between(x) and R[i] > 0.3 for i, x in enumerate(X))
    _, _, R, X = settled(2)                                           # N = 2
    assert all(between(x) for x in X) and np.all(R > 0.4)           # the two share the data


def between(x) -> bool:
    """x sits between two neighbouring clusters: as far from the one as from the other (to
    within 0.5), and away from both."""
    d = np.sort(np.linalg.norm(CENTRES - x, axis=1))
    first, second = CENTRES[np.argsort(np.linalg.norm(CENTRES - x, axis=1))[:2]]
    neighbours = np.isclose(np.linalg.norm(first - second), 3.6)  # a side of the square
    return bool(neighbours and d[0] > 1 and d[1] - d[0] < 0.5)


def test_the_planes_colour_bar_lies_under_the_plot_and_the_plane_sits_beside_the_curves():
    """The plane's colour bar is under the square plot, not beside it (beside it, it stood
    taller than the plot on a phone); the plane's row puts the numbers and the curves in a second
    column (the plane right under the player: on a 1024 x 768 projector's first screen), which the
    player's own layout stacks under it on a narrow screen (browser_player.css, issue 30)."""
    from tests.support.apptest import bar_under_the_plot

    at = open_app(PAGE)
    bar_under_the_plot(plane(at))
    assert plane(at)["layout"]["title"]["text"].startswith("After 0 Adam steps")
    assert [["plane", 3], [["nll_train", "nll_held", "curves", "samples"], 2]] in player.payload(at, PAGE)["layout"]


def test_presenter_mode_puts_the_plane_beside_the_player_and_the_lede_below():
    """On a 1024 x 768 projector the plane and its player share the first screen (issue 30;
    tests/e2e/test_devices_e2e.py measures it): the plane beside the player, compact (its
    title beside it, no axis titles, the colour bar beside the plot) and lower, the lede
    under it, and no legend: its words follow the title beside it (figures.KEY); the plot is 40 %
    of the 1024 px (measured in tests/e2e/test_projector_e2e.py). Without presenter mode the page
    keeps its layout."""
    from tests.support.apptest import in_order, where

    normal, at = open_app(PAGE), open_app(PAGE, query={"presenter": "1"})
    lede = explain.LEDE[:30]
    assert where(in_order(normal), lede) < where(in_order(normal), "learning_player")
    assert where(in_order(at), "learning_player") < where(in_order(at), lede)
    shown = player.payload(at, PAGE)["layout"][0]
    assert shown == [["plane", 3], [["describe", "controls", "nll_train", "nll_held"], 2]]
    assert player.payload(normal, PAGE)["layout"][0] == [["controls", 1]]
    big, small = plane(normal), plane(at)
    assert small["layout"]["height"] < big["layout"]["height"] and not small["layout"]["showlegend"]
    assert not small["layout"].get("title", {}).get("text")
    assert not small["layout"]["xaxis"].get("title", {}).get("text")
    bar = next(t for t in small["data"] if t["type"] == "contour")["colorbar"]
    assert bar.get("orientation", "v") == "v"
    assert player.at_step(at, PAGE, 0).sentence() == f"After 0 Adam steps, β\u00a0=\u00a02. {figures.KEY}"
    assert player.at_step(at, PAGE, 1).sentence() == f"After 5 Adam steps, β\u00a0=\u00a02. {figures.KEY}"


def test_the_players_payload_is_bounded():
    """docs/classroom.md: the learning page's run (61 frames of the log-density grid, the draws,
    the curves) is sent once: under 2 MB at the defaults, under 2.5 MB at the largest (1,000
    points, 16 patterns: 750 draws a frame, as many as the training points)."""
    for query, most in (({}, 2e6), ({"n": "1000", "N": "16"}, 2.5e6)):
        at = open_app(PAGE, query=query)
        assert not at.warning, [w.value for w in at.warning]
        assert 1e6 < player.sent_bytes(at, PAGE) < most, (query, player.sent_bytes(at, PAGE))

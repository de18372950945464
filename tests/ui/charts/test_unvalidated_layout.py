"""ui/charts/figures.make skips Plotly's layout validation (most of a figure's cost; the players
build one per step of a run) and writes the layout as validation would: every builder's figure is
the same JSON, byte for byte, as the validated figure, and a key Plotly does not know still fails
here (the validated build raises)."""
import json

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import pytest

import tests.support.figure_builders as fb
from ui.charts import figures, style


def validated(data, lay, width_px=figures.NARROW_PX):
    return go.Figure(data, style.finish(data, lay, width_px))


def spec(call) -> str:
    fb.RNG = np.random.default_rng(1)  # the same random data in both builds
    return pio.to_json(call(), validate=False, engine="json")


@pytest.mark.parametrize("name", sorted(fb.BUILDERS))
def test_each_builders_figure_is_the_validated_one(name, monkeypatch):
    call = fb.BUILDERS[name][0]
    fast = spec(call)
    monkeypatch.setattr(figures, "make", validated)
    assert json.loads(fast) == json.loads(spec(call))


def test_a_key_plotly_does_not_know_fails_the_validated_build():
    lay = figures.layout("t", 300, xaxis=dict(rnage=[0, 1]))  # a typo
    figures.make([go.Scatter(x=[0, 1], y=[0, 1])], lay)  # built unvalidated, it passes ...
    with pytest.raises(ValueError, match="rnage"):  # ... and the check above would fail on it
        validated([go.Scatter(x=[0, 1], y=[0, 1])], lay)

"""The side-by-side page's figures and verdicts, each built once per tuple of its actual
parameters and shared read-only by every session (ui.serving.shared_cache.shared). The runs
themselves are cached by ui.player.runs.run.

A comparison's `key` (ui.pages.side_by_side.sections.Comparison) names every value its four runs
depend on: both pattern sets by their fingerprints, both queries by their keys, the names,
the update mode, the degree, both betas, the step limit and the seed.
"""
from __future__ import annotations

from hopfield_core import analysis, compare
from ui.player import dynamics_view
from ui.serving import shared_cache
from ui.settings.modes import presenter

from . import figures as sbs_figures

PAGE = "side_by_side"


def verdicts(c) -> list:
    """How each network's run ended (hopfield_core.analysis.verdict), in the order of c.nets."""
    return shared_cache.shared((PAGE, "verdicts") + c.key, lambda: [
        analysis.verdict(n.traj, n.ps.X, binary=n.ps.binary) for n in c.nets])


def query_figure(c):
    """The query as the binary networks and as the modern network see it."""
    key = (PAGE, "query", c.ps.fingerprint, c.pc.fingerprint, c.qkey, c.qckey)
    return shared_cache.shared(key, lambda: sbs_figures.image_row(
        [dynamics_view.picture(c.q, c.ps), dynamics_view.picture(c.qc, c.pc)],
        ["binary networks", "modern network"], height=200))


# presenter mode: the row of finals a little lower (x 1.2 in ui.charts.charts' copy), so that the
# verdicts under it stay on a 1024 x 768 projector's first screen
PRESENTER_FINALS_PX = 205


def finals_figure(c):
    """Each network's last state, in a row."""
    height = PRESENTER_FINALS_PX if presenter() else 260
    return shared_cache.shared((PAGE, "finals", height) + c.key, lambda: sbs_figures.image_row(
        [dynamics_view.frames_of(n.traj, n.ps)[-1] for n in c.nets], c.titles, height=height))


def energies_figure(c, normalised: bool):
    """The four energy curves: one panel each on its own scale, or normalised on one axis."""
    curves = [n.traj.energies for n in c.nets]  # each (steps + 1,)
    if normalised:
        return shared_cache.shared((PAGE, "normalised") + c.key,
                                   lambda: sbs_figures.energies_normalised(
                                       [compare.normalised_energies(E) for E in curves], c.titles))
    return shared_cache.shared((PAGE, "energies") + c.key,
                        lambda: sbs_figures.energy_small_multiples(curves, c.titles))

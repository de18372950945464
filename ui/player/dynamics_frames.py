"""What the player of every dynamics page (classical, dense, modern) shows at each step of a
run, as the browser player's payload (ui/player/frames.py): the state picture and its alt text,
the energy curve, the overlap bars, the step's sentence, the energy metric with its change, and
the status, verdict and energy-rise boxes. Built once per run and look (presenter, projector) and
shared by every session (ui.serving.shared_cache). No Streamlit here."""
from __future__ import annotations

import numpy as np

from ui.charts import charts, describe, figures

from . import frames

CHART_HEIGHT = 300  # the charts' height (presenter mode's copies are 1.2 times taller)

# the box a verdict is shown in, by its kind (hopfield_core.analysis.verdict)
VERDICT_KIND = {"retrieved": "success", "mirror": "info", "metastable": "info", "global": "warning",
                "mixture": "warning", "spurious": "warning", "cycle": "error", "not converged": "warning"}

# A computed energy is a sum of dot products over d entries, a log-sum-exp and a few terms: it
# carries a rounding error of some ulps of the run's largest energies. Consecutive energies
# closer than ROUNDING_ULPS of them are equal as far as the floats can tell (near a fixed point
# the computed change is then noise: -2.2e-16 where the exact change is -1.1e-16, or +7e-19).
ROUNDING_ULPS = 64
NO_CHANGE = "no change"


def rounding_tolerance(energies: np.ndarray, dtype=np.float64) -> float:
    """Below this an energy change is rounding: ROUNDING_ULPS times the machine epsilon of the
    float type the energies were computed in (`dtype`; float64 for integer states), times the
    run's energy scale (its largest |E|)."""
    dtype = np.dtype(dtype)
    eps = np.finfo(dtype if dtype.kind == "f" else np.float64).eps
    return ROUNDING_ULPS * float(eps) * float(np.max(np.abs(energies)))


def energy_change(energies: np.ndarray, t: int, dtype=np.float64) -> str | None:
    """The energy metric's delta at step t: None at step 0 (no arrow), NO_CHANGE for a change
    within rounding_tolerance, else E(t) - E(t-1) to 3 significant digits."""
    if t == 0:
        return None
    change = float(energies[t]) - float(energies[t - 1])
    if abs(change) <= rounding_tolerance(energies, dtype):
        return NO_CHANGE
    return f"{change:.3g}"


def change_tone(change: str | None) -> str:
    """The metric's tone for a change (lower is better): a fall good, a rise bad, none grey."""
    if change is None or change == NO_CHANGE:
        return "off"
    return "good" if change.startswith("-") else "bad"


def status_notes(t: int, T: int, verdict_kind: str, verdict: str, rises, monotone: bool,
                 rise_reason: str, finding: str = "") -> list[dict]:
    """The boxes of the run's status at step t: before the end a status (what Play and Step do),
    at the end the verdict and the page's finding; and the energy's rises up to t, a bug where
    the rule forbids them."""
    if t < T:
        boxes = [frames.note("info", "hourglass_top",
                             f"Step {t} of {T}: keep stepping to see where the dynamics settle.",
                             playing=f"Playing the {T} steps: Pause stops at the step shown.")]
    else:
        boxes = [frames.note(VERDICT_KIND[verdict_kind], "flag", f"{verdict} {finding}".strip())]
    shown = [int(r) for r in rises if r <= t]
    if shown and monotone:
        boxes.append(frames.note("error", "bug_report", f"The energy rose at step {', '.join(map(str, shown))}. "
                                 "This rule must never raise it: please report this as a bug."))
    elif shown:
        boxes.append(frames.note("warning", "trending_up",
                                 f"The energy rose at step {', '.join(map(str, shown))}: {rise_reason}"))
    return boxes


def layout(page: str, presenter: bool) -> list[list]:
    """Presenter mode: the status, then the verdict when the run reaches its end, above the
    player beside the state and the energy, all on a 1024 x 768 projector's first screen, the
    overlaps below; else the player on top of the three figures, the notes under them."""
    if presenter:
        return [[["notes", 1]], [[frames.CONTROLS, 1], ["state", 1], ["energy", 1.3]], [["overlaps", 1]],
                [["describe", 1]], [["energy_metric", 1]]]
    return [[[frames.CONTROLS, 1]], [["state", 2], ["energy", 3], ["overlaps", 3]],
            [["describe", 1]], [["energy_metric", 1]], [["notes", 1]]]


def payload(page: str, run_key: str, traj, names: list[str], binary: bool, shape: tuple,
            analysed: tuple, monotone: bool, rise_reason: str = "", energy_label: str = "Energy",
            presenter: bool = False, projector: bool = False, finding: str = "") -> dict:
    """The browser player's payload of one run: `analysed` is (frames u8 (T+1, H, W, 3),
    overlaps (T+1, N), energy rises, verdict) as ui/player/player_cache.py computes them."""
    u8, m_all, rises, final = analysed
    T, E, h = traj.steps, traj.energies, CHART_HEIGHT
    steps = frames.frame_steps(T)
    look = lambda fig: charts.for_mode(fig, presenter, projector)  # noqa: E731
    changes = {t: energy_change(E, t, traj.states.dtype) for t in steps}
    verdict = final.sentence(names)
    panels = {
        "state": frames.picture(u8[steps], [describe.image_alt(t, T, m_all[t], names, binary, shape) for t in steps],
                                [f"State at step {t}" for t in steps], width_px=2 * h),
        "energy": frames.chart([look(figures.energy_curve(E, t, rises, title=energy_label, height=h))
                                for t in steps], whole_run=True),  # its axis spans the run's energies
        "overlaps": frames.chart([look(figures.overlap_bars(m_all[t], names, height=h)) for t in steps]),
        "describe": frames.live([describe.step_sentence(t, T, traj.states, E, m_all[t], names, binary,
                                                        changes[t], energy_label, verdict) for t in steps]),
        "energy_metric": frames.metric(energy_label, [f"{E[t]:.6g}" for t in steps],
                                       [c or "" for c in changes.values()],
                                       [change_tone(c) for c in changes.values()]),
        "notes": frames.notes([status_notes(t, T, final.kind, verdict, rises, monotone, rise_reason, finding)
                               for t in steps]),
    }
    p = frames.payload(page, run_key, T, panels, layout(page, presenter), steps=steps)
    p["mode"] = " ".join(m for m, on in (("presenter", presenter), ("projector", projector)) if on)
    return p

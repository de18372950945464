"""The question kinds of the landscape, learning and attention-family pages in a lesson (AppTest):
the page holds back what would answer (the path past the query, the run's frames, the curves
over the whole run, the numbers), offers the question from its own run, and after the lock the
comparison's numbers are those the page then shows."""
import re

import numpy as np

from hopfield_core import questions
from tests.support import player
from tests.support.apptest import open_app
from ui.lessons import lesson_store
from ui.pages import lesson_steps
from ui.settings import gate


def one_step(page: str, view: dict, question: str) -> str:
    assert not lesson_steps.problems(page, view, question)
    body = {"format": "hopfield-lesson", "version": 1, "title": "One question",
            "steps": [{"page": page, "view": view, "title": "Predict", "question": question}]}
    return lesson_store.create(body, "One question")[0]


def lock(at, option: str):
    at.radio(key="lesson_option").set_value(option)
    at.button(key="lesson_lock").click().run()
    assert not at.exception, at.exception
    return at


def captions(at) -> list[str]:
    return [c.value for c in at.caption]


def test_the_landscape_world_holds_the_path_and_the_end_until_the_lock():
    at = open_app(query={"lesson": one_step("landscape", {"view": "world", "beta": "5"}, "fixed_point")})
    assert gate.CLOSED_TEXT in captions(at)
    labels = [m.label for m in at.metric]
    assert labels == ["Energy of the query"]  # not "Energy at the end", not "Ends at"
    options = [o.replace("\\", "") for o in at.radio(key="lesson_option").options]
    assert options == [*questions.FIXED_POINT_LABELS.values(), questions.NOT_SURE_LABEL]
    lock(at, "single")
    ends = {m.label: m.value for m in at.metric}
    assert {"Energy at the end", "Ends at", "Steps taken"} <= set(ends)
    said = [s.value.replace("\\", "") for s in at.success]
    assert any(s.startswith("Your prediction is locked: single") for s in said)


def test_a_question_outside_the_view_that_asks_it_is_refused():
    problems = lesson_steps.problems("landscape", {"view": "plane"}, "destination")
    assert problems == ["the page Energy landscape asks its questions in its view world, not in `plane`: "
                        "set the step's view to world."]


def test_learning_holds_the_training_until_the_lock_and_answers_from_the_run():
    at = open_app(query={"lesson": one_step("learning", {"view": "plane", "n": "100", "N": "3"}, "held_out_falls")})
    held = player.payload(at, "learning")
    assert held["shown"] == 0 and "curves" not in held["panels"]  # the NLL curves span the whole run
    assert gate.CLOSED_TEXT in captions(at)
    lock(at, "lower")
    full = player.payload(at, "learning")
    assert full["shown"] == full["last"] and "curves" in full["panels"]
    first = player.at_step(at, "learning", 0).metric("nll_held")[0]
    last = player.at_step(at, "learning", "end").metric("nll_held")[0]
    assert first not in str(held["panels"]["nll_held"]["value"][1:])
    said = full["answer"]
    assert f"The held-out NLL went from {first} to {last} (" in said
    assert said.endswith("That is right.") == (float(last) < float(first) * (0.99 if float(first) > 0 else 1.01))


def test_the_cloud_holds_its_layers_until_the_lock_and_answers_from_them():
    at = open_app(query={"lesson": one_step("attention_family", {"view": "cloud"}, "spread")})
    held = player.payload(at, "attention_family")
    assert held["shown"] == 0 and not {"spread", "sv"} & set(held["panels"])
    lock(at, "without")
    end = player.at_step(at, "attention_family", "end")
    plain, normed = end.metric("spread_plain")[0], end.metric("spread_normed")[0]
    said = player.payload(at, "attention_family")["answer"]
    assert re.search(rf"the spread is {re.escape(plain)} without layer norm and {re.escape(normed)} with it", said)
    assert said.endswith("That is right.") == (float(plain) > float(normed) * 1.01)


def test_the_classical_energy_curve_is_held_too():
    body_view = {"presets": "letters/H,letters/O,letters/X"}
    at = open_app(query={"lesson": one_step("classical", body_view, "energy_rises")})
    held = player.payload(at, "classical")
    assert "energy" not in held["panels"] and "'energy'" not in str(held["layout"])  # its axis spans the run
    lock(at, "no")
    assert "energy" in player.payload(at, "classical")["panels"]


def test_side_by_side_holds_where_each_network_ends_until_the_lock():
    view = {"presets": "letters/A,letters/B,letters/C,letters/D,letters/E,letters/F,letters/G,letters/H",
            "q_index": "7", "q_amount": "0.1"}
    at = open_app(query={"lesson": one_step("side_by_side", view, "retrievers")})
    assert gate.CLOSED_TEXT in captions(at)
    assert "Summary" not in [h.value for h in at.header] and not at.get("plotly_chart")[1:]  # the query alone
    lock(at, "2")
    table = at.dataframe[0].value if at.dataframe else None
    assert table is not None and list(table["Network"])[:1] == ["Classical (1982)"]
    hits = [n for n, r in zip(table["Network"], table["Retrieved?"]) if r == "yes"]
    said = [s.value.replace("\\", "") for s in at.success]
    assert any(s.startswith("Your prediction is locked: 2 of the 4.") for s in said), said
    kept = at.session_state["_lesson"].answers[0]
    assert kept.outcome.startswith(f"You predicted 2 of the 4. {len(hits)} of the 4 networks retrieved pattern H: "
                                   + (", ".join(hits) if hits else "none of them"))
    assert kept.correct == (len(hits) == 2)


def test_a_heads_kind_waits_for_the_lock_and_is_read_from_the_settled_weights():
    view = {"model": "minilm", "view": "head", "layer": "1", "head": "2", "token": "3"}
    at = open_app(query={"lesson": one_step("transformer_heads", view, "head_kind")})
    held = player.payload(at, "transformer_heads")
    assert held["shown"] == 0 and "energy" not in held["panels"]
    assert gate.CLOSED_TEXT in captions(at) and "transformer_heads_map" not in [
        c.proto.id.rsplit("-", 1)[-1] for c in at.get("plotly_chart")]
    lock(at, "metastable")
    full = player.payload(at, "transformer_heads")
    end = player.at_step(at, "transformer_heads", "end")
    bars = end.figure("bars")["data"]
    from tests.support.apptest import array
    weights = sorted((float(w) for tr in bars for w in array(tr["y"])), reverse=True)
    k = next(i + 1 for i in range(len(weights)) if sum(weights[: i + 1]) >= 0.9 * sum(weights))
    assert f"k90 = {k} of {len(weights)} tokens" in full["answer"]


def test_the_attention_pages_iteration_waits_for_the_lock():
    view = {"presets": "letters/H,letters/O,letters/X", "T": "10"}
    at = open_app(query={"lesson": one_step("attention", view, "destination")})
    assert "3. Iterate it and watch it converge" in [h.value for h in at.header]
    assert gate.CLOSED_TEXT in captions(at)
    assert "Energy at T" not in [m.label for m in at.metric]
    lock(at, "pattern:0")
    assert "Energy at T" in [m.label for m in at.metric]
    flag = [x.value for x in [*at.success, *at.info, *at.warning] if "flag" in str(x.proto)]
    kept = at.session_state["_lesson"].answers[0]
    assert kept.outcome.startswith("You predicted pattern H. ") and flag


def test_the_capacity_lab_draws_no_point_of_its_curves_before_the_lock():
    import json

    from tests.support.apptest import array, chart_ids

    view = {"view": "curves", "d": "20", "n_lo": "1", "n_hi": "12", "points": "6", "trials": "6",
            "v_async": "0"}
    at = open_app(query={"lesson": one_step("capacity_lab", view, "capacity")})
    assert "capacity_lab_success" not in chart_ids(at) and gate.CLOSED_TEXT in captions(at)
    options = [o.replace("\\", "") for o in at.radio(key="lesson_option").options]
    assert options[0] == "not even at the smallest load measured" and options[-1] == questions.NOT_SURE_LABEL
    lock(at, "0.10")
    chart = next(c for c in at.get("plotly_chart") if c.proto.id.endswith("capacity_lab_success"))
    trace = next(t for t in json.loads(chart.proto.spec)["data"] if t.get("name", "").startswith("Classical, sync"))
    loads, success = array(trace["x"]), array(trace["y"])
    ok = success >= 0.9 * (100 if success.max() > 1 else 1)
    held = len(ok) if ok.all() else int(np.argmin(ok))
    kept = at.session_state["_lesson"].answers[0]
    assert 0 < held < len(ok)  # this view's curve holds, then fails
    assert f"retrieves up to N/d = {loads[held - 1]:.3f} and fails from N/d = {loads[held]:.3f}" in kept.outcome
    assert kept.outcome.startswith("You predicted from 0.10 d to below 0.15 d. Classical, sync ")

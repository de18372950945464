"""Play keeps the last frame's chart, unchanged, under the new one (ui/player/live_charts.py), so the
browser always has a drawn chart to show; at rest one chart a place."""


from tests.support.apptest import chart_ids, open_app
from ui.player import live_charts
from ui.player.live_charts import slot_key

KEYS = ("learning_plane_view", "learning_nll", "learning_samples")  # the learning page's chart_ids


def tops(at) -> dict[str, str]:
    """Chart key -> the element key its stack's style puts on top."""
    out = {}
    for h in at.get("html"):
        for key in KEYS:
            if f".st-key-{live_charts.PREFIX}{key} " in h.proto.body:
                slot = 0 if f"> .st-key-{key} {{ z-index: 1; }}" in h.proto.body else 1
                assert f"> .st-key-{slot_key(key, slot)} {{ z-index: 1; }}" in h.proto.body
                out[key] = slot_key(key, slot)
    return out


def test_play_keeps_the_last_frame_under_the_new_one(monkeypatch):
    at = open_app("learning")
    rest = chart_ids(at)
    assert set(rest) == set(KEYS) and tops(at) == {k: k for k in KEYS}  # at rest: one each
    monkeypatch.setattr(live_charts, "BURST", 0.0)  # every frame a new one, whatever the pace
    at.button(key="learning_play").click().run()
    assert at.session_state["learning_playing"] and at.session_state["learning_t"] == 1
    first = chart_ids(at)
    assert len(first) == 6
    for key in KEYS:  # the frame at rest, the very same element, under the new frame
        assert first[key] == rest[key]
        assert first[slot_key(key, 1)][0] != rest[key][0]
    assert tops(at) == {k: slot_key(k, 1) for k in KEYS}
    assert first[slot_key("learning_plane_view", 1)][1].startswith("After 5 Adam steps")
    at.run()  # the next tick: frame 1 goes under, frame 2 on top
    second = chart_ids(at)
    assert tops(at) == {k: k for k in KEYS}
    for key in KEYS:
        assert second[slot_key(key, 1)] == first[slot_key(key, 1)]
        assert second[key][0] not in (first[key][0], first[slot_key(key, 1)][0])
    assert second["learning_plane_view"][1].startswith("After 10 Adam steps")
    at.button(key="learning_pause").click().run()  # at rest again: one chart each, in place
    paused = chart_ids(at)
    assert len(paused) == 3 and all(paused[k] == second[k] for k in KEYS)


def test_a_burst_of_frames_replaces_the_new_chart_and_keeps_the_one_under(monkeypatch):
    """Timer reruns queued on a busy server come back to back: the browser may not have drawn
    the frame before, so only the chart on top is replaced."""
    at = open_app("learning")
    rest = chart_ids(at)
    monkeypatch.setattr(live_charts, "BURST", 0.0)
    at.button(key="learning_play").click().run()
    monkeypatch.setattr(live_charts, "BURST", 1e9)  # every frame hard on the heels of the last
    at.run()
    burst = chart_ids(at)
    for key in KEYS:
        assert burst[key] == rest[key]  # still under, untouched
        assert burst[slot_key(key, 1)][0] != rest[key][0]
    assert burst["learning_plane_view"][1] == rest["learning_plane_view"][1]  # under: step 0
    assert burst[slot_key("learning_plane_view", 1)][1].startswith("After 10 Adam steps")


def test_a_pick_on_either_place_of_my_plane_adds_the_point(monkeypatch):
    """Clicks add my points on the plane; while playing the plane has two places (the click
    lands on the one on top, or on the one under while the new one is still being drawn)."""
    at = open_app("learning", query={"data": "mine", "pts": "1,1;2,2;-1,0.5", "N": "2"})
    monkeypatch.setattr(live_charts, "BURST", 0.0)
    at.button(key="learning_play").click().run()
    assert "learning_plane_chart_b" in chart_ids(at)  # the new frame, on top of the first
    at.session_state["learning_plane_chart_b"] = {"selection": {"points": [{"x": -2.5, "y": 3.0}]}}
    at.run()
    assert "4 of at most 200 points" in " ".join(m.value for m in at.markdown)
    at.session_state["learning_plane_chart"] = {"selection": {"points": [{"x": 0.5, "y": -3.0}]}}
    at.run()
    assert "5 of at most 200 points" in " ".join(m.value for m in at.markdown)

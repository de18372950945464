"""The model card states what its numbers say: the fixed-point verdict and the dynamics."""
import json

from hopfield_core.et import card, checkpoint
from tests.support.et_models import shipped_info, with_eval


def test_the_card_calls_the_completion_settled_only_within_five_percent():
    info = shipped_info()
    held = card.card_text(with_eval(info, 0.010, 0.0104, 0.0105), "0" * 64, "cmd")
    assert "+4.0 %" in held and "+5.0 %" in held and "is where the dynamics settle" in held
    drifts = card.card_text(with_eval(info, 0.010, 0.0104, 0.0106), "0" * 64, "cmd")
    assert "grows by up to 6 %" in drifts and "a transient" in drifts
    assert "is where the dynamics settle" not in drifts


def test_the_card_names_the_dynamics_the_config_runs():
    info = shipped_info()
    paper = {**info["config"], "project": False, "clamp_visible": False}
    settling = {**info["config"], "project": True, "clamp_visible": True}
    old = {k: v for k, v in info["config"].items() if k not in ("project", "clamp_visible")}
    assert "the paper's, x <- x - alpha dE/dg for every token" in card.card_text({**info, "config": paper}, "0" * 64, "c")
    assert "the paper's, x <- x - alpha dE/dg for every token" in card.card_text({**info, "config": old}, "0" * 64, "c")
    text = card.card_text({**info, "config": settling}, "0" * 64, "c")
    assert "not the paper's" in text and "only the hidden patches' tokens move" in text


def test_the_card_says_when_the_attention_energy_sees_positions():
    info = shipped_info()
    placed = card.card_text({**info, "config": {**info["config"], "energy_positions": True}}, "0" * 64, "c")
    plain = card.card_text({**info, "config": {**info["config"], "energy_positions": False}}, "0" * 64, "c")
    assert "g_B + p_B" in placed and "g_B + p_B" not in plain


def test_the_cards_command_trains_the_same_recipe_again():
    """Every option of the run is in the card's command (the first settling model's card lost
    --energy-penalty and --held-out-per-photo): parsing it back gives the same arguments."""
    from hopfield_core.et.train_options import argv_for_card, parse_args

    run = ("--batches 3000 --time-limit 50 --threads 2 --dynamics settling --energy-positions "
           "--alpha 0.05 --far-max 40 --far-weight 2.0 --energy-penalty 1.0 --held-out-per-photo 12 "
           "--steps-max 12 --settle-weight 0.5 --dim 64 --start harmonic --readout change --path-weight 1.0 --init assets/et --out /tmp/elsewhere").split()
    args = parse_args(run)
    command = argv_for_card(args)
    assert command.startswith("python -m hopfield_core.et.train ") and "/tmp/elsewhere" not in command
    again = parse_args(command.split()[3:])
    assert {k: v for k, v in vars(again).items() if k != "out"} == {k: v for k, v in vars(args).items() if k != "out"}
    assert "--batch-size 64 --lr 0.002" in argv_for_card(parse_args([]))  # the main ones always


def test_a_still_pixel_reads_as_a_number_not_zero():
    info = shipped_info()
    text = card.card_text({**info, "eval": {**info["eval"], "last_step_max_pixel_change": 3.98e-5}}, "0" * 64, "c")
    assert "by more than 4.0e-05" in text


def test_the_card_says_where_the_hidden_tokens_start_and_scores_that_start():
    info = shipped_info()
    ev = {**info["eval"], "harmonic_mse": 0.0125}
    harmonic = card.card_text({**info, "eval": ev, "config": {**info["config"], "start": "harmonic", "readout": "tokens"}}, "0" * 64, "c")
    assert "starts as its harmonic fill" in harmonic and "In the paper a hidden patch starts as the mask token alone" in harmonic
    assert "| harmonic fill, where the ET starts (each hidden pixel the mean of its neighbours) | 0.01250 |" in harmonic
    assert "down by 20.0 %" in harmonic  # 0.010 against its start's 0.0125
    paper = card.card_text({**info, "eval": ev, "config": {**info["config"], "start": "mask_token", "readout": "tokens"}}, "0" * 64, "c")
    assert "learned mask token plus its position, as in the paper" in paper and "where the ET starts" not in paper
    assert "| harmonic fill (each hidden pixel the mean of its neighbours) | 0.01250 |" in paper
    assert "Readout (this project's)" not in harmonic
    read = card.card_text({**info, "eval": ev, "config": {**info["config"], "start": "harmonic", "readout": "change"}}, "0" * 64, "c")
    assert "decoder(x_t) - decoder(x_0)" in read and "step 0 is the harmonic fill itself" in read
    old = card.card_text({**info, "config": {k: v for k, v in info["config"].items() if k not in ("start", "readout")}}, "0" * 64, "c")
    assert "as in the paper" in old


def test_the_card_names_the_loss_along_the_path():
    info = shipped_info()
    on = card.card_text({**info, "training": {**info["training"], "path_weight": 1.0}}, "0" * 64, "c")
    off = card.card_text({**info, "training": {**info["training"], "path_weight": 0.0}}, "0" * 64, "c")
    assert "Plus 1.0 x the hidden patches' error after every step 1 to T" in on
    assert "the hidden patches' error after every step" not in off  # (the notes may still name the loss)


def test_a_change_too_small_for_one_decimal_reads_as_a_bound_not_zero():
    info = shipped_info()
    still = card.card_text(with_eval(info, 0.010, 0.0099999, 0.0100004), "0" * 64, "c")
    assert "changes its error by less than 0.01 %, and 100 steps by less than 0.01 %" in still
    assert "-0.0 %" not in still and "+0.0 %" not in still
    small = card.card_text(with_eval(info, 0.010, 0.009997, 0.0100004), "0" * 64, "c")
    assert "by -0.03 %" in small


def test_every_shipped_card_is_what_its_config_says():
    """A card edited by hand, or a config.json changed without `python -m hopfield_core.et.card
    <folder>`, would tell readers something the numbers do not."""
    for folder in checkpoint.MODELS.values():
        info = json.loads((folder / checkpoint.CONFIG).read_text())
        assert info["sha256"] == checkpoint.sha256_file(folder / checkpoint.WEIGHTS)
        written = (folder / checkpoint.CARD).read_text()
        assert written == card.card_text(info, info["sha256"], info["command"]), folder.name

"""MODEL_CARD.md for the shipped Energy Transformer, written by the training command from the
numbers it measured (config.json holds them all; `python -m hopfield_core.et.card` rewrites
the card from it)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from .standing import biharmonic_words

CURVE_STEPS = (0, 1, 2, 5, 10, 20, 40, 60, 80, 100)
BENCH_SHOWN = ("crops", "et_mse", "start_mse", "mean_fill_mse", "biharmonic_mse", "harmonic_mse")


def _dynamics(cfg: dict) -> str:
    """Where the hidden tokens start and how the tokens move, as the config says (configs
    before these options: the paper's)."""
    moves = _start(cfg) + " " + _moves(cfg)
    if cfg.get("energy_positions"):
        moves += (" The attention energy's keys and queries are W_K (g_B + p_B) and W_Q (g_C + p_C), "
                  "p a learned table per position that is not part of the moving state (this "
                  "project's, not the paper's): a hidden token cannot lose where it is as it moves.")
    return moves


def _start(cfg: dict) -> str:
    if cfg.get("start") == "harmonic":
        return ("Start (this project's, not the paper's): a hidden patch's token starts as its "
                "harmonic fill (each hidden pixel the mean of its 2 to 4 neighbours, the visible "
                "pixels fixed: membrane inpainting, `hopfield_core/et/fill.py`), encoded like a "
                "visible patch, plus the learned mask token and its position; the energy descent "
                "then refines that smooth guess. In the paper a hidden patch starts as the mask "
                "token alone." + _readout(cfg))
    return "Start: a hidden patch's token is the learned mask token plus its position, as in the paper."


def _readout(cfg: dict) -> str:
    if cfg.get("readout") != "change":
        return ""
    return (" Readout (this project's): a hidden patch reads as its harmonic fill plus "
            "decoder(x_t) - decoder(x_0), the decoded change of its token since the start, so "
            "step 0 is the harmonic fill itself and each step adds what the descent changed.")


def _moves(cfg: dict) -> str:
    if cfg.get("project") and cfg.get("clamp_visible"):
        return ("Dynamics (this project's, not the paper's): only the hidden patches' tokens move, "
                "given the visible ones as encoded, and each steps along dE/dg less its parts along "
                "(1, ..., 1) and along x - mean x, which the layer norm ignores. The paper's update "
                "also moves each token along itself, so its spread grows with the steps and g slows "
                "as 1 / spread: the paper's model is still creeping long after T instead of "
                "settling. Here the energy "
                "still obeys dE/dt = -(dE/dg)^T M s <= 0, and the state can come to rest (the results "
                "below say whether it does by T).")
    if cfg.get("project") or cfg.get("clamp_visible"):
        which = "each step drops dE/dg's parts along (1, ..., 1) and x - mean x" if cfg.get("project") \
            else "only the hidden patches' tokens move"
        return f"Dynamics: the paper's, except that {which}."
    return "Dynamics: the paper's, x <- x - alpha dE/dg for every token."


def _recipe(tr: dict) -> list[str]:
    lines = [
        f"- {tr['batches']} batches of {tr['batch_size']} images x {tr['processes']} process(es); "
        f"AdamW (lr {tr['lr']}, weight decay {tr['weight_decay']}), {tr['warmup']} warm-up steps then "
        "cosine decay (over the batches, or over the time limit when that comes first), gradient "
        "clipping 1.0.",
        f"- Loss: mean squared error on the hidden patches (25 % to 75 % of the patches hidden per "
        f"batch) after the T = {tr['steps']} steps, plus {tr['energy_penalty']} x the mean energy rise "
        "between steps.",
    ]
    if tr.get("init"):
        lines.insert(0, f"- Started from the weights in `{tr['init']}` (same sizes), then trained as below.")
    if tr.get("shape_masks"):
        lines.append(f"- Mask shapes: in {100 * tr['shape_masks']:.0f} % of the batches the hidden "
                     "patches are a rectangle, half the image or a few small rectangles instead "
                     "of scattered patches.")
    if tr.get("path_weight"):
        lines.append(f"- Plus {tr['path_weight']} x the hidden patches' error after every step 1 to "
                     "T (their mean), so that the error falls along the descent, not only at T.")
    if tr.get("steps_max"):
        lines.append(f"- Each batch runs a random number of steps between T and {tr['steps_max']}, all "
                     "with gradient, so the answer must hold from T on.")
    if tr.get("settle_weight"):
        lines.append(f"- Settling: plus {tr['settle_weight']} x the last step's relative move of the "
                     "normalised tokens, |g_T - g_(T-1)|^2 / |g_T|^2, so that T steps end where the "
                     "dynamics come to rest.")
    if tr.get("far_max"):
        lines.append(f"- Fixed point: for {tr['far_batch']} images of each batch the dynamics run on, "
                     f"a random 1 to {tr['far_max']} more steps without gradient and "
                     f"{tr['far_grad_steps']} with it, and the hidden patches are scored there too "
                     f"(weight {tr['far_weight']}), and the energy rises between those last steps "
                     "are penalised too: the weights learn to keep the answer where the descent "
                     "settles.")
    return lines


def _procedural(tr: dict) -> str:
    """The generated share of the training images, as the record says (older records: 30 %,
    the simple families only)."""
    simple = "smooth noise, gradients, stripes, shapes, edges"
    share, nat, occ = tr.get("procedural", 0.3), tr.get("natural", 0.0), tr.get("occlude", 0.0)
    text = f"plus {100 * share:.0f} % procedural images"
    if nat:
        text += (f": {100 * nat:.0f} % of them natural-statistics images generated in code "
                 "(dead-leaves images: flat shapes occluding one another, sizes by a power law; "
                 f"1/f noise textures; `hopfield_core/et/natural.py`), the rest {simple}")
    else:
        text += f" ({simple})"
    if occ:
        text += f"; {100 * occ:.0f} % of the photo crops have flat shapes painted over them"
    return text + "."


def _descent_share(ev: dict) -> str:
    """What the descent does to its step-0 picture, where the record measured it (records
    before evaluation.descent_share: nothing)."""
    if "images_descent_at_least_10pct" not in ev:
        return ""
    return (f" From its step-0 picture to step T the descent lowers the error by "
            f"{100 * ev['descent_share']:.1f} % on average, and by at least 10 % on "
            f"{100 * ev['images_descent_at_least_10pct']:.0f} % of the held-out images.")


def _bench(bench: dict | None) -> str:
    """The benchmark's crops beside the card's (config.json "eval_bench", written by
    `python -m hopfield_core.et.rescore`; older records: nothing)."""
    if not bench or not all(isinstance(bench.get(k), (int, float)) for k in BENCH_SHOWN) or bench["mean_fill_mse"] <= 0:
        return ""
    mf = bench["mean_fill_mse"]
    return (f" On the {bench['crops']} crops `benchmarks/bench_et.py` scores, as multiples of mean fill: "
            f"the ET {bench['et_mse'] / mf:.3f} x, where its descent starts {bench['start_mse'] / mf:.3f} x, "
            f"biharmonic inpainting {bench['biharmonic_mse'] / mf:.3f} x, the harmonic fill "
            f"{bench['harmonic_mse'] / mf:.3f} x.")


def relative_change(ratio: float) -> str:
    """A relative change of the error as words: '+2.1 %', '-0.04 %', 'less than 0.01 %'."""
    pct = 100 * (ratio - 1)
    if abs(pct) < 0.005:
        return "less than 0.01 %"
    return f"{pct:+.2f} %" if abs(pct) < 0.05 else f"{pct:+.1f} %"


def _settled(ev: dict) -> str:
    """The fixed-point verdict, from the numbers: within 5 % at 4 T and at 100 steps."""
    worst = max(ev["et_mse_4T"], ev["et_mse_100"]) / ev["et_mse"]
    if worst <= 1.05:
        return "within 5 %, so the completion is where the dynamics settle."
    return (f"the error grows by up to {100 * (worst - 1):.0f} % past T, so the completion at T is a "
            "transient, not where the dynamics settle.")


def card_text(info: dict, sha256: str, command: str) -> str:
    cfg, tr, ev = info["config"], info["training"], info["eval"]
    T, size, p = cfg["steps"], cfg["image_size"], cfg["patch_size"]
    mf, bh = ev["mean_fill_mse"], ev["biharmonic_mse"]
    curve = ev.get("mse_by_step", [])
    lines = [
        f"# Energy Transformer: masked-image completion ({size} x {size} RGB, {p} x {p} patches)",
        "",
        "A small Energy Transformer (Hoover et al., NeurIPS 2023) trained by this project to fill "
        f"in hidden patches of colour images: {(size // p) ** 2} tokens of dimension {cfg['dim']}, "
        f"{cfg['heads']} heads of size {cfg['head_dim']}, {cfg['memories']} Hopfield memories, "
        f"T = {T} steps of size alpha = {cfg['alpha']}. Architecture and energy: "
        "`hopfield_core/et/model.py`; the configuration is in `config.json`.",
        "",
        _dynamics(cfg),
        "",
        "## Data",
        "- Training: random crops at random scales of the photos bundled in scikit-image and "
        f"scikit-learn ({', '.join(tr['train_photos'])}), with flips, 90-degree rotations, "
        "colour-channel permutations, hue rotations and greyscale, " + _procedural(tr),
        f"- Held out, never trained on: {', '.join(tr['held_out_photos'])} ({tr['held_out_crops']} "
        "fixed crops at random scales). scikit-image's `cat` is `chelsea`, so it is held out too "
        "(the first model trained on it by that name while validating on it); of the stereo "
        "motorcycle pair only the left photo is scored and neither is trained on.",
        "",
        "## Recipe",
        *_recipe(tr),
        f"- Time and hardware: {tr['minutes']} minutes on {tr['hardware']} (device {tr['device']}), "
        f"torch {tr['torch']}.",
        "",
        f"## Results on the held-out photos ({int(100 * tr['eval_mask_ratio'])} % of the patches "
        "hidden at random)",
        "",
        "| method | masked-patch MSE | vs mean fill |",
        "| --- | --- | --- |",
        f"| Energy Transformer, T = {T} steps | {ev['et_mse']:.5f} | {ev['et_mse'] / mf:.3f} |",
        f"| Energy Transformer, {min(4 * T, 100)} steps (4 T) | {ev['et_mse_4T']:.5f} | "
        f"{ev['et_mse_4T'] / mf:.3f} |",
        f"| Energy Transformer, 100 steps | {ev['et_mse_100']:.5f} | {ev['et_mse_100'] / mf:.3f} |",
        f"| mean colour of the visible patches | {mf:.5f} | 1.000 |",
        f"| biharmonic inpainting (scikit-image) | {bh:.5f} | {bh / mf:.3f} |",
        *([f"| harmonic fill{', where the ET starts' if cfg.get('start') == 'harmonic' else ''} (each hidden pixel the mean of its neighbours) | "
           f"{ev['harmonic_mse']:.5f} | {ev['harmonic_mse'] / mf:.3f} |"] if "harmonic_mse" in ev else []),
        "",
        f"The ET is {mf / ev['et_mse']:.2f} x better than mean fill and "
        + (biharmonic_words(ev, info.get("eval_bench"), these="these",
                            more="crops of the same photos (`benchmarks/bench_et.py`'s, 48 of each)")
           or f"at {ev['et_mse'] / bh:.2f} x biharmonic inpainting's error")
        + (f". Its descent takes the error of its starting point, the harmonic fill, down by "
           f"{100 * (1 - ev['et_mse'] / ev['harmonic_mse']):.1f} %"
           if cfg.get("start") == "harmonic" and "harmonic_mse" in ev else "")
        + f". Running 4 T steps changes its error by {relative_change(ev['et_mse_4T'] / ev['et_mse'])}, "
        f"and 100 steps by {relative_change(ev['et_mse_100'] / ev['et_mse'])}: "
        + _settled(ev) + " Between steps 99 and 100 no pixel of any held-out image moves "
        f"by more than {ev['last_step_max_pixel_change']:.1e} (on a 0 to 1 scale). The energy falls "
        f"at every one of the 100 steps for {100 * ev['energy_falls_every_step']:.1f} % of the "
        "held-out images (a change within float32 rounding, 1e-6 |E|, is not counted as a rise)."
        + _descent_share(ev) + _bench(info.get("eval_bench")),
        "",
    ]
    if curve:
        shown = [s for s in CURVE_STEPS if s < len(curve)]
        lines += ["### Masked-patch MSE against steps (held-out photos)", "",
                  "| steps | " + " | ".join(str(s) for s in shown) + " |",
                  "| --- | " + " | ".join("---" for _ in shown) + " |",
                  "| MSE | " + " | ".join(f"{curve[s]:.5f}" for s in shown) + " |", ""]
    for note in info.get("notes", []):
        lines += [note, ""]
    lines += [
        "## Weights",
        f"- `model.safetensors`, sha256 `{sha256}` (checked on every load).",
        "",
        "## Retrain",
        "```bash",
        "python -m pip install -r requirements-dev.txt",
        command,
        "```",
        "`python benchmarks/bench_et.py` re-measures the table above and the speed.",
        "",
    ]
    return "\n".join(lines)


def write_model_card(directory: Path, info: dict, sha256: str, command: str) -> None:
    if "config" not in info:  # the training command passes only what it measured
        from .checkpoint import CONFIG

        info = {**json.loads((Path(directory) / CONFIG).read_text()), **info}
    (Path(directory) / "MODEL_CARD.md").write_text(card_text(info, sha256, command))


def main(argv=None) -> None:
    """Rewrite MODEL_CARD.md from config.json (e.g. after adding a note)."""
    from .checkpoint import ASSET_DIR, CONFIG

    directory = Path((argv or sys.argv[1:] or [ASSET_DIR])[0])
    info = json.loads((directory / CONFIG).read_text())
    write_model_card(directory, info, info["sha256"], info["command"])


if __name__ == "__main__":
    main()

"""The training CLI's options (python -m hopfield_core.et.train): the parser, the model
config they give (the defaults, or --init's checkpoint's, with the options given), and the
command that a model card records to train the same recipe again."""
from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path

from . import checkpoint
from .config import READOUTS, STARTS, ETConfig
from .model import EnergyTransformer

CONFIG_ARGS = ("image_size", "patch_size", "dim", "heads", "head_dim", "memories", "steps", "alpha")


def parse_args(argv=None, description: str | None = None):
    """The options in argv (None: the command line); description heads --help."""
    return parser(description).parse_args(argv)


def parser(description: str | None = None) -> argparse.ArgumentParser:
    """Every option of the training CLI, with its default (argv_for_card reads them)."""
    ap = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--batches", type=int, default=1500, help="optimizer steps")
    ap.add_argument("--batch-size", type=int, default=64, help="images per step per process")
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--warmup", type=int, default=100)
    ap.add_argument("--weight-decay", type=float, default=0.05)
    ap.add_argument("--energy-penalty", type=float, default=0.1,
                    help="weight of the penalty on energy rises between steps")
    ap.add_argument("--far-max", type=int, default=0,
                    help="the fixed-point loss: after the T steps, up to this many more steps "
                         "(a random number each batch, without gradient), then 2 with gradient, "
                         "and the hidden patches are scored there too; 0 = off")
    ap.add_argument("--far-weight", type=float, default=1.0, help="weight of that loss")
    ap.add_argument("--settle-weight", type=float, default=0.0,
                    help="weight of the penalty on the last step's move: |g_T - g_(T-1)|^2 / |g_T|^2 "
                         "per image, so that the T steps end where the dynamics settle")
    ap.add_argument("--path-weight", type=float, default=0.0,
                    help="weight of the hidden patches' error after every step 1..T (their mean), "
                         "so that the error falls along the descent, not only at T; 0 = off")
    ap.add_argument("--steps-max", type=int, default=0,
                    help="train each batch at a random number of steps between T and this "
                         "(all with gradient), so the answer must hold from T on; 0 = always T")
    ap.add_argument("--procedural", type=float, default=0.3,
                    help="share of the training images that are procedural, not photo crops")
    ap.add_argument("--natural", type=float, default=0.0,
                    help="share of the procedural images that are dead-leaves images or 1/f noise "
                         "(natural.py) instead of the simple families")
    ap.add_argument("--occlude", type=float, default=0.0,
                    help="share of the photo crops with flat shapes painted over them")
    ap.add_argument("--shape-masks", type=float, default=0.0,
                    help="share of the batches whose masks are rectangles, half images or a few "
                         "small rectangles (data.shape_masks) instead of scattered patches")
    ap.add_argument("--far-batch", type=int, default=16,
                    help="how many of each batch's images the fixed-point loss follows")
    ap.add_argument("--eval-every", type=int, default=250)
    ap.add_argument("--time-limit", type=float, default=0, help="minutes; 0 = none")
    ap.add_argument("--threads", type=int, default=1, help="torch CPU threads per process")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--device", default="auto", help="auto, cpu, cuda or mps")
    ap.add_argument("--out", type=Path, default=checkpoint.ASSET_DIR)
    ap.add_argument("--held-out-per-photo", type=int, default=48)
    for f in ("image_size", "patch_size", "dim", "heads", "head_dim", "memories", "steps"):
        ap.add_argument(f"--{f.replace('_', '-')}", type=int, default=None)
    ap.add_argument("--alpha", type=float, default=None)
    ap.add_argument("--dynamics", choices=("paper", "settling"), default=None,
                    help="paper: every token steps along dE/dg (Hoover et al.); settling: only the "
                         "hidden tokens move, along dE/dg less the parts the layer norm ignores")
    ap.add_argument("--energy-positions", action="store_true", default=None,
                    help="the attention energy's keys and queries see each token's position "
                         "(g + p, p learned), so a moving token cannot lose where it is")
    ap.add_argument("--start", choices=STARTS, default=None,
                    help="where the hidden patches' tokens start: mask_token (the paper) or "
                         "harmonic (their harmonic fill from the visible pixels, encoded, plus "
                         "the mask token)")
    ap.add_argument("--readout", choices=READOUTS, default=None,
                    help="tokens: the picture is the decoded tokens (the paper); change (needs "
                         "--start harmonic): the harmonic fill plus the decoded change of the "
                         "tokens since step 0")
    ap.add_argument("--init", type=Path, default=None,
                    help="start from this checkpoint's weights (its sizes; --dynamics, --alpha "
                         "and --steps may change how it runs), e.g. to retrain a model for new dynamics")
    ap.add_argument("--rank-digests", type=Path, default=None,
                    help="each process writes the sha256 of its final weights here (a DDP check)")
    return ap


def config_for(args) -> tuple[ETConfig, EnergyTransformer | None]:
    """The model's config: the defaults (or --init's checkpoint's) with the options given;
    and that checkpoint, if any."""
    overrides = {k: getattr(args, k) for k in CONFIG_ARGS
                 if getattr(args, k) is not None}
    if args.dynamics is not None:
        settling = args.dynamics == "settling"
        overrides.update(project=settling, clamp_visible=settling)
    if args.energy_positions:
        overrides["energy_positions"] = True
    for key in ("start", "readout"):
        if getattr(args, key) is not None:
            overrides[key] = getattr(args, key)
    init = checkpoint.load(args.init) if args.init is not None else None
    cfg = replace(init.cfg if init is not None else ETConfig(), **overrides)
    if init is not None:
        _check_init(args.init, init.cfg, cfg)
    return cfg, init


SHAPED = ("image_size", "patch_size", "channels", "dim", "heads", "head_dim", "memories",
          "energy_positions")  # what the weights' shapes depend on


def _check_init(directory: Path, start: ETConfig, cfg: ETConfig) -> None:
    """--init keeps the checkpoint's weights, so nothing they are shaped by may change."""
    changed = [f"{f} {getattr(start, f)} -> {getattr(cfg, f)}" for f in SHAPED
               if getattr(start, f) != getattr(cfg, f)]
    if changed:
        raise SystemExit(f"--init {directory}: its weights do not fit the options given "
                         f"({', '.join(changed)}); train without --init for new sizes.")


# Options the card's command leaves out: where the output goes, not what is trained.
NOT_RECIPE = ("out", "rank_digests", "eval_every")
ALWAYS = ("batches", "batch_size", "lr", "seed", "threads")


def argv_for_card(args) -> str:
    """The command that trains this model again: every option that is not at its default (and
    the main ones always), so that no setting of the recipe is lost from the card."""
    parts = ["python -m hopfield_core.et.train"]
    for action in parser()._actions:
        key = action.dest
        if key == "help" or key in NOT_RECIPE:
            continue
        value = getattr(args, key)
        if value == action.default and key not in ALWAYS:
            continue
        flag = action.option_strings[0]
        parts.append(flag if value is True and action.nargs == 0 else f"{flag} {value}")
    return " ".join(parts)

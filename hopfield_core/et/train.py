"""Train the Energy Transformer on masked-patch completion and write assets/et/.

    python -m hopfield_core.et.train --batches 1500            # one process
    torchrun --nproc_per_node 2 -m hopfield_core.et.train ...  # DDP: gloo on CPU, NCCL on GPU

Data: crops of the photos bundled in scikit-image and scikit-learn (some held out for
validation) plus procedural images (hopfield_core.et.data). Every --eval-every batches the
masked-patch MSE at 50 % random patch masking on the held-out crops is printed beside the
mean-fill and biharmonic-inpainting baselines.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import platform
import time
from dataclasses import dataclass, replace
from pathlib import Path

import torch
import torch.distributed as dist

from . import checkpoint
from .baselines import biharmonic, masked_patch_mse, mean_fill
from .complete import pick_device
from .config import READOUTS, STARTS, ETConfig
from .data import Sampler, held_out_set, load_photos, random_masks
from .descent import ROUNDING
from .fill import harmonic_fill
from .photos import HELD_OUT_PHOTOS, TRAIN_PHOTOS
from .model import EnergyTransformer, patchify, unpatchify

EVAL_RATIO = 0.5
EVAL_STEPS_MAX = 100  # the held-out error is measured at every step up to this many
FAR_GRAD_STEPS = 2
CONFIG_ARGS = ("image_size", "patch_size", "dim", "heads", "head_dim", "memories", "steps", "alpha")


class FixedPointObjective(torch.nn.Module):
    """One forward pass for training: the T steps with their energies, the last step's relative
    move of g (the settle penalty), and (far > 0) the prediction for the first `far_batch`
    images `far` steps further on, reached without gradient and then FAR_GRAD_STEPS steps with
    it, so that the weights learn to keep the completion where the dynamics settle; the energies
    of those last steps come back too, so that their rises can be penalised. With path, the
    prediction after every step 1..T comes back as well (T, B, N, P), else None."""

    def __init__(self, model: EnergyTransformer):
        super().__init__()
        self.model = model

    def forward(self, patches: torch.Tensor, mask: torch.Tensor, far: int = 0, far_batch: int = 0,
                steps: int | None = None, path: bool = False):
        m = self.model
        x0, base = m.start(patches, mask)
        x, xs, e_att, e_hn = m.evolve(x0, steps=steps, record=True, mask=mask)
        g_last, g_before = m.layer_norm(x), m.layer_norm(xs[-2])
        settle = ((g_last - g_before) ** 2).sum(dim=(1, 2)) / (g_last ** 2).sum(dim=(1, 2))  # (B,)
        far_pred = None
        if far > 0:
            with torch.no_grad():
                y = m.evolve(x[:far_batch].detach(), steps=far, mask=mask[:far_batch])
            y, _, fa, fh = m.evolve(y, steps=FAR_GRAD_STEPS, record=True, mask=mask[:far_batch])
            n = far_batch
            far_pred, far_energy = m.read(y, x0[:n], None if base is None else base[:n]), fa + fh  # far_energy (FAR_GRAD_STEPS+1, far_batch)
        else:
            far_energy = None
        along = m.read(torch.stack(xs[1:]), x0, base) if path else None
        return m.read(x, x0, base), e_att, e_hn, far_pred, settle.mean(), far_energy, along


def parse_args(argv=None):
    return parser().parse_args(argv)


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
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


def lr_at(step: int, args, minutes: float = 0.0) -> float:
    """Warm-up, then cosine decay to 0 over the batches, or over the time limit if that
    comes first (so that a run cut by --time-limit still ends with a small learning rate)."""
    if step < args.warmup:
        return args.lr * (step + 1) / args.warmup
    t = (step - args.warmup) / max(1, args.batches - args.warmup)
    if args.time_limit:
        t = max(t, minutes / args.time_limit)
    return args.lr * 0.5 * (1 + math.cos(math.pi * min(t, 1.0)))


@torch.no_grad()
def evaluate(model: EnergyTransformer, images: torch.Tensor, masks: torch.Tensor,
             device: torch.device, steps_max: int = EVAL_STEPS_MAX) -> dict:
    """Held-out masked-patch MSE after every step 0..steps_max (et_mse: at the model's T),
    the share of images whose energy falls at every one of those steps (or stays within
    float32 rounding, ROUNDING |E|, once settled), and how much the
    decoded image still moves at the end (largest pixel change between the last two steps)."""
    cfg, T = model.cfg, model.cfg.steps
    curves, monotone, last_move = [], [], []
    for i in range(0, len(images), 64):
        img, m = images[i:i + 64].to(device), masks[i:i + 64].to(device)
        P = patchify(img, cfg.patch_size)
        x0, base = model.start(P, m)
        _, xs, e_att, e_hn = model.evolve(x0, steps=steps_max, record=True, mask=m)
        per_step, decoded = [], []
        for x in xs:
            pred = torch.where(m[..., None], model.read(x, x0, base).clamp(0, 1), P)
            out = unpatchify(pred, cfg.patch_size, cfg.grid)
            per_step.append(masked_patch_mse(out, img, m, cfg.patch_size).cpu())
            decoded.append(out)
        curves.append(torch.stack(per_step))  # (steps_max+1, B)
        last_move.append((decoded[-1] - decoded[-2]).abs().amax(dim=(1, 2, 3)).cpu())
        E = (e_att + e_hn).cpu()  # (steps_max+1, B)
        monotone.append((E[1:] <= E[:-1] + ROUNDING * E[:-1].abs()).all(dim=0))
    curve = torch.cat(curves, dim=1).mean(dim=1)  # (steps_max+1,)
    return {"et_mse": float(curve[T]), "et_mse_4T": float(curve[min(4 * T, steps_max)]),
            "et_mse_100": float(curve[steps_max]), "mse_by_step": [round(float(v), 6) for v in curve],
            "last_step_max_pixel_change": float(torch.cat(last_move).max()),
            "energy_falls_every_step": float(torch.cat(monotone).float().mean())}


def baselines(images: torch.Tensor, masks: torch.Tensor, p: int) -> dict:
    def mse(filled):
        return float(masked_patch_mse(filled, images, masks, p).mean())

    return {"mean_fill_mse": mse(mean_fill(images, masks, p)), "biharmonic_mse": mse(biharmonic(images, masks, p)),
            "harmonic_mse": mse(harmonic_fill(images, masks, p))}


@dataclass
class Processes:
    """Where this process trains: its device, and its rank among `world` processes (DDP)."""
    device: torch.device
    rank: int = 0
    world: int = 1

    @property
    def distributed(self) -> bool:
        return self.world > 1

    @property
    def main(self) -> bool:  # the process that evaluates, prints and saves
        return self.rank == 0


@dataclass
class Run:
    """The model being trained (net: it wrapped for DDP, or its objective) and the streams
    that feed it: the training crops, the masks, and the far horizons and step counts."""
    model: EnergyTransformer
    net: torch.nn.Module
    opt: torch.optim.Optimizer
    sampler: Sampler
    mask_gen: torch.Generator
    far_gen: torch.Generator


@dataclass
class HeldOut:
    """The held-out crops, their fixed masks (EVAL_RATIO hidden) and the baselines' errors."""
    images: torch.Tensor  # (B, H, W, 3)
    masks: torch.Tensor  # (B, N patches)
    base: dict


def main(argv=None) -> None:
    """Train, evaluating on the held-out crops as it goes, then write --out's weights,
    config.json and model card (and, with --rank-digests, every process's weights' sha256)."""
    args = parse_args(argv)
    torch.set_num_threads(args.threads)
    procs = start_processes(pick_device(None if args.device == "auto" else args.device))
    cfg, init = config_for(args)
    run = build(args, cfg, init, procs)
    held = held_out(args, cfg) if procs.main else None
    bar = progress(args.batches, procs.main)
    t0 = time.time()
    done, history = train_loop(args, cfg, run, procs, held, bar, t0)
    if args.rank_digests is not None:
        write_digest(args.rank_digests, run.model, procs.rank)
    if procs.main:
        extra = training_record(args, cfg, procs, done, (time.time() - t0) / 60, held, history)
        save(args, run.model, extra)
    if procs.distributed:
        dist.barrier()
        dist.destroy_process_group()


def start_processes(device: torch.device) -> Processes:
    """One process, or (WORLD_SIZE > 1, under torchrun) join the group: gloo on CPU, NCCL
    on GPU, each GPU process on its LOCAL_RANK's device."""
    if int(os.environ.get("WORLD_SIZE", 1)) <= 1:
        return Processes(device)
    dist.init_process_group("nccl" if device.type == "cuda" else "gloo")
    if device.type == "cuda":
        device = torch.device("cuda", int(os.environ.get("LOCAL_RANK", 0)))
        torch.cuda.set_device(device)
    return Processes(device, dist.get_rank(), dist.get_world_size())


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


def build(args, cfg: ETConfig, init: EnergyTransformer | None, procs: Processes) -> Run:
    """The model (seeded, so that every rank starts from the same weights), its optimizer and
    the random streams: the far horizon the same on every rank, crops and masks per rank."""
    torch.manual_seed(args.seed)  # the same initial weights on every rank
    model = EnergyTransformer(cfg)
    if init is not None:
        model.load_state_dict(init.state_dict())
    model = model.to(procs.device)
    objective = FixedPointObjective(model)
    net = torch.nn.parallel.DistributedDataParallel(objective) if procs.distributed else objective
    far_gen = torch.Generator().manual_seed(args.seed)  # the same far horizon on every rank
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    sampler = Sampler(load_photos(TRAIN_PHOTOS), cfg.image_size, seed=args.seed * 1000 + procs.rank)
    mask_gen = torch.Generator().manual_seed(args.seed * 1000 + procs.rank + 1)
    return Run(model, net, opt, sampler, mask_gen, far_gen)


def held_out(args, cfg: ETConfig) -> HeldOut:
    """The held-out crops with their masks (always the same: seed 99) and the baselines."""
    val = held_out_set(cfg.image_size, args.held_out_per_photo)
    val_masks = random_masks(len(val), cfg.n_patches, EVAL_RATIO, torch.Generator().manual_seed(99))
    base = baselines(val, val_masks, cfg.patch_size)
    print(f"held-out crops: {len(val)} from {HELD_OUT_PHOTOS}; baselines {base}", flush=True)
    return HeldOut(val, val_masks, base)


def progress(batches: int, show: bool):
    """range(batches), with a tqdm bar on the main process when tqdm is installed."""
    try:
        from tqdm import tqdm
        return tqdm(range(batches), disable=not show, mininterval=5)
    except ImportError:
        return range(batches)


def train_loop(args, cfg: ETConfig, run: Run, procs: Processes, held: HeldOut | None, bar,
               t0: float) -> tuple[int, list[dict]]:
    """The optimizer steps, until --batches or --time-limit; every --eval-every batches (and at
    the end) the main process evaluates on the held-out crops. Returns (batches done, the
    evaluations)."""
    history, done, minutes = [], 0, 0.0
    for step in bar:
        for group in run.opt.param_groups:
            group["lr"] = lr_at(step, args, minutes)
        loss, rise, settle = train_step(args, cfg, run, procs.device)
        done = step + 1
        if procs.main and hasattr(bar, "set_postfix"):
            bar.set_postfix(loss=f"{loss.item():.4f}", rise=f"{rise.item():.1e}", settle=f"{settle.item():.1e}")
        minutes = elapsed_minutes(t0, procs)
        out_of_time = bool(args.time_limit) and minutes > args.time_limit
        if procs.main and (done % args.eval_every == 0 or done == args.batches or out_of_time):
            history.append(evaluate_now(run.model, held, procs.device, done, t0, cfg.steps))
        if out_of_time:
            break
    return done, history


def train_step(args, cfg: ETConfig, run: Run, device: torch.device):
    """One optimizer step on a fresh batch; returns (hidden-patch loss, energy rise, settle)."""
    P, mask, far, steps = draw_batch(args, cfg, run, device)
    total, loss, rise, settle = batch_loss(args, cfg, run.net, P, mask, far, steps)
    run.opt.zero_grad(set_to_none=True)
    total.backward()
    torch.nn.utils.clip_grad_norm_(run.model.parameters(), 1.0)
    run.opt.step()
    return loss, rise, settle


def draw_batch(args, cfg: ETConfig, run: Run, device: torch.device):
    """A batch's patches (B, N, P), hidden patches (B, N: 25 to 75 % of them), far horizon
    (0: off) and number of steps (None: T), drawn in this order from the streams."""
    imgs = run.sampler.batch(args.batch_size).to(device)
    ratio = 0.25 + 0.5 * float(torch.rand((), generator=run.mask_gen))
    mask = random_masks(len(imgs), cfg.n_patches, ratio, run.mask_gen).to(device)
    P = patchify(imgs, cfg.patch_size)
    far = 1 + int(torch.randint(0, args.far_max, (), generator=run.far_gen)) if args.far_max else 0
    steps = (cfg.steps + int(torch.randint(0, args.steps_max - cfg.steps + 1, (), generator=run.far_gen))
             if args.steps_max > cfg.steps else None)
    return P, mask, far, steps


def batch_loss(args, cfg: ETConfig, net: torch.nn.Module, P, mask, far: int, steps: int | None):
    """(total, loss, rise, settle): the hidden patches' MSE at T (loss), plus the weighted
    penalties on energy rises and on the last step's move, and the path and fixed-point losses
    when they are on."""
    pred, e_att, e_hn, far_pred, settle, far_energy, along = net(
        P, mask, far=far, far_batch=args.far_batch, steps=steps, path=bool(args.path_weight))
    err = ((pred - P) ** 2).mean(dim=-1)  # (B, N)
    loss = (err * mask).sum() / mask.sum()
    E = e_att + e_hn  # (T+1, B)
    rise = torch.relu(E[1:] - E[:-1]).mean() / cfg.n_patches
    if far_energy is not None:  # the steps far on must fall too
        rise = rise + torch.relu(far_energy[1:] - far_energy[:-1]).mean() / cfg.n_patches
    total = loss + args.energy_penalty * rise + args.settle_weight * settle
    if along is not None:  # every step scored, so that the error falls along the descent
        path_err = ((along - P) ** 2).mean(dim=-1)  # (T, B, N)
        total = total + args.path_weight * (path_err * mask).sum() / (mask.sum() * len(along))
    if far_pred is not None:
        n = args.far_batch
        far_err = ((far_pred - P[:n]) ** 2).mean(dim=-1)
        total = total + args.far_weight * (far_err * mask[:n]).sum() / mask[:n].sum()
    return total, loss, rise, settle


def elapsed_minutes(t0: float, procs: Processes) -> float:
    """Minutes since t0; under DDP the largest over the processes, so that every rank agrees
    on the clock (the learning rate, stopping)."""
    minutes = (time.time() - t0) / 60
    if procs.distributed:
        clock = torch.tensor([minutes], device=procs.device)
        dist.all_reduce(clock, op=dist.ReduceOp.MAX)
        minutes = clock.item()
    return minutes


def evaluate_now(model: EnergyTransformer, held: HeldOut, device: torch.device, done: int,
                 t0: float, T: int) -> dict:
    """evaluate() on the held-out crops after `done` batches, printed as a JSON line."""
    model.eval()
    ev = evaluate(model, held.images, held.masks, device)
    model.train()
    ev.update(batch=done, minutes=(time.time() - t0) / 60, ratio_to_mean_fill=ev["et_mse"] / held.base["mean_fill_mse"])
    print(json.dumps({**{k: v for k, v in ev.items() if k != "mse_by_step"},
                      "mse_to_T": ev["mse_by_step"][:T + 1]}), flush=True)
    return ev


def write_digest(directory: Path, model: EnergyTransformer, rank: int) -> None:
    """The sha256 of this process's weights in directory/rank<k>.txt (--rank-digests)."""
    directory.mkdir(parents=True, exist_ok=True)
    flat = torch.cat([v.detach().cpu().flatten() for v in model.state_dict().values()])
    digest = hashlib.sha256(flat.numpy().tobytes()).hexdigest()
    (directory / f"rank{rank}.txt").write_text(digest)


def training_record(args, cfg: ETConfig, procs: Processes, done: int, minutes: float,
                    held: HeldOut, history: list[dict]) -> dict:
    """What config.json and the card say of the run: its recipe, the machine, the last
    evaluation beside the baselines, and every evaluation."""
    device = procs.device
    hardware = (torch.cuda.get_device_name(device) if device.type == "cuda"
                else f"{platform.processor() or platform.machine()} CPU, {args.threads} thread(s)")
    return {"training": {
        "batches": done, "steps": cfg.steps, "batch_size": args.batch_size, "processes": procs.world, "minutes": round(minutes, 1),
        "hardware": hardware, "device": device.type, "lr": args.lr, "warmup": args.warmup,
        "weight_decay": args.weight_decay, "energy_penalty": args.energy_penalty, "seed": args.seed,
        "settle_weight": args.settle_weight, "far_max": args.far_max, "far_weight": args.far_weight, "far_batch": args.far_batch, "path_weight": args.path_weight,
        "far_grad_steps": FAR_GRAD_STEPS, "steps_max": args.steps_max,
        "init": None if args.init is None else str(args.init),
        "train_photos": list(TRAIN_PHOTOS), "held_out_photos": list(HELD_OUT_PHOTOS),
        "held_out_crops": len(held.images), "eval_mask_ratio": EVAL_RATIO, "torch": torch.__version__},
        "command": argv_for_card(args), "eval": {**held.base, **history[-1]},
        "history": [{k: v for k, v in h.items() if k != "mse_by_step"} for h in history]}


def save(args, model: EnergyTransformer, extra: dict) -> None:
    """The weights and config.json (checkpoint.save) and the model card, in --out."""
    digest = checkpoint.save(model.cpu(), args.out, extra=extra)
    from .card import write_model_card
    write_model_card(args.out, extra, digest, argv_for_card(args))
    print(f"saved {args.out} (sha256 {digest[:16]}...)", flush=True)


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

if __name__ == "__main__":
    main()

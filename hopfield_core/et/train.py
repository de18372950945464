"""Train the Energy Transformer on masked-patch completion and write assets/et/.

    python -m hopfield_core.et.train --batches 1500            # one process
    torchrun --nproc_per_node 2 -m hopfield_core.et.train ...  # DDP: gloo on CPU, NCCL on GPU

Data: crops of the photos bundled in scikit-image and scikit-learn (some held out for
validation) plus procedural images (hopfield_core.et.data). Every --eval-every batches the
masked-patch MSE at 50 % random patch masking on the held-out crops is printed beside the
mean-fill and biharmonic-inpainting baselines.
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import platform
import time
from dataclasses import dataclass
from pathlib import Path

import torch
import torch.distributed as dist

from . import checkpoint
from .complete import pick_device
from .config import ETConfig
from .data import Sampler, held_out_set, load_photos, random_masks, shape_masks
from .evaluation import EVAL_RATIO, MASK_SEED, baselines, evaluate
from .model import EnergyTransformer, patchify
from .objective import FAR_GRAD_STEPS, FixedPointObjective, batch_loss
from .photos import HELD_OUT_PHOTOS, TRAIN_PHOTOS
from .train_options import argv_for_card, config_for, parse_args


def lr_at(step: int, args, minutes: float = 0.0) -> float:
    """Warm-up, then cosine decay to 0 over the batches, or over the time limit if that
    comes first (so that a run cut by --time-limit still ends with a small learning rate)."""
    if step < args.warmup:
        return args.lr * (step + 1) / args.warmup
    t = (step - args.warmup) / max(1, args.batches - args.warmup)
    if args.time_limit:
        t = max(t, minutes / args.time_limit)
    return args.lr * 0.5 * (1 + math.cos(math.pi * min(t, 1.0)))


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
    args = parse_args(argv, __doc__)
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
    sampler = Sampler(load_photos(TRAIN_PHOTOS), cfg.image_size, seed=args.seed * 1000 + procs.rank,
                      p_procedural=args.procedural, p_natural=args.natural, p_occlude=args.occlude)
    mask_gen = torch.Generator().manual_seed(args.seed * 1000 + procs.rank + 1)
    return Run(model, net, opt, sampler, mask_gen, far_gen)


def held_out(args, cfg: ETConfig) -> HeldOut:
    """The held-out crops with their masks (always the same: seed 99) and the baselines."""
    val = held_out_set(cfg.image_size, args.held_out_per_photo)
    val_masks = random_masks(len(val), cfg.n_patches, EVAL_RATIO, torch.Generator().manual_seed(MASK_SEED))
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
    """A batch's patches (B, N, P), hidden patches (B, N: 25 to 75 % of them at random, or
    with --shape-masks some batches' rectangles and half images), far horizon
    (0: off) and number of steps (None: T), drawn in this order from the streams."""
    imgs = run.sampler.batch(args.batch_size).to(device)
    ratio = 0.25 + 0.5 * float(torch.rand((), generator=run.mask_gen))
    mask = random_masks(len(imgs), cfg.n_patches, ratio, run.mask_gen)
    if args.shape_masks and float(torch.rand((), generator=run.mask_gen)) < args.shape_masks:
        mask = shape_masks(len(imgs), cfg.grid, run.mask_gen)
    mask = mask.to(device)
    P = patchify(imgs, cfg.patch_size)
    far = 1 + int(torch.randint(0, args.far_max, (), generator=run.far_gen)) if args.far_max else 0
    steps = (cfg.steps + int(torch.randint(0, args.steps_max - cfg.steps + 1, (), generator=run.far_gen))
             if args.steps_max > cfg.steps else None)
    return P, mask, far, steps


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
        "procedural": args.procedural, "natural": args.natural, "occlude": args.occlude,
        "shape_masks": args.shape_masks,
        "init": None if args.init is None else str(args.init),
        "train_photos": list(TRAIN_PHOTOS), "held_out_photos": list(HELD_OUT_PHOTOS),
        "held_out_crops": len(held.images), "eval_mask_ratio": EVAL_RATIO, "torch": torch.__version__},
        "command": argv_for_card(args), "eval": {**held.base, **history[-1]},
        "history": [{k: v for k, v in h.items() if k != "mse_by_step"} for h in history]}


def save(args, model: EnergyTransformer, extra: dict) -> None:
    """The weights and config.json (checkpoint.save), scored afresh on the card's held-out crops
    and the benchmark's (rescore, which writes the model card), in --out."""
    digest = checkpoint.save(model.cpu(), args.out, extra=extra)
    from .rescore import rescore
    rescore(args.out)
    print(f"saved {args.out} (sha256 {digest[:16]}...)", flush=True)


if __name__ == "__main__":
    main()

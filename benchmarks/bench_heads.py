"""Attention heads as Hopfield networks (hopfield_core/heads): speed against peers, and the kinds.

    python benchmarks/bench_heads.py

1. The MiniLM forward (hopfield_core/heads/bert.py) against transformers' BertModel (eager
   attention, every attention returned) on the same weights and the same 128 tokens, one torch
   thread and one BLAS thread, measured alternately: the ratio. Also the issue's goals on one
   core, as CPU seconds: forward + one-step kinds of all 72 heads (goal < 1 s), the fixed
   points of all heads (goal < 3 s).
2. The fixed-point analysis of all 72 heads on that input, batched over heads and queries
   (analysis.analyse_model), against a direct loop that iterates one head at a time
   (fixed_point.iterate per head) and against one query at a time (ModernHopfield.run, on
   layer 0 only: 12 heads x 128 queries): the ratios.
3. The kinds table (heads per kind per layer, one step and fixed point, the share of (token,
   head) pairs that change kind) of both models on the shipped held-out sets:
   assets/heads/heldout_text.txt in windows of 64 tokens, and the ViT's 360 held-out digits.
"""
from __future__ import annotations

import os
import time

import numpy as np
import torch

if not __package__:  # run as a script: only benchmarks/ is on sys.path
    import common  # noqa: F401 - puts the repository root on sys.path
from benchmarks.common import interleaved, print_table_head  # noqa: E402
from hopfield_core import ModernHopfield, k90  # noqa: E402
from hopfield_core.heads import analysis, fixed_point, heldout, kinds, minilm, vit_checkpoint  # noqa: E402

TEXT = ("Hopfield networks store patterns as minima of an energy, and the attention of a "
        "Transformer retrieves them. ") * 12  # more than 128 tokens: cut to 128


def cpu(fn, runs: int = 3) -> float:
    """The fewest CPU seconds of fn() in `runs` runs."""
    best = float("inf")
    for _ in range(runs):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best


def forward_rows(model, ids: torch.Tensor) -> None:
    os.environ["HF_HUB_OFFLINE"] = "1"
    from transformers import BertModel

    peer = BertModel.from_pretrained(str(model.folder), local_files_only=True,
                                     attn_implementation="eager").eval()

    def theirs(batch):
        with torch.no_grad():
            peer(input_ids=batch, output_attentions=True, output_hidden_states=True)

    print_table_head("forward, 128 tokens, 1 thread", "ours (ms)", "BertModel (ms)",
                     "ours / BertModel")
    for batch, rounds in ((1, 15), (16, 5)):
        many = ids.repeat(batch, 1)  # (batch, 128)
        ours, peer_s = interleaved(lambda: model.bert.forward(many), lambda: theirs(many),
                                   rounds=rounds)
        print(f"| batch of {batch} | {ours * 1e3:.1f} | {peer_s * 1e3:.1f} | "
              f"{ours / peer_s:.2f} |")


def goal_rows(model) -> None:
    def one_step():
        r = model.read(TEXT)
        return [kinds.kind_codes(kinds.head_k90(k90(kinds.attention_weights(Q, K, 1 / 32 ** .5))),
                                 Q.shape[1]) for Q, K in r.layer_heads()]

    layers = model.read(TEXT).layer_heads()
    print()
    print_table_head("issue's goal (one core)", "CPU s", "goal s")
    print(f"| read 128 tokens + one-step kinds of 72 heads | {cpu(one_step):.3f} | 1 |")
    print(f"| fixed points of all 72 heads (batched) | "
          f"{cpu(lambda: analysis.analyse_model(layers), 2):.3f} | 3 |")


def per_head_loop(layers) -> None:
    for Q, K in layers:
        beta = 1 / np.sqrt(Q.shape[2])
        for h in range(Q.shape[0]):
            fp = fixed_point.iterate(Q[h], K[h], beta)
            k90(kinds.attention_weights(Q[h], K[h], beta)), k90(fp.weights)


def per_query_loop(Q, K) -> None:
    beta = 1 / np.sqrt(Q.shape[2])
    for h in range(Q.shape[0]):
        net = ModernHopfield(K[h].astype(np.float64), beta)
        for q in Q[h].astype(np.float64):
            net.k90(q), net.k90(net.run(q, max_steps=fixed_point.MAX_ITER,
                                        tol=fixed_point.TOL).states[-1])


def analysis_rows(model) -> None:
    layers = model.read(TEXT).layer_heads()
    batched = cpu(lambda: analysis.analyse_model(layers), 2)
    heads = cpu(lambda: per_head_loop(layers), 2)
    batched0 = cpu(lambda: analysis.analyse_model(layers[:1]), 2)
    queries = cpu(lambda: per_query_loop(*layers[0]), 1)
    print()
    print_table_head("fixed-point analysis (CPU s)", "batched", "direct loop", "loop / batched")
    print(f"| 72 heads, 128 tokens; loop per head | {batched:.3f} | {heads:.3f} | "
          f"{heads / batched:.2f} |")
    print(f"| layer 0 (12 heads); loop per query | {batched0:.3f} | {queries:.3f} | "
          f"{queries / batched0:.1f} |")
    H, N, d = layers[0][0].shape
    print(f"\npeak bytes of the analysis of all {len(layers)} layers (analyse_model_bytes,"
          f" H={H}, N={N}, d={d}): "
          f"{analysis.analyse_model_bytes(len(layers), H, N, d) / 2 ** 20:.1f} MiB")


def kinds_rows(name: str, per_input) -> None:
    table, changed = heldout.table(per_input)
    print(f"\n{name}: {len(per_input)} inputs of N = {per_input[0][0].N} tokens; a head's kind "
          f"from its median k90 over all of them. {kinds.KIND_RULE}")
    print_table_head("layer", *(f"one step {k}" for k in kinds.KINDS),
                     *(f"fixed point {k}" for k in kinds.KINDS), "pairs changing kind",
                     "of those, sharper", "median iterations")
    for i in range(len(table.one_step)):
        print(f"| {i} | " + " | ".join(str(v) for v in table.one_step[i]) + " | "
              + " | ".join(str(v) for v in table.fixed[i])
              + f" | {table.changed_share[i]:.0%} | {table.sharper_share[i]:.0%} | "
              f"{table.median_iterations[i]:g} |")
    print("| all | " + " | ".join(str(v) for v in table.total_one_step) + " | "
          + " | ".join(str(v) for v in table.total_fixed) + f" | {changed:.0%} | | |")


def main() -> None:
    from threadpoolctl import threadpool_limits

    torch.set_num_threads(1)
    threadpool_limits(limits=1, user_api="blas")  # one core, as the app's boot sets it
    try:
        model = minilm.load()
    except minilm.MiniLMUnavailable as e:
        print(f"MiniLM skipped: {e}")
        model = None
    if model is not None:
        ids = torch.tensor([model.tokenizer.encode(TEXT).ids])
        forward_rows(model, ids)
        goal_rows(model)
        analysis_rows(model)
        windows = heldout.text_windows(model.tokenizer)
        kinds_rows("MiniLM, assets/heads/heldout_text.txt", heldout.minilm_layers(model, windows))
    vit = vit_checkpoint.load()
    images, _, _ = vit_checkpoint.load_heldout()
    kinds_rows("Digits ViT, its held-out digits", heldout.vit_layers(vit, images))


if __name__ == "__main__":
    main()

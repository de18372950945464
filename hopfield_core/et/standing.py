"""Where a shipped Energy Transformer stands against biharmonic inpainting, in words that hold on
both sets of held-out crops it is scored on (the card's, config.json "eval", and the benchmark's
240, "eval_bench"): "about level with" only when its mean error is within LEVEL of
biharmonic's on both, "ahead of" or "behind" only when it is on the same side of that band on
both, and always the two ratios and, crop by crop, on how many crops biharmonic does better.
The model card and the Energy Transformer page say it with these words.
"""
from __future__ import annotations

from fractions import Fraction

LEVEL = 0.10  # within 10 % of biharmonic's mean error is "about level"
KEYS = ("et_mse", "biharmonic_mse", "biharmonic_better_share")


def scored(ev: dict) -> bool:
    """Whether an evaluation carries what these words need (positive errors, a share in [0, 1]
    and its number of crops)."""
    return (all(isinstance(ev.get(k), (int, float)) and not isinstance(ev.get(k), bool) for k in KEYS)
            and ev["et_mse"] > 0 and ev["biharmonic_mse"] > 0 and 0 <= ev["biharmonic_better_share"] <= 1
            and isinstance(ev.get("crops"), int) and ev["crops"] > 0)


def verdict(ratios: list[float]) -> str:
    """'about level with', 'ahead of' or 'behind' biharmonic inpainting when every set says the
    same (the ET's error as a multiple of biharmonic's on each set, level within LEVEL), and
    words for both otherwise."""
    sides = {"level" if abs(r - 1) <= LEVEL else "ahead" if r < 1 else "behind" for r in ratios}
    return {frozenset({"level"}): "about level with", frozenset({"ahead"}): "ahead of",
            frozenset({"behind"}): "behind", frozenset({"level", "ahead"}): "about level with or ahead of",
            frozenset({"level", "behind"}): "about level with or behind",
            }.get(frozenset(sides), "sometimes ahead of, sometimes behind")


def about(share: float, most: int = 5, slack: float = 0.03) -> str | None:
    """A share as a plain fraction with a small denominator ('2 in 3'), the smallest that is
    within `slack` of it, or None when none is."""
    for den in range(2, most + 1):
        num = round(share * den)
        if 0 < num < den and abs(share - num / den) <= slack:
            f = Fraction(num, den)
            return f"{f.numerator} in {f.denominator}"
    return None


def crop_counts(evs: list[dict]) -> str:
    """'39 of 60 and 155 of 240': on how many crops of each set biharmonic does better."""
    return " and ".join(f"{round(e['biharmonic_better_share'] * e['crops'])} of {e['crops']}" for e in evs)


def biharmonic_words(card: dict, bench: dict | None, these: str = "the card's",
                     more: str = "crops of the same photos") -> str:
    """The words after "the ET is ...": its verdict, each set's ratio and the crop-by-crop
    count. card: config.json's "eval" (with "crops"); bench: its "eval_bench" (or None); these,
    more: how the card's crops and the benchmark's are named where the words appear. '' when
    card lacks the figures."""
    if not scored(card):
        return ""
    evs = [card] + ([bench] if bench and scored(bench) else [])
    ratios = [e["et_mse"] / e["biharmonic_mse"] for e in evs]
    sets = [f"{these} {card['crops']} crops"] + [f"{e['crops']} {more}" for e in evs[1:]]
    measured = f"{ratios[0]:.2f} x biharmonic's mean error on {sets[0]}" + "".join(
        f" and {r:.2f} x on {s}" for r, s in zip(ratios[1:], sets[1:]))
    shares = [e["biharmonic_better_share"] for e in evs]
    plain = {about(s) for s in shares}
    share = (f"about {plain.pop()} of the crops ({crop_counts(evs)})" if len(plain) == 1 and None not in plain
             else f"{crop_counts(evs)} crops")
    return (f"{verdict(ratios)} biharmonic inpainting: {measured}; crop by crop, biharmonic "
            f"inpainting fills {share} with a smaller error")

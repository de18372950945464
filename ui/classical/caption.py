"""The classical page's caption under its title: the network as it is set now (learning rule,
update, temperature), and what that means for the energy. A teacher's link may hide these
controls, so the caption must never describe other settings than those in use."""
from __future__ import annotations

from .settings import RULE_NAMES


def caption(mode: str, temperature: float, rule: str) -> str:
    weights = f"Binary neurons and {RULE_NAMES[rule]} weights"
    heat = "at zero temperature" if temperature == 0 else f"at temperature T = {temperature:g}"
    if mode == "async" and temperature == 0:
        what = f"updated one at a time {heat}, the state only goes downhill in energy"
    elif mode == "async":
        what = (f"updated one at a time {heat}, a neuron may go against its field, so the energy "
                "can rise as well as fall")
    elif temperature == 0:
        what = (f"all updated at once {heat}, the energy is not guaranteed to fall and the state "
                "may blink between two states forever")
    else:
        what = (f"all updated at once {heat}, neurons may go against their field and the energy "
                "is not guaranteed to fall")
    return f"{weights}: {what}. Corrupt a stored pattern and step it back."

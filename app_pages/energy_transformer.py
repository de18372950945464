"""The Energy Transformer: a pretrained masked-image completer whose dynamics descend one energy.
Layout only: the pieces are in ui/pages/energy_transformer/."""
import streamlit as st

from ui.pages.energy_transformer import cache, controls, explain, sections
from ui.pages.energy_transformer.settings import CONFIGS, SETTINGS
from ui.settings.modes import presenter


def live() -> str:
    """The controls and the completion (or what stops it); the name of the model chosen."""
    SETTINGS.bind()
    explain.intro()
    c = controls.panel()
    model, error = cache.load_et(c.device, c.name)
    if model is None:
        sections.unavailable(error)
        return c.name
    if c.image is None:
        st.info("Choose a preset photo or upload one to begin.")
        return c.name
    if not presenter():  # presenter mode: under the pictures (sections.frame)
        sections.hidden_note(c.mask, model.cfg)
    run = sections.complete(c)
    sections.frame(run, model, c)
    return c.name


def main() -> None:
    name = live()
    explain.explain(CONFIGS[name], name)  # below the live figure, whatever happened above


main()

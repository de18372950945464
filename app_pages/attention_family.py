"""Attention as an exponential family (Shim 2021) and a Transformer step as energy descent.
Layout only: the parts are in ui/pages/attention_family/."""
from ui.pages.attention_family import explain, sections
from ui.pages.attention_family.settings import SETTINGS
from ui.settings.modes import presenter
from ui.shell import sidebar


def main() -> None:
    S = SETTINGS.bind()
    explain.intro()
    view = S.show("view", label_visibility="collapsed", width="stretch")
    if view == "family":
        sidebar.panels(binary=False)
        sections.family_section()
    elif view == "cloud":
        sections.cloud_section()
    else:
        sections.descent_section()
    if presenter():  # under the charts, which have the projector's first screen
        explain.lede()
    explain.explain(view)


main()

"""Attention as an exponential family (Shim 2021) and a Transformer step as energy descent.
Layout only: the parts are in ui/attention_family/."""
from ui import sidebar
from ui.attention_family import explain, sections
from ui.attention_family.settings import SETTINGS
from ui.shared_settings import presenter


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

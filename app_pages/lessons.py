"""Lessons: open one by its code, take a ready one, build your own from views of the app.
Layout only: the pieces are in ui/pages/lessons/."""
from ui.pages.lessons import explain, sections
from ui.pages.lessons.settings import SETTINGS


def main() -> None:
    SETTINGS.bind()
    explain.intro()
    sections.said()
    sections.open_section()
    sections.teacher_section()
    sections.draft_section()
    sections.ready_section()
    explain.how_to_build()


main()

"""The Lessons page's settings: none of its own (what it shows is the draft in this tab and the
lessons in the database); declared so that the page is on the settings layer like the others."""
from ui.settings.layer import Settings

SETTINGS = Settings("lessons", [])

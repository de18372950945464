"""Hopfield energy landscapes: the script every session runs (the navigation, the shared
sidebar, then the page). `streamlit run app.py` serves it; app.py warms the process first."""
import streamlit as st

from ui import pages  # the registry: light, as boot is
from ui.serving import boot

st.set_page_config(page_title="Hopfield energy landscapes", page_icon="🧠", layout="wide")
boot.warm(pages.warm_up)  # done at server start (app.py); here for any other host, e.g. AppTest

# after the warm-up, by design
from ui.lessons import add_view, bar, flow  # noqa: E402
from ui.live import attending, class_bar  # noqa: E402
from ui.pages import lesson_steps  # noqa: E402
from ui.settings import gate, layer  # noqa: E402
from ui.shell import link_messages, page_style, presenter_view, share, sidebar  # noqa: E402
from ui.store import shared_settings  # noqa: E402

LESSON_PAGES = flow.Pages(settings_of=pages.settings_of, script_of=lambda name: pages.page(name).script,
                          title_of=lambda name: pages.page(name).title, check_step=lesson_steps.problems)

page = st.navigation([st.Page(p.script, title=p.title, icon=p.icon, default=p.default)
                      for p in pages.PAGES])
share.open_short(lambda name: pages.page(name).script, lambda name: name in {p.file for p in pages.PAGES})
shared_settings.bind()  # the shared settings, the store, the query image, presenter mode
flow.bind(LESSON_PAGES)  # the link's lesson, if any: its code, step, student id and teacher key
attending.bind(LESSON_PAGES)  # the link's live class, if any (or the class a QR code joins)
sidebar.presenter_toggle()  # the pages add the shared panels they use
add_slot = st.sidebar.container()  # "Add this view to a lesson", drawn once the page has run
presenter_row = page_style.apply()  # presenter mode's buttons (None outside it)
lesson_bar = st.container()  # above the page: the lesson's bar, drawn once the page has run
messages = st.container()  # above the page: what the link asked for that could not be used
# presenter mode: the values demonstrated, the memories, the controls kept on screen
demo = st.container() if presenter_row is not None else None
layer.clear_page()
gate.start_run(page.url_path or "home", pages.page(page.url_path or "home").reveal)
presenter_view.start_run()
attending.sync()  # a class that follows its teacher: this tab on the teacher's step
flow.before_page(page.url_path or "home", LESSON_PAGES)  # a step's view, its question held
attending.before_page(page.url_path or "home")  # in a class: held until the teacher reveals
page.run()
# the address bar follows the values in use: the shared ones (sidebar, store, query image,
# presenter, the lesson) and the page's own; what no page uses (junk, a bad value) is dropped.
# Home has no settings
layer.check_names([shared_settings.SIDEBAR, shared_settings.LINK, flow.LESSON, attending.CLASS, layer.page()],
                  "this page")  # names in the opening link no setting reads, said once
link = layer.publish(shared_settings.SIDEBAR, shared_settings.LINK, flow.LESSON, attending.CLASS, layer.page())
path = page.url_path or "home"
if presenter_row is not None and path not in add_view.NOT_TAKEN:
    share.student_link(presenter_row, page.url_path, link)
with lesson_bar:
    if attending.attending() is not None:
        class_bar.draw(page.url_path or "home")
    else:
        bar.draw(page.url_path or "home", LESSON_PAGES)
        class_bar.start_button()
with add_slot:
    add_view.button(path, page.title)
    if path not in add_view.NOT_TAKEN:
        share.sidebar_button(page.url_path, link)
with messages:
    if presenter_row is None:  # presenter mode's values line names them, and more
        link_messages.lesson_line()  # hidden controls named where no row of controls did
    link_messages.link_messages()
if demo is not None and path not in add_view.NOT_TAKEN:
    presenter_view.draw(demo, [layer.page(), shared_settings.SIDEBAR], pages.page(path).key_settings)

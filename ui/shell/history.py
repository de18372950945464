"""One Back press per page. Streamlit adds a browser history entry for every change of the address
bar's query, so a page visit (its address, then its settings written into the query after the run,
streamlit_app.py) took two Back presses, and every slider move one more. This small script in the
page (a components v2 component, hidden) keeps a change of the query alone in the same history
entry (`history.replaceState`); moving to another page still adds one."""
from __future__ import annotations

import streamlit as st

JS = """
export default function () {
  const h = window.history;
  if (h.__hpOneEntryPerPage) return;
  const push = h.pushState.bind(h);
  h.pushState = function (state, title, url) {
    try {
      const next = new URL(url, document.location.href);
      if (next.pathname === document.location.pathname) return h.replaceState(state, title, url);
    } catch (e) { /* an address this cannot read: as the browser would */ }
    return push(state, title, url);
  };
  h.__hpOneEntryPerPage = true;
}
"""
CSS = ".st-key-one_entry_per_page { display: none !important; }"

_COMPONENT = st.components.v2.component("hopfield_history", html="<span></span>", css=CSS, js=JS,
                                        isolate_styles=False)


def one_entry_per_page() -> None:
    """Mount the script (every run: a component not mounted in a run is taken off the page)."""
    with st.sidebar, st.container(key="one_entry_per_page"):  # the app's, not a page's
        _COMPONENT(key="one_entry_per_page_script")

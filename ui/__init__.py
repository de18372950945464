"""Everything Streamlit-side, in folders by job (docs/architecture.md). From the top down, each
folder imports only the folders below it (tests/core/test_layers.py holds the order):

pages/     each page's folder (settings, words, sections, caches, figures), the page registry
           (this folder's __init__) and the links between pages
shell/     the page around the page: sidebar, page CSS, layout, the link's messages
lessons/   lessons and predictions: the database, codes and keys, the lesson files
player/    Step, Run, Play, the keyboard, the live view and charts, the runs and their frames
charts/    Plotly builders and their style, chart numbers, tables, descriptions, pictures, exports
store/     the pattern store: uploads and their quota, patterns, the query, the editors and grid,
           the settings every page shares
settings/  the settings layer (typed fields, the link, messages), presenter and projector modes
serving/   the classroom's serving layer: warm-up, housekeeping, frame policy, user text made
           inert, budgets, the memory plan and gate, byte-bounded caches, the run queue
"""

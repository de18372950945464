"""The classical network page's pieces (the page itself, app_pages/classical.py, is layout):
`settings`, the page's fields (what a link can set); `sections`, its blocks; `explain`, its
prose."""

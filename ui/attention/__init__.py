"""The attention page's pieces (the page itself, app_pages/attention.py, is layout):
`settings`, the page's fields (what a link can set) and its constants."""

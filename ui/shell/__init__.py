"""The page around each page: the sidebar and its panels, the page CSS (presenter and projector
modes, phones), the explanation's layout, and the messages about the link above the page."""

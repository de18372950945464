"""The energy-landscape page's parts: settings, the four sections, their cache and figures."""

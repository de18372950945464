"""The Energy Transformer page's parts: its settings and the image and mask controls."""

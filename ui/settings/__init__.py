"""The settings layer: a page's settings declared once as typed fields (fields), bound to widgets,
the link and messages (layer), the "Settings for this lesson" line (lesson_line), and the two
modes every layer reads (modes: presenter, projector)."""

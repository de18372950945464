"""The two-step lesson the live class's tests and benchmark take: where a classical query ends
(a question on the classical page), then a modern network's fixed point (on the modern page)."""

BODY = {"format": "hopfield-lesson", "version": 1, "title": "Memories as valleys", "steps": [
    {"page": "classical", "view": {"mode": "async", "presets": "letters/H,letters/O,letters/X", "q_amount": "0.2"},
     "title": "Where does it end?", "question": "destination", "note": "Asynchronous updates settle."},
    {"page": "modern", "view": {"beta": "2", "presets": "letters/H,letters/O,letters/X"}, "title": "Metastable",
     "question": "fixed_point"},
]}

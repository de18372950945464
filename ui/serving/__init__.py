"""Serving a class, the bottom room (it imports no other room of ui/): the warm-up (boot),
housekeeping, the frame policy, user text made inert (text), the work and memory budgets, the
memory plan and gate, caches bounded by bytes, the fair run queue. Most of it runs without
Streamlit (run_queue_view draws the queue's place)."""

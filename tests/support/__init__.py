"""What the tests share, and the benchmarks may import: the one server on a free port (server),
the one Chromium and its flags (chromium), browser and AppTest helpers, a client that speaks
Streamlit's websocket protocol (st_client, student), the deploy's launcher, bad files, memory
probes, and samples computed from the core. No test imports another test file."""

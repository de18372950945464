"""The log filter for widget values Streamlit cannot read (ui/serving/widget_log.py): one line
for such an exception, at most LINES a session a minute, every other record untouched."""
import logging
import sys

from ui.serving import widget_log

# an exception raised inside a frame of Streamlit's session_state.py that holds a widget's id
_SRC = "def decode(k, wstate):\n    return int(wstate)\n"
_code = compile(_SRC, "site-packages/streamlit/runtime/state/session_state.py", "exec")
_ns: dict = {}
exec(_code, _ns)


def crafted() -> BaseException:
    try:
        _ns["decode"]("$$ID-abc123-classical_mode", "9" * 5000)
    except ValueError as e:
        return e


def record(ex) -> logging.LogRecord:
    return logging.LogRecord(widget_log.LOGGER, logging.ERROR, __file__, 1, "Uncaught app execution",
                             (), (type(ex), ex, ex.__traceback__) if ex else None)


def test_a_crafted_value_becomes_one_line_naming_the_widget():
    f = widget_log.OneLine()
    r = record(crafted())
    assert widget_log.malformed_widget(r.exc_info[1]) == "$$ID-abc123-classical_mode"
    assert f.filter(r) and r.exc_info is None and r.levelname == "WARNING"
    assert r.getMessage().startswith("session ?: widget 'classical_mode' holds a value Streamlit "
                                     "cannot read (ValueError: Exceeds the limit")
    assert "\n" not in r.getMessage() and len(r.getMessage()) < 300


def test_any_other_exception_keeps_its_traceback():
    try:
        {}["missing"]
    except KeyError:
        ex = sys.exc_info()[1]
    r = record(ex)
    assert widget_log.malformed_widget(ex) is None
    assert widget_log.OneLine().filter(r) and r.exc_info is not None and r.levelname == "ERROR"
    assert widget_log.OneLine().filter(record(None))


def test_a_session_gets_so_many_lines_a_minute_and_the_last_says_so(monkeypatch):
    f = widget_log.OneLine(lines=3, window_s=60)
    clock = iter([0, 1, 2, 3, 4, 61, 62])
    monkeypatch.setattr(widget_log.time, "monotonic", lambda: next(clock))
    kept = [f.filter(r := record(crafted())) and r.getMessage() for _ in range(7)]
    assert [bool(k) for k in kept] == [True, True, True, False, False, True, True]
    assert kept[2].endswith("its further ones are not logged for 60 s") and "further" not in kept[0]


def test_it_forgets_the_longest_quiet_sessions(monkeypatch):
    f = widget_log.OneLine()
    for i in range(widget_log.MAX_SESSIONS + 50):
        f._count(f"s{i}", float(i))
    assert len(f._times) == widget_log.MAX_SESSIONS and "s0" not in f._times


def test_an_error_in_the_apps_own_callback_keeps_its_traceback(tmp_path):
    """A callback runs inside session_state.py's frames too: its error is the app's bug
    (a released upload read as DeletedFile raised AttributeError there) and keeps its traceback."""
    app_file = str(widget_log._APP) + "ui/store/_callback_for_test.py"
    callback = compile("def on_change():\n    return None.name\n", app_file, "exec")
    ns: dict = {}
    exec(callback, ns)
    caller = compile("def call(k, cb):\n    return cb()\n",
                     "site-packages/streamlit/runtime/state/session_state.py", "exec")
    exec(caller, ns)
    try:
        ns["call"]("$$ID-abc-q_uploader", ns["on_change"])
    except AttributeError as e:
        ex = e
    assert widget_log.malformed_widget(ex) is None
    r = record(ex)
    assert widget_log.OneLine().filter(r) and r.exc_info is not None

"""A small Streamlit client that speaks the browser's own websocket protocol, for load tests.

It does what the Streamlit frontend does, with Streamlit's own protobuf classes:

* HTTP: ``GET /`` and ``GET /_stcore/health`` first, keeping every cookie (the XSRF cookie
  ``_streamlit_xsrf``, and whatever sticky cookie a proxy sets), then the websocket
  ``/_stcore/stream`` with the subprotocol header ``streamlit, <xsrf token>``, the cookies
  and a same-origin ``Origin``.
* BackMsg ``rerun_script`` (a ``ClientState``: ``query_string``, ``page_name`` /
  ``page_script_hash``, ``widget_states``, ``fragment_id``, ``cached_message_hashes``,
  ``context_info``) to open a page, switch pages, click a button or change a widget.
  A widget's ``WidgetState`` is keyed by its element id, ``$$ID-<hash>-<user key>``;
  buttons send a ``trigger_value`` once; a widget drawn inside an ``st.fragment``
  (``Delta.fragment_id``) reruns only that fragment, as the browser does.
* BackMsg ``file_urls_request`` -> ForwardMsg ``file_urls_response``, then an HTTP PUT
  (multipart, header ``X-Xsrftoken``) to ``/_stcore/upload_file/<session>/<file id>``,
  then a rerun with a ``file_uploader_state_value``: what ``st.file_uploader`` does.
* ForwardMsgs read: ``new_session`` (session id), ``navigation`` (pages and their script
  hashes), ``page_info_changed`` (the query string the app wrote), ``delta``
  (``new_element`` / ``add_block`` at ``metadata.delta_path``; ``ref_hash`` resolved from
  the client's own cache of ``metadata.cacheable`` messages, whose hashes it sends back as
  the browser does), ``session_event`` (compilation errors), ``page_not_found`` and
  ``script_finished`` (the end of a run; ``FINISHED_EARLY_FOR_RERUN`` is skipped).

Every action returns a ``Run``: the wall time from send to ``script_finished``, the
exception elements and ``st.error`` texts the app showed. A server that closes the socket
raises ``Closed``; a run that does not finish in ``timeout`` seconds raises ``RunTimeout``.
``click`` / ``set_value`` with ``wait=False`` only send: ``wait_started()`` then reads until
the server has started the run (its ``new_session``), e.g. to close the socket mid-run or to
send the next rerun while this one executes, and ``settle()`` reads until the last run ends.
"""
from __future__ import annotations

import http.cookiejar
import json
import time
import urllib.request
import uuid
from dataclasses import dataclass, field

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ClientState_pb2 import ClientState
from streamlit.proto.Common_pb2 import FileURLs, UploadedFileInfo
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.NumberInput_pb2 import NumberInput
from streamlit.proto.WidgetStates_pb2 import WidgetState
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

FINISHED = ForwardMsg.ScriptFinishedStatus
TEXT_KINDS = {"markdown": "body", "heading": "body", "alert": "body", "text": "body",
              "code": "code_text"}


class StError(Exception):
    """A failed action: its message says what the client saw."""


class Closed(StError):
    """The server closed the websocket."""


class RunTimeout(StError):
    """No script_finished within the time-out."""


@dataclass
class Element:
    path: tuple           # the delta path, e.g. (0, 3, 1): 0 = main, 1 = sidebar
    kind: str             # the Element oneof: "button", "markdown", "exception", ...
    proto: object         # the element's own message (Button, Markdown, ...)
    fragment_id: str = ""

    @property
    def id(self) -> str:
        return getattr(self.proto, "id", "")

    @property
    def key(self) -> str | None:
        """The user key of a widget (the id is "$$ID-<hash>-<key>"), else None."""
        parts = self.id.split("-", 2)
        return parts[2] if len(parts) == 3 and parts[2] != "None" else None

    @property
    def label(self) -> str:
        return getattr(self.proto, "label", "")

    @property
    def text(self) -> str:
        if self.kind == "exception":  # with the app's innermost frame, when the server sends it
            frames = [s.strip() for s in self.proto.stack_trace
                      if s.strip().startswith("File") and "site-packages" not in s]
            return f"{self.proto.type}: {self.proto.message}" + (f" [{frames[-1]}]" if frames else "")
        return getattr(self.proto, TEXT_KINDS.get(self.kind, "label"), "")


def _key_of(msg: ForwardMsg) -> str | None:
    """The user key of the element a delta message draws (None for anything else)."""
    if msg.WhichOneof("type") != "delta" or msg.delta.WhichOneof("type") != "new_element":
        return None
    el = msg.delta.new_element
    kind = el.WhichOneof("type")
    return Element((), kind, getattr(el, kind)).key if kind else None


@dataclass
class Run:
    action: str
    seconds: float
    status: str
    errors: list[str] = field(default_factory=list)  # exception elements, st.error, page not found


class StClient:
    def __init__(self, base_url: str, timeout: float = 60.0):
        self.base = base_url.rstrip("/")
        self.timeout = timeout
        self.jar = http.cookiejar.CookieJar()
        self.http = urllib.request.build_opener(urllib.request.ProxyHandler({}),
                                                urllib.request.HTTPCookieProcessor(self.jar))
        self.ws = None
        self.session_id = ""
        self.query_string = ""
        self.page_hash = ""                 # the page script hash of the page shown
        self.pages: dict[str, str] = {}     # url_pathname -> page_script_hash
        self.auto_reruns: dict[str, float] = {}  # fragment id -> seconds: st.fragment(run_every=...)
        self.elements: dict[tuple, Element] = {}
        self.closed: str | None = None      # why the server closed the socket
        self._values: dict[str, WidgetState] = {}   # widget id -> state the "browser" holds
        self._cache: dict[str, ForwardMsg] = {}     # message hash -> cacheable ForwardMsg
        self.refs: list = []                         # the element keys the server sent as references to our cache
        self._pending: tuple | None = None          # an action sent with wait=False
        self.finishes: list[str] = []               # script_finished statuses, see settle()
        self.starts = 0                             # runs the server started (new_session)

    # ------------------------------------------------------------ connection
    def connect(self) -> float:
        """GET / and /_stcore/health (cookies), then open the websocket; returns seconds."""
        t0 = time.perf_counter()
        for path in ("/", "/_stcore/health"):
            with self.http.open(self.base + path, timeout=self.timeout) as r:
                r.read()
        xsrf = self._cookie("_streamlit_xsrf")
        headers = {"Cookie": "; ".join(f"{c.name}={c.value}" for c in self.jar)}
        self.ws = connect(self.base.replace("http", "ws", 1) + "/_stcore/stream",
                          origin=self.base, subprotocols=["streamlit"] + ([xsrf] if xsrf else []),
                          additional_headers=headers, proxy=None, open_timeout=self.timeout,
                          ping_interval=None, max_size=None, legacy=True)
        return time.perf_counter() - t0

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()

    def _cookie(self, name: str) -> str | None:
        return next((c.value for c in self.jar if c.name == name), None)

    # ------------------------------------------------------------ actions
    def open(self, page: str = "", query: str = "") -> Run:
        """What the browser does on loading /<page>?<query>: a rerun by page name."""
        self.query_string = query
        return self._rerun(f"open {page or 'home'}", page_name=page, page_hash="", fresh=True)

    def tick(self) -> list[Run]:
        """What the browser's timers do every interval: rerun each fragment the page asked to
        rerun (st.fragment(run_every=...)); a fragment that calls st.rerun reruns the page."""
        return [self._rerun("tick", fragment_id=fid) for fid in list(self.auto_reruns)]

    def rerun(self) -> Run:
        """A rerun of the page shown, as a fragment's timer or st.rerun asks for (a poll)."""
        return self._rerun("rerun")

    def switch_page(self, page: str) -> Run:
        """Follow an st.page_link / the sidebar navigation to `page` (its url path)."""
        if page not in self.pages:
            raise StError(f"no page {page!r}; the app has {sorted(self.pages)}")
        self.query_string = ""
        return self._rerun(f"switch {page}", page_name=page, page_hash=self.pages[page])

    def click(self, key: str, wait: bool = True) -> Run | None:
        """Press the button whose widget key is `key` (a trigger, sent once).
        wait=False: send only (see wait_started / settle)."""
        el = self.widget(key)
        if getattr(el.proto, "disabled", False):
            raise StError(f"button {key!r} is disabled")
        trigger = WidgetState(id=el.id, trigger_value=True)
        return self._rerun(f"click {key}", fragment_id=el.fragment_id, extra=[trigger], wait=wait)

    def set_value(self, key: str, value, wait: bool = True) -> Run | None:
        """Change a checkbox/toggle, slider, number_input, selectbox, radio, multiselect,
        segmented control or text input. Choices are given as the labels the page shows.
        wait=False: send only (see wait_started / settle)."""
        el = self.widget(key)
        ws = WidgetState(id=el.id)
        kind, p = el.kind, el.proto
        if kind == "checkbox":
            ws.bool_value = bool(value)
        elif kind == "slider" and not p.options:
            ws.double_array_value.data.extend(value if isinstance(value, (list, tuple)) else [value])
        elif kind == "number_input":
            if p.data_type == NumberInput.INT:
                ws.int_value = int(value)
            else:
                ws.double_value = float(value)
        elif kind in ("selectbox", "radio", "text_input", "text_area"):
            if kind in ("selectbox", "radio") and value not in p.options:
                raise StError(f"{key!r}: {value!r} is not one of {list(p.options)}")
            ws.string_value = str(value)
        elif kind in ("multiselect", "button_group", "slider"):
            ws.string_array_value.data.extend(value if isinstance(value, (list, tuple)) else [value])
        else:
            raise StError(f"set_value does not know the widget kind {kind!r} ({key!r})")
        self._values[el.id] = ws
        return self._rerun(f"set {key}", fragment_id=el.fragment_id, wait=wait)

    def upload(self, key: str, name: str, data: bytes, mime: str = "image/png") -> Run:
        """Upload one file into the st.file_uploader `key`, as the browser does."""
        el = self.widget(key)
        back = BackMsg()
        req = back.file_urls_request
        req.request_id, req.session_id = uuid.uuid4().hex, self.session_id
        req.file_names.append(name)
        t0 = time.perf_counter()
        self._send(back)
        resp = self._read_until(lambda m: m.WhichOneof("type") == "file_urls_response"
                                and m.file_urls_response.response_id == req.request_id, t0)
        urls = resp.file_urls_response.file_urls[0]
        self._put(urls.upload_url, name, data, mime)
        old = self._values.get(el.id)
        ws = WidgetState(id=el.id)
        if old is not None and el.proto.multiple_files:
            ws.file_uploader_state_value.CopyFrom(old.file_uploader_state_value)
        ws.file_uploader_state_value.uploaded_file_info.append(UploadedFileInfo(
            name=name, size=len(data), file_id=urls.file_id,
            file_urls=FileURLs(file_id=urls.file_id, upload_url=urls.upload_url,
                               delete_url=urls.delete_url)))
        self._values[el.id] = ws
        run = self._rerun(f"upload {key}", fragment_id=el.fragment_id)
        run.seconds = time.perf_counter() - t0
        return run

    def _put(self, url: str, name: str, data: bytes, mime: str) -> None:
        boundary = uuid.uuid4().hex
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; "
                f"filename=\"{name}\"\r\nContent-Type: {mime}\r\n\r\n").encode() + data + \
            f"\r\n--{boundary}--\r\n".encode()
        req = urllib.request.Request(self.base + url, data=body, method="PUT", headers={
            "Content-Type": f"multipart/form-data; boundary={boundary}",
            "X-Xsrftoken": self._cookie("_streamlit_xsrf") or ""})
        with self.http.open(req, timeout=self.timeout) as r:
            if r.status not in (200, 204):
                raise StError(f"upload PUT {url}: HTTP {r.status}")

    # ------------------------------------------------------------ what the page shows
    def widget(self, key: str) -> Element:
        for el in self.elements.values():
            if el.key == key:
                return el
        raise StError(f"no widget with key {key!r} on the page")

    def player(self, page: str) -> dict:
        """The payload the page sent its browser player (ui/player/browser.py): the run's frames,
        which the browser steps through without a message to the server."""
        for el in self.elements.values():
            if el.kind == "bidi_component" and el.key == f"{page}_player":
                return json.loads(el.proto.bytes.decode("utf-8"))
        raise StError(f"no player of {page!r} on the page")

    def has(self, key: str) -> bool:
        return any(el.key == key for el in self.elements.values())

    def texts(self, kind: str | None = None) -> list[str]:
        """Markdown, headings, alerts, text, code and exceptions, in delta-path order."""
        return [el.text for _, el in sorted(self.elements.items())
                if el.kind in TEXT_KINDS or el.kind == "exception" if kind in (None, el.kind)]

    def exceptions(self) -> list[str]:
        return self.texts("exception")

    def button_labels(self) -> list[str]:
        return [el.label for el in self.elements.values() if el.kind == "button"]

    # ------------------------------------------------------------ the protocol
    def _send(self, back: BackMsg) -> None:
        if self.closed:
            raise Closed(self.closed)
        try:
            self.ws.send(back.SerializeToString())
        except ConnectionClosed as e:
            self.closed = f"server closed the connection ({e})"
            raise Closed(self.closed) from e

    def _rerun(self, action: str, page_name: str | None = None, page_hash: str | None = None,
               fragment_id: str = "", extra: list[WidgetState] = (), fresh: bool = False,
               wait: bool = True) -> Run | None:
        back = BackMsg()
        cs: ClientState = back.rerun_script
        cs.query_string = self.query_string
        cs.page_script_hash = self.page_hash if page_hash is None else page_hash
        cs.page_name = page_name or ""
        cs.fragment_id = fragment_id
        if not fragment_id:  # a whole run: its fragments ask for their timers again
            self.auto_reruns = {}
        live = {el.id for el in self.elements.values() if el.id}
        if not fresh:  # not a new page load: send what the browser holds for the live widgets
            cs.widget_states.widgets.extend(v for i, v in self._values.items() if i in live)
        cs.widget_states.widgets.extend(extra)
        cs.cached_message_hashes.extend(self._cache)
        cs.context_info.timezone, cs.context_info.locale = "UTC", "en-US"
        cs.context_info.url = f"{self.base}/{page_name or ''}"
        t0 = time.perf_counter()
        self._send(back)
        if not wait:  # the caller reads the reply: wait_started() / settle()
            self._pending = (action, t0, fragment_id)
            return None
        return self._finish(action, t0, fragment_id)

    def _finish(self, action: str, t0: float, fragment_id: str) -> Run:
        """Read until the run ends (not FINISHED_EARLY_FOR_RERUN); apply what it drew."""
        run_elements: dict[tuple, Element] = {}
        errors: list[str] = []
        fin = self._read_until(lambda m: m.WhichOneof("type") == "script_finished"
                               and m.script_finished != FINISHED.FINISHED_EARLY_FOR_RERUN,
                               t0, run_elements, errors)
        seconds = time.perf_counter() - t0
        status = FINISHED.Name(fin.script_finished)
        if fin.script_finished == FINISHED.FINISHED_FRAGMENT_RUN_SUCCESSFULLY:
            frags = set(fin.metadata.run.fragment_ids) | {fragment_id}
            self.elements = {p: e for p, e in self.elements.items() if e.fragment_id not in frags}
            self.elements.update(run_elements)
        else:
            self.elements = run_elements
            live = {el.id for el in run_elements.values() if el.id}
            self._values = {i: v for i, v in self._values.items() if i in live}
        errors += [el.text for el in run_elements.values() if el.kind == "exception" or (
            el.kind == "alert" and el.proto.format == el.proto.ERROR)]
        return Run(action, seconds, status, errors)

    # ------------------------------------------------------------ runs that overlap
    def wait_started(self) -> None:
        """After an action sent with wait=False: read until the server starts a script run
        (its new_session message); the run is then executing on the server."""
        self._read_until(lambda m: m.WhichOneof("type") == "new_session", time.perf_counter())

    def settle(self, grace: float = 2.0) -> Run:
        """After actions sent with wait=False: read until a run ends and no new run starts
        within `grace` seconds; returns the last run. `Run.status` is the last run's;
        `self.finishes` lists every script_finished status the client has read and
        `self.starts` counts the runs started: a run stopped for a rerun (Streamlit 1.67
        sends no script_finished for it) shows as a start without a finish."""
        action, t0, fragment_id = self._pending
        while True:
            run = self._finish(action, t0, fragment_id)
            try:
                raw = self.ws.recv(timeout=grace)
            except TimeoutError:
                return run
            except ConnectionClosed as e:
                self.closed = f"server closed the connection ({e})"
                raise Closed(self.closed) from e
            msg = ForwardMsg()
            msg.ParseFromString(raw)
            self._apply(msg, {}, [])
            if msg.WhichOneof("type") != "new_session":
                return run  # a late message of the same run (e.g. page_info_changed)

    def _read_until(self, done, t0: float, run_elements: dict | None = None,
                    errors: list | None = None) -> ForwardMsg:
        """Read ForwardMsgs, applying each, until done(msg); bounded by self.timeout."""
        run_elements = {} if run_elements is None else run_elements
        errors = [] if errors is None else errors
        while True:
            left = self.timeout - (time.perf_counter() - t0)
            if left <= 0:
                raise RunTimeout(f"no reply within {self.timeout:.0f} s")
            try:
                raw = self.ws.recv(timeout=left)
            except TimeoutError:
                raise RunTimeout(f"no reply within {self.timeout:.0f} s") from None
            except ConnectionClosed as e:
                self.closed = f"server closed the connection ({e})"
                raise Closed(self.closed) from e
            msg = ForwardMsg()
            msg.ParseFromString(raw)
            if msg.WhichOneof("type") == "new_session":
                run_elements.clear()  # a new run (after one stopped early): a fresh page
            msg = self._apply(msg, run_elements, errors)
            if msg.WhichOneof("type") == "script_finished":
                self.finishes.append(FINISHED.Name(msg.script_finished))
            if done(msg):
                return msg

    def _apply(self, msg: ForwardMsg, run_elements: dict, errors: list) -> ForwardMsg:
        kind = msg.WhichOneof("type")
        if kind == "ref_hash":  # the server trusts our cache: take the body, keep the metadata
            cached = self._cache.get(msg.ref_hash)
            if cached is None:
                errors.append(f"ref_hash {msg.ref_hash} not in the client cache")
                return msg
            full = ForwardMsg()
            full.CopyFrom(cached)
            full.metadata.CopyFrom(msg.metadata)
            msg, kind = full, full.WhichOneof("type")
            self.refs.append(_key_of(full))  # sent as a reference to a message we hold
        elif msg.metadata.cacheable:
            self._cache[msg.hash] = msg
        if kind == "new_session":
            self.starts += 1
            self.session_id = msg.new_session.initialize.session_id or self.session_id
            self.page_hash = msg.new_session.page_script_hash or self.page_hash
        elif kind == "navigation":
            self.pages = {p.url_pathname: p.page_script_hash for p in msg.navigation.app_pages}
            self.page_hash = msg.navigation.page_script_hash
        elif kind == "page_info_changed":
            self.query_string = msg.page_info_changed.query_string
        elif kind == "auto_rerun":  # the browser reruns this fragment on a timer (see tick)
            self.auto_reruns[msg.auto_rerun.fragment_id] = msg.auto_rerun.interval
        elif kind == "page_not_found":
            errors.append(f"page not found: {msg.page_not_found.page_name!r}")
        elif kind == "session_event" and msg.session_event.HasField("script_compilation_exception"):
            e = msg.session_event.script_compilation_exception
            errors.append(f"{e.type}: {e.message}")
        elif kind == "delta":
            path = tuple(msg.metadata.delta_path)
            delta = msg.delta
            if delta.WhichOneof("type") == "new_element":
                el = delta.new_element
                ekind = el.WhichOneof("type")
                run_elements[path] = Element(path, ekind, getattr(el, ekind), delta.fragment_id)
            elif delta.WhichOneof("type") == "add_block":
                run_elements.pop(path, None)
        return msg


OK = {"FINISHED_SUCCESSFULLY", "FINISHED_FRAGMENT_RUN_SUCCESSFULLY"}  # a run that ended well


def opened(url: str, page: str = "", query: str = "", timeout: float = 60) -> StClient:
    """A new session on `page` with the link's `query`, its first run ended well."""
    c = StClient(url, timeout=timeout)
    c.connect()
    run = c.open(page, query)
    assert run.status in OK, run
    return c


def store_heading(c: StClient) -> str:
    """The sidebar's "Pattern store (n/40)" heading, or "" when the page shows none."""
    return next((t for t in c.texts("heading") if t.startswith("Pattern store")), "")

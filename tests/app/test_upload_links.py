"""Uploads named by links and uploads sent in bulk, through the real app (AppTest):

- a link that names an upload this server does not have yet works as soon as the file is
  uploaded, even by another process sharing the folder (a miss is never cached);
- a key with a final newline is not an upload name;
- the Energy Transformer page drops a link's `img` it cannot use, as every setting does;
- a tab may add only so many new images (a plain message names the limit and when more are
  allowed), and tabs flooding the store push out their own uploads, not the teacher's.
"""
import pytest

from tests.support.apptest import open_app
from tests.support.badfiles import encode, photo
from ui.store import upload_budget, upload_quota, uploads
from ui.store.uploads import UploadStore


@pytest.fixture
def folder(monkeypatch, tmp_path):
    """A fresh upload folder for this test's sessions (and its own store in this process)."""
    root = tmp_path / "uploads"
    monkeypatch.setenv(uploads.ROOT_ENV, str(root))
    return root


def png(seed: int) -> bytes:
    return encode(photo(seed=seed), "PNG")


def notes(at, text: str) -> list[str]:
    return [w.value for w in at.warning if text in w.value]


def link_of(at) -> dict:
    return {k: (v[-1] if isinstance(v, list) else v) for k, v in at.query_params.items()}


def errors(at) -> list[str]:
    return [e.value for e in at.error]


def store_size(at) -> int:
    return len(at.session_state["store"])


def q_image(at):
    try:
        return at.session_state["q_image"]
    except KeyError:
        return None


# ---------------------------------------------------------------- links

def test_a_link_to_an_upload_not_here_yet_works_once_it_is_uploaded(folder):
    data = png(1201)
    key = uploads.key_of(data)
    link = {"presets": f"letters/A,{key}", "q_image": key}
    before = open_app("classical", query=link)
    assert notes(before, "does not have")
    assert q_image(before) is None
    UploadStore(folder).put("late.png", data)  # the teacher's upload, by another process
    after = open_app("classical", query=link)
    assert not notes(after, "does not have")
    assert q_image(after) == key
    assert [s.key for s in after.session_state["store"]] == ["letters/A", key]


def test_a_key_with_a_final_newline_is_not_an_upload_name(folder):
    key = UploadStore(folder).put("q.png", png(1202))
    at = open_app("classical", query={"q_image": key + "\n"})
    said = notes(at, "not a valid upload name")
    assert said and f"`{key}`" in said[0] and "with a line break or a space around it" in said[0]
    assert q_image(at) is None
    assert "q_image" not in link_of(at)
    assert at.selectbox(key="q_index")  # the query starts from a stored pattern


def test_opening_a_link_keeps_its_uploads_over_anonymous_ones(folder):
    key, et_key = (UploadStore(folder).put(f"{n}.png", png(s)) for n, s in (("a", 1203), ("b", 1204)))
    store = uploads.default_store()
    open_app("classical", query={"presets": f"letters/A,{key}"})
    open_app("energy_transformer", query={"src": "upload", "img": et_key})
    assert store.path(key).with_suffix(".link").is_file()
    assert store.path(et_key).with_suffix(".link").is_file()


def test_the_et_page_drops_a_link_to_an_upload_it_lacks(folder):
    missing = "upload/" + "0" * 24
    at = open_app("energy_transformer", query={"src": "upload", "img": missing})
    said = notes(at, f"img = `{missing}`")
    assert said and "this server does not have that image" in said[0]
    assert "using no uploaded photo" in said[0]
    assert link_of(at).get("img", "") == ""  # not shared again
    assert any("Choose a preset photo or upload one" in i.value for i in at.info)
    assert not errors(at) and not at.exception


# ---------------------------------------------------------------- many uploads

@pytest.fixture
def quota3(monkeypatch, folder):
    monkeypatch.setattr(upload_quota, "FILES", 3)
    monkeypatch.setattr(uploads, "per_minute", lambda *a, **k: 1000)  # the class's budget: not here
    return folder


def upload(at, *named: tuple[str, bytes], key: str = "uploader"):
    files = [(name, data, "image/png") for name, data in named]
    at.file_uploader(key=key).set_value(files if key == "uploader" else files[0]).run()
    assert not at.exception, at.exception
    return at


def test_a_tab_may_add_so_many_new_images_and_is_told_when_more_are_allowed(quota3):
    at = open_app("classical")
    for i in range(3):
        upload(at, (f"s{i}.png", png(1300 + i)))
    assert store_size(at) == 6 and not errors(at)
    upload(at, ("s3.png", png(1303)))
    assert errors(at) == ["`s3.png` not stored: This tab has added 3 new images in the last 10 "
                          "minutes, the most one tab may add to the class's shared store; you can "
                          "upload more in 10 minutes. Presets and images already uploaded can "
                          "still be added."]
    assert store_size(at) == 6
    upload(at, ("s4.png", png(1304)), ("s5.png", png(1305)))
    assert len(errors(at)) == 1 and errors(at)[0].startswith("`s4.png` and 1 more not stored: ")
    upload(at, ("again.png", png(1300)))  # bytes the store holds: not counted
    assert not errors(at)
    upload(at, ("q.png", png(1306)), key="q_uploader")
    assert any("This tab has added 3 new images" in e for e in errors(at))
    other = upload(open_app("classical"), ("s3.png", png(1303)))  # another tab has its own
    assert not errors(other) and store_size(other) == 4


def test_a_flood_of_tabs_cannot_push_out_the_image_of_an_opened_link(quota3):
    teacher = upload(open_app("classical"), ("lesson.png", png(1400)))
    key = teacher.session_state["store"][-1].key
    open_app("classical", query=link_of(teacher))  # a student opens the teacher's link
    store = uploads.default_store()
    store.max_bytes = 4 * store.path(key).stat().st_size  # room for about four uploads
    flood = []
    for tab in range(4):  # each tab sends its quota, then more
        at = upload(open_app("classical"), *((f"f{tab}{i}.png", png(1410 + 10 * tab + i))
                                             for i in range(5)))
        assert "not stored" in errors(at)[0]
        flood += [s.key for s in at.session_state["store"][3:]]
    assert len(flood) == 12
    assert store.has(key)
    assert sum(store.has(k) for k in flood) <= 3  # the flood pushed out its own


# ---------------------------------------------------------------- an upload that goes

def vanish(key: str) -> None:
    """The store drops an upload (pruned, or deleted by another process), and this process's
    in-memory copy of it goes too, as it does when its cache entry is evicted."""
    from ui.store import store
    uploads.default_store().path(key).unlink()
    store._stored_pixels.clear()


def test_an_upload_removed_while_the_query_uses_it_is_named_as_removed(folder):
    at = upload(open_app("classical"), ("query.png", png(1501)), key="q_uploader")
    key = q_image(at)
    assert key and not errors(at)
    vanish(key)
    at.run()
    assert errors(at) == ["The uploaded image the query was made from is no longer in this "
                          "server's store of uploads: it was removed (uploads are kept for 30 "
                          "days, and a full store removes its oldest first). Upload it again."]
    assert q_image(at) is None and at.selectbox(key="q_index")  # back to a stored pattern
    assert not any("link" in e for e in errors(at))


def test_an_upload_removed_while_the_et_page_completes_it_is_named_as_removed(folder):
    at = open_app("energy_transformer", query={"src": "upload"})
    at.file_uploader(key="energy_transformer_upload").set_value(("mine.png", png(1502), "image/png")).run()
    key = link_of(at).get("img")
    assert key and not errors(at)
    vanish(key)
    at.run()
    said = errors(at)
    assert said and said[0].startswith("The uploaded image this page was completing is no longer "
                                       "in this server's store of uploads: it was removed")
    assert "link" not in said[0] and not at.exception


@pytest.mark.parametrize("uploader", ["uploader", "q_uploader"])
def test_an_upload_gone_again_at_once_is_named_by_its_file(folder, monkeypatch, uploader):
    """A store that drops the file in the same put (a full store, another process): the
    uploaders said "The link names an uploaded image ..." (the sidebar) or nothing (the query)."""
    put = UploadStore.put

    def put_then_lose(self, filename, data):
        key = put(self, filename, data)
        self.path(key).unlink()
        return key

    monkeypatch.setattr(UploadStore, "put", put_then_lose)
    at = upload(open_app("classical"), ("gone.png", png(1503)), key=uploader)
    said = errors(at) + [w.value for w in at.warning] + [i.value for i in at.info]
    wanted = ("The uploaded image `gone.png` is no longer in this server's store of uploads: it "
              "was removed (uploads are kept for 30 days, and a full store removes its oldest "
              "first). Upload it again.")
    assert wanted in said, said
    assert not any("link" in s for s in said)


def test_the_classs_budget_refuses_in_words_and_does_not_count_against_the_tab(folder, monkeypatch):
    """Issue 44: new sessions could not reset a server-wide budget. A new tab (opened under a
    minute ago) gets the new tabs' half of it; its refused image does not use its own quota."""
    monkeypatch.setattr(uploads, "per_minute", lambda *a, **k: 4)
    at = upload(open_app("classical"), ("b0.png", png(1601)), ("b1.png", png(1602)))
    assert not errors(at) and store_size(at) == 5
    upload(at, ("b2.png", png(1603)))
    said = errors(at)
    assert said and said[0].startswith("`b2.png` not stored: Tabs opened in the last minute are "
                                       "sending many new images, more than the class's shared "
                                       "store takes in from new tabs (2 a minute)")
    assert len(at.session_state["_upload_quota"].times) == 2  # the refused one given back
    ledger = folder / upload_budget.FOLDER
    before = sorted(ledger.iterdir())
    upload(at, ("notes.png", b"%PDF-1.4 not an image"))  # a file that does not decode ...
    assert sorted(ledger.iterdir()) == before  # ... costs the class's budget nothing
    at.session_state["_upload_quota"].times.pop()  # (its tab's quota, as ever: given back here)
    at.session_state["_tab_opened"] -= 120  # the same tab two minutes on: no longer new
    upload(at, ("b2.png", png(1603)), ("b3.png", png(1604)))
    assert store_size(at) == 7
    upload(at, ("b4.png", png(1605)))
    assert "as fast as it allows (4 a minute from all tabs together" in errors(at)[0]


def test_every_uploader_says_what_the_server_keeps_and_for_how_long(folder):
    """docs/privacy.md's row, on screen where an image is given: the days come from the store."""
    from ui.store.store import KEPT_WORDS
    assert f"for {uploads.MAX_AGE_S // 86400} days (longer while a link to it is opened every " \
           f"{uploads.LINKED_S // 86400} days)" in KEPT_WORDS and "30 days" in KEPT_WORDS
    assert f"{uploads.KEEP} x {uploads.KEEP} picture with its file name" in KEPT_WORDS
    at = open_app("classical")
    for key in ("uploader", "q_uploader"):
        assert KEPT_WORDS in at.file_uploader(key=key).help
    et = open_app("energy_transformer", query={"src": "upload"})
    assert KEPT_WORDS in et.file_uploader(key="energy_transformer_upload").help

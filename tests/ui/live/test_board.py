"""The live class's board (ui/live/board.py): the QR code holds the join link (read back by
OpenCV's QR decoder, an implementation independent of segno's encoder), and the histogram shows
counts and shares per option, the model's answer marked after the reveal."""
import numpy as np
import pytest

from ui.live import board

cv2 = pytest.importorskip("cv2", reason="opencv-python-headless (requirements-dev.txt) decodes the QR codes")


def decode(png: bytes) -> str:
    img = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_GRAYSCALE)
    text, _, _ = cv2.QRCodeDetector().detectAndDecode(img)
    return text


@pytest.mark.parametrize("root", ["http://192.168.1.20:8501", "http://localhost:8501/",
                                  "https://school.example.org/hopfield/app", "http://[::1]:8501"])
def test_the_qr_code_reads_back_as_the_join_link(root):
    url = board.join_url(root, "K7M2QX")
    assert url.endswith("/?join=K7M2QX") and "//?" not in url.replace("://", "")
    png = board.qr_png(url)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert decode(png) == url


def test_the_qr_code_is_large_enough_for_a_projector():
    """At QR_SCALE px a module a version-3 code with its quiet zone is (29 + 8) x 8 = 296 px."""
    import io

    from PIL import Image

    img = Image.open(io.BytesIO(board.qr_png(board.join_url("http://192.168.1.20:8501", "K7M2QX"))))
    assert img.size[0] == img.size[1] >= 296


OPTIONS = [("stored", "The stored pattern nearest the query"), ("mirror", "Its mirror image"),
           ("mixture", "A mixture of three"), ("not_sure", "Not sure yet")]


def test_the_histogram_counts_and_shares_every_option_in_order():
    fig = board.histogram({"mirror": 3, "stored": 6, "mixture": 1}, OPTIONS)
    bar = fig.data[0]
    assert list(bar.y) == [label for _, label in OPTIONS] and list(bar.x) == [6, 3, 1, 0]
    assert list(bar.text) == ["6 (60%)", "3 (30%)", "1 (10%)", "0 (0%)"]
    assert fig.layout.title.text == "Predictions so far: 10"
    assert len(set(bar.marker.color)) == 1  # nothing marked before the reveal
    assert list(fig.layout.yaxis.ticktext)[0] == "The stored pattern nearest the query"


def test_after_the_reveal_the_models_answer_is_marked_with_the_class_share():
    fig = board.histogram({"mirror": 3, "stored": 6, "mixture": 1}, OPTIONS, right="mirror")
    colours = list(fig.data[0].marker.color)
    assert colours[1] != colours[0] and colours[0] == colours[2] == colours[3]
    assert fig.layout.title.text.replace("<br>", " ") == "30% chose the model's answer (10 predictions)"


def test_an_option_the_list_no_longer_names_is_still_counted_and_an_empty_class_draws():
    fig = board.histogram({"old_option": 2}, OPTIONS[:2])
    assert list(fig.data[0].y)[-1] == "old_option" and list(fig.data[0].x) == [0, 0, 2]
    empty = board.histogram({}, OPTIONS)
    assert list(empty.data[0].x) == [0, 0, 0, 0] and empty.layout.title.text == "Predictions so far: 0"

"""On a phone (390 x 844): the attention iterates' labels neither collide nor run past their
chart, a table's toolbar (shown on a tap) covers no control above it, and a link's banner starts
under the page's header, not behind it. Each was seen on a phone before (issue 47)."""
from tests.support.browser import assert_healthy, goto, shot, wait_idle

PHONE = {"width": 390, "height": 844}


def _overlap(a, b) -> float:
    """The area two boxes [left, top, right, bottom] share."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return max(w, 0) * max(h, 0)


BOXES = """(sel) => [...document.querySelectorAll(sel)].map(e => e.getBoundingClientRect())
  .filter(r => r.width > 0).map(r => [r.left, r.top, r.right, r.bottom])"""


def test_the_attention_iterates_labels_keep_apart_inside_their_chart(page, server):
    page.set_viewport_size(PHONE)
    goto(page, server, "attention")
    strip = ".st-key-attention_strip"
    page.locator(f"{strip} image").first.scroll_into_view_if_needed()
    wait_idle(page)
    labels = page.evaluate(BOXES, f"{strip} .annotation-text")
    (svg,) = page.evaluate(BOXES, f"{strip} svg.main-svg")[:1]
    assert len(labels) == 11  # the query and t = 1 .. 10
    for i, a in enumerate(labels):
        assert a[0] >= svg[0] - 1 and a[2] <= svg[2] + 1 and a[1] >= svg[1] - 1, (a, svg)
        for b in labels[i + 1:]:
            assert _overlap(a, b) == 0, (a, b)
    shot(page, "phone_attention_strip")
    assert_healthy(page)


def test_a_tables_toolbar_covers_no_button_above_it(page, server):
    page.set_viewport_size(PHONE)
    goto(page, server, "landscape")
    table = page.locator("[data-testid=stDataFrame]").first
    table.hover()
    page.locator("[data-testid=stElementToolbar]").first.wait_for()
    page.wait_for_timeout(400)
    (bar,) = page.evaluate(BOXES, "[data-testid=stElementToolbar]")[:1]
    buttons = page.evaluate(BOXES, ".st-key-landscape_view button")
    assert len(buttons) == 4
    assert all(_overlap(bar, b) == 0 for b in buttons), (bar, buttons)
    shot(page, "phone_landscape_table_toolbar")


def test_a_links_banner_starts_under_the_header(page, server):
    page.set_viewport_size(PHONE)
    goto(page, server, "modern?betta=5")
    banner = page.locator("[data-testid=stAlert]").filter(has_text="betta").first
    banner.wait_for()
    (header,) = page.evaluate(BOXES, "[data-testid=stHeader]")
    top = page.evaluate(BOXES, "[data-testid=stAlert]")[0][1]
    assert top >= header[3], f"the banner starts at {top} px, the header ends at {header[3]} px"
    shot(page, "phone_link_banner")

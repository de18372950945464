"""Every field of every page reads any link text without raising (issue 44: `rows=0,9` raised a
TypeError in the range's message): a property test over the settings declarations. Whatever
the text, the value used reads back cleanly from the address bar, and a message is one whole
sentence with no Python error text in it."""
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.link_values import CATEGORIES, hostile
from ui import pages
from ui.settings.fields import UNREADABLE, LinkValueError
from ui.store.shared_settings import SIDEBAR

DECLARED = {"sidebar": SIDEBAR, **{p.file: pages.settings_of(p.file) for p in pages.PAGES if p.settings}}
FIELDS = [pytest.param(f, id=f"{page}.{f.key}") for page, S in DECLARED.items()
          for f in S.fields.values() if f.kind != "kept"]  # kept: the store's own parsers (test_link_fields)
PYTHON = re.compile(r"invalid literal|could not convert|object is not|not subscriptable|Traceback|"
                    r"Error\b|unsupported operand|has no attribute|NoneType|\bint\(\)|\bfloat\(\)")


def part():
    """One part of a link value: numbers of any size and sign, text, digits of other scripts."""
    return st.one_of(st.integers(-10 ** 12, 10 ** 12).map(str), st.floats(allow_nan=True).map(repr),
                     st.sampled_from(["", " ", "x", "²", "١", "½", "1e999", "-0", "+3", "0x10", "1_000"]),
                     st.text(max_size=6))


def texts():
    return st.one_of(st.text(max_size=50), st.lists(part(), max_size=4).map(",".join),
                     st.lists(st.lists(part(), max_size=3).map(",".join), max_size=3).map(";".join))


def check(f, raw: str) -> None:
    value, problem = f.parse(raw)
    assert f.parse(f.shown(value))[1] is None, (f.key, raw, value)  # the address bar reads back clean
    if problem:
        message = f.message(raw, problem, value)
        assert re.fullmatch(r"The link (sets|gives) .+; using \S.*\.", message, flags=re.S), message
        assert not PYTHON.search(outside_code(message)), message


def outside_code(text: str) -> str:
    return re.sub(r"(`+)(?:(?!\1).)*?\1", "", text, flags=re.S)


@pytest.mark.parametrize("f", FIELDS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=texts())
def test_any_link_text_reads_as_a_usable_value_or_one_plain_sentence(f, raw):
    check(f, raw)


@pytest.mark.parametrize("f", FIELDS)
@pytest.mark.parametrize("category", CATEGORIES)
def test_each_part_out_of_range_reversed_empty_or_not_a_number(f, category):
    check(f, hostile(f, category))


@pytest.mark.parametrize("raw", ["0,9", "-1,3", "9,9", "100,0", "3,1", "1,", ",", "²,3", "1,2,3"])
def test_the_et_pages_ranges_say_their_bounds_in_numbers(raw):
    """The links of issue 44's crash, each read with the range's bounds in its sentence."""
    f = DECLARED["energy_transformer"].fields["rows"]
    value, problem = f.parse(raw)
    assert problem and f.message(raw, problem, value).endswith(f"using {value[0]} to {value[1]}.")
    if "outside" in problem:
        assert problem == f"is outside {int(f.lo)} to {int(f.hi)}"


def test_a_parser_s_own_reason_is_said_and_python_s_is_not():
    """A custom field's parser says why in a LinkValueError; any other failure of it is named
    without Python's words (`iteration=²` showed "invalid literal for int() with base 10")."""
    f = DECLARED["transformer_heads"].fields["iteration"]
    assert f.parse("²") == (0, "could not be read (it should be a whole number from 0 to 200)")
    crash = f.__class__(**{**f.__dict__, "parser": lambda text: int(text)})
    assert crash.parse("²") == (0, UNREADABLE)
    said = crash.__class__(**{**f.__dict__, "parser": lambda text: (_ for _ in ()).throw(LinkValueError("no"))})
    assert said.parse("1") == (0, "could not be read (no)")

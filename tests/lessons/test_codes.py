"""Lesson codes, teacher keys and student ids: random, unambiguous, checked."""
import re

import pytest

from ui.lessons import codes


def test_a_code_has_six_characters_and_none_that_look_alike():
    made = {codes.new_code() for _ in range(2000)}
    assert len(made) > 1990  # random: 887 million codes
    used = set("".join(made))
    assert not used & set("0O1IL")
    assert used <= set(codes.ALPHABET) and len(codes.ALPHABET) == 31
    assert all(len(c) == 6 for c in made)


@pytest.mark.parametrize("typed, clean", [
    ("abc234", "ABC234"), (" ABC-234 ", "ABC234"), ("abc 234", "ABC234"),
    ("ABC23", None), ("ABC2345", None), ("ABCO34", None), ("ABC134", None), ("ABCL34", None),
    ("", None), (None, None), (123456, None), ("<b>ABC234</b>", None), ("x" * 10_000, None),
    ("ＡＢＣ２３４", None),  # full-width letters are not the code's
])
def test_a_typed_code_is_cleaned_or_refused(typed, clean):
    assert codes.clean_code(typed) == clean


def test_a_teacher_key_is_128_bits_and_only_its_hash_is_compared():
    key = codes.new_key()
    assert re.fullmatch(r"[0-9a-f]{32}", key)
    stored = codes.key_hash(key)
    assert stored != key and len(stored) == 64
    assert codes.key_matches(key, stored)
    assert not codes.key_matches(codes.new_key(), stored)
    for bad in (None, "", key.upper(), key + "0", key[:-1], stored, 12, ["x"]):
        assert not codes.key_matches(bad, stored)


def test_a_student_id_is_random_and_checked():
    ids = {codes.new_student() for _ in range(1000)}
    assert len(ids) == 1000 and all(codes.is_student(s) for s in ids)
    for bad in (None, "", "short", "a" * 17, "a" * 15 + "!", "<script>alert(1)</script>"):
        assert not codes.is_student(bad)

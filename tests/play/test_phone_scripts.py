"""The phone's page code is plain scripts that one include loads in order
(templates/play/_bunco_scripts.html; js/bunco.js says what each file does): every
js/bunco*.js file is loaded there once, js/bunco.js first (it makes the object the others
share) and js/bunco-page.js last (it starts sending taps once every file is in)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
INCLUDE = ROOT / "templates" / "play" / "_bunco_scripts.html"
TAG = re.compile(r"""<script src="\{% static 'js/(bunco[^']*)' %\}" defer></script>""")


def test_every_bunco_script_is_loaded_once_the_shared_one_first_the_starter_last():
    loaded = TAG.findall(INCLUDE.read_text(encoding="utf-8"))
    on_disk = sorted(path.name for path in (ROOT / "static" / "js").glob("bunco*.js"))
    assert sorted(loaded) == on_disk
    assert loaded[0] == "bunco.js" and loaded[-1] == "bunco-page.js"


def test_the_phone_pages_and_the_live_board_load_them_through_the_include():
    for name in ("_base.html", "live.html"):
        page = (ROOT / "templates" / "play" / name).read_text(encoding="utf-8")
        assert page.count('{% include "play/_bunco_scripts.html" %}') == 1, name
        assert "js/bunco" not in "".join(re.findall(r"<script[^>]*>", page)), name

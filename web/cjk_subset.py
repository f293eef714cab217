#!/usr/bin/python3
"""The Noto Sans CJK faces the browser build ships (make web), cut down to the characters
AttnViz itself shows: every character of the catalogues (assets/lang), the lessons
(assets/lessons) and the models' cards and vocabularies (assets/models). The full
collection is 19 MB; the cut one holds the SC and TC faces (cjk_font.cpp picks them by
family name, as on the desktop) for those characters only. A character outside it that a
user types is drawn as a box with a note in the status line (README "In the browser").

    web/cjk_subset.py OUT.ttc [REPO]      (Debian's python3-fonttools, fonts-noto-cjk)
"""
import glob
import json
import os
import sys

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

SOURCE = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
FAMILIES = ("Noto Sans CJK SC", "Noto Sans CJK TC")


def strings(value):
    """Every string in a JSON value, keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def shown_characters(repo):
    # Read as JSON, not as text: a model's vocabulary may be written with \uXXXX escapes
    # (Python's json.dump), and its characters are shown all the same.
    text = set()
    for pattern in ("assets/lang/*.json", "assets/lessons/*.json", "assets/models/*.json"):
        for path in sorted(glob.glob(os.path.join(repo, pattern))):
            with open(path, encoding="utf-8") as f:
                for s in strings(json.load(f)):
                    text.update(c for c in s if ord(c) > 0x7F)
    return "".join(sorted(text))


def cut_face(index, characters):
    font = TTFont(SOURCE, fontNumber=index, lazy=False)
    options = subset.Options()
    options.name_IDs = ["*"]          # the family name the app looks faces up by
    options.name_languages = ["*"]
    options.layout_features = ["*"]   # vertical forms and locale variants stay as Noto has them
    options.hinting = False           # ImGui's rasteriser ignores hints
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=characters)
    subsetter.subset(font)
    return font


def main():
    out = sys.argv[1]
    repo = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    characters = shown_characters(repo)
    faces = []
    for index, font in enumerate(TTCollection(SOURCE).fonts):
        if font["name"].getDebugName(1) in FAMILIES:
            faces.append(cut_face(index, characters))
    if len(faces) != len(FAMILIES):
        print("cjk_subset.py: %s lacks %s" % (SOURCE, ", ".join(FAMILIES)), file=sys.stderr)
        return 1
    collection = TTCollection()
    collection.fonts = faces
    collection.save(out + ".tmp")
    os.replace(out + ".tmp", out)
    print("cjk_subset.py: %d characters, %s: %d KB" % (len(characters), out, os.path.getsize(out) // 1024))
    return 0


if __name__ == "__main__":
    sys.exit(main())

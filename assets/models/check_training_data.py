#!/usr/bin/python3
"""Checks that re-running train.py writes what the committed models were made from and what
the loader reads, without training (tests/test_model_training_data.cpp runs it):

  1. add_zh_text turns each card's English fields into exactly the committed card's
     per-language objects and example_<lang> fields (app/io/model_card.cpp reads those);
  2. each card's token_unit and script_forms are what train.py's vocabulary_facts writes;
  3. the sentence generators (tasks.py, tasks_zh.py) still draw the sentences the models were
     trained and measured on: a hash of 3000 training and 3000 held-out sentences per model,
     drawn with a fixed seed, is the one taken before the generators were shared.

Exit 0 when both hold, else 1 with what differs.  Needs Debian's python3-torch and numpy.
"""

import copy
import hashlib
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import numpy as np  # noqa: E402
import tasks  # noqa: E402
import tasks_zh  # noqa: E402
import train  # noqa: E402

# sha256 (first 16 hex digits) of sentence_digest(...) for each model, taken at commit 28522d9.
SENTENCE_DIGESTS = {"tiny-lm": "008247564489fb0e", "tiny-lm-zh": "2618b2a04f6cab2d"}


def english_only(card):
    """The card as build() has it before add_zh_text: English strings, no example_<lang>."""
    plain = copy.deepcopy(card)
    for key in list(plain):
        if isinstance(plain[key], dict) and "en" in plain[key]:
            plain[key] = plain[key]["en"]
        if key in ["example_" + lang for lang in train.ZH_LANGS]:
            del plain[key]
    for claim in plain["head_claims"]:
        if isinstance(claim["claim"], dict):
            claim["claim"] = claim["claim"]["en"]
    return plain


def check_zh_cards():
    problems = []
    for name, cfg in train.MODELS.items():
        if "zh_text" not in cfg:
            continue
        with open(os.path.join(HERE, name + ".json"), encoding="utf-8") as f:
            committed = json.load(f)
        card = english_only(committed)
        train.add_zh_text(card, cfg)
        if json.dumps(card, ensure_ascii=False) != json.dumps(committed, ensure_ascii=False):
            differ = sorted(k for k in set(card) | set(committed) if card.get(k) != committed.get(k))
            problems.append("%s: add_zh_text writes other %s than the committed card" % (name, ", ".join(differ)))
    return problems


def check_vocabulary_facts():
    """Each committed card's token_unit and script_forms are what train.py writes."""
    problems = []
    for name, cfg in train.MODELS.items():
        with open(os.path.join(HERE, name + ".json"), encoding="utf-8") as f:
            committed = json.load(f)
        for key, value in train.vocabulary_facts(cfg).items():
            if committed.get(key) != value:
                problems.append("%s: the card's %s is not what train.py writes (%s)" % (name, key, json.dumps(value, ensure_ascii=False)))
    return problems


def sentence_digest(batch, max_len):
    h = hashlib.sha256()
    for want_held_out in (False, True):
        ids, sents = batch(np.random.RandomState(5), 3000, max_len, want_held_out)
        h.update(ids.tobytes())
        for s in sents:
            h.update(repr(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in vars(s).items())).encode())
    return h.hexdigest()[:16]


def check_sentences():
    got = {"tiny-lm": sentence_digest(tasks.lm_batch, 16), "tiny-lm-zh": sentence_digest(tasks_zh.zh_batch, 20)}
    return ["%s: the generator now draws other sentences (digest %s, trained on %s)" % (name, got[name], want)
            for name, want in SENTENCE_DIGESTS.items() if got[name] != want]


def main():
    problems = check_zh_cards() + check_vocabulary_facts() + check_sentences()
    for p in problems:
        print("FAILED: " + p)
    if not problems:
        print("ok: the cards' Chinese text and both generators' sentences are what the models were made from")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

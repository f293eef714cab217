"""Training data and head measurements for tiny-lm-zh, the Chinese character-level model.

Each sentence is drawn in simplified characters and then, for half of them, written in
traditional characters (TO_TRADITIONAL), so one vocabulary holds both forms:
小狗看见了小猫，它跑了。 and 小狗看見了小貓，它跑了。 are both training sentences.
Every character (and the full-width ，。) is one token; <bos> goes in front.
Held-out sentences are picked by tasks.held_out (a hash of the token ids, one in ten).
"""

import numpy as np

from tasks import SPECIALS, MetricSums, sentence_batch, two_counts

# Every character below that differs between the scripts, simplified -> traditional.
TO_TRADITIONAL = {"见": "見", "欢": "歡", "帮": "幫", "红": "紅", "丽": "麗", "伟": "偉",
                  "张": "張", "猫": "貓", "鸟": "鳥", "马": "馬", "后": "後", "垫": "墊",
                  "飞": "飛", "发": "發"}



def script_forms(vocab):
    """The card's "script_forms" (app/io/model_card.cpp): for each script, the tokens of `vocab`
    written in the other one and their form in this one, so a window in zh-Hant shows 貓 where
    the model predicts 猫 (and zh-Hans 猫 for 貓). Only pairs whose both forms are tokens."""
    pairs = sorted((s, t) for s, t in TO_TRADITIONAL.items() if s in vocab and t in vocab)
    return {"zh-Hans": {t: s for s, t in pairs}, "zh-Hant": {s: t for s, t in pairs}}


MALE = ["小明", "大伟", "张三", "李四"]
FEMALE = ["小红", "丽丽", "小美", "王芳"]
ANIMALS = ["小狗", "小猫", "小鸟", "小马"]
TRANS = ["看见了", "喜欢", "帮了", "追了", "叫了"]
PLACES = ["桌子", "椅子", "床", "垫子", "沙发"]
POSTURE = ["坐在", "躺在", "站在"]
NUMBERS = ["一", "二", "三", "四", "五", "六", "七", "八", "九", "十"]
# Each subject has one habit: the verb after "，PRONOUN" is the subject's own, so the
# pronoun must look back at its subject (the object has another habit).
HABIT = {"小明": "笑", "大伟": "跑", "张三": "睡", "李四": "走",
         "小红": "跳", "丽丽": "哭", "小美": "睡", "王芳": "走",
         "小狗": "跑", "小猫": "睡", "小鸟": "飞", "小马": "跳"}
PRONOUN = {**{n: "他" for n in MALE}, **{n: "她" for n in FEMALE}, **{n: "它" for n in ANIMALS}}
# How often each kind of sentence is drawn.
KIND_SHARES = [("pronoun", 0.40), ("counts", 0.30), ("repeat", 0.15), ("place", 0.15)]


def _characters():
    simplified = set("".join(MALE + FEMALE + ANIMALS + TRANS + PLACES + POSTURE + NUMBERS)
                     + "".join(HABIT.values()) + "他她它了然后上，。")
    both = simplified | {TO_TRADITIONAL.get(c, c) for c in simplified}
    return sorted(both)


ZH_VOCAB = SPECIALS + _characters()
TRANS_CHARS = {TO_TRADITIONAL.get(c, c) for c in "".join(TRANS)} | set("".join(TRANS))


class Sentence:
    """Characters plus the positions (in the <bos>-prefixed token list) a head metric needs."""

    def __init__(self):
        self.chars = []
        self.kind = ""
        self.subject = None      # position of the subject's last character (狗 of 小狗)
        self.object = None       # position of the object's last character
        self.pronoun = None      # position of 他 / 她 / 它 ("pronoun" sentences)
        self.connector = None    # position of 后 / 後 of 然后 ("repeat" sentences)

    def add(self, text):
        self.chars.extend(text)
        return len(self.chars)   # position of text's last character once <bos> is prepended


def _entity(rng):
    group = [MALE, FEMALE, ANIMALS][rng.randint(3)]
    return group[rng.randint(len(group))]


def _kind(rng):
    bounds = np.cumsum([share for _, share in KIND_SHARES])
    return KIND_SHARES[min(int(np.searchsorted(bounds, rng.rand(), side="right")), len(KIND_SHARES) - 1)][0]


def _subject_verb_object(rng, s):
    """小狗追了小明: two different entities around a verb, added to s (subject and object
    positions set); returns them, or None when the draw gave the same entity twice."""
    subject, obj = _entity(rng), _entity(rng)
    if subject == obj:
        return None
    s.subject = s.add(subject)
    s.add(TRANS[rng.randint(len(TRANS))])
    s.object = s.add(obj)
    return subject, obj


def zh_sentence(rng):
    s = Sentence()
    s.kind = _kind(rng)
    if s.kind == "pronoun":
        # 小明看见了小猫，他笑了。  The pronoun agrees with the subject; the verb is the subject's habit.
        subject, obj = _subject_verb_object(rng, s) or (None, None)
        if subject is None:
            return zh_sentence(rng)
        s.add("，")
        s.pronoun = s.add(PRONOUN[subject])
        s.add(HABIT[subject] + "了。")
    elif s.kind == "counts":
        # 三七四八五九。  Two counts take turns: each number is one more than the one two places
        # back, so only the character before the current one tells the next.
        counted = two_counts(rng, NUMBERS, 6)
        if counted is None:
            return zh_sentence(rng)
        s.add("".join(counted) + "。")
    elif s.kind == "repeat":
        # 小狗追了小明，然后小明帮了小狗。  (the names come back: predictable only by copying)
        first, second = _subject_verb_object(rng, s) or (None, None)
        if first is None:
            return zh_sentence(rng)
        s.connector = s.add("，然后")
        s.add(second + TRANS[rng.randint(len(TRANS))] + first + "。")
    else:
        # 小猫坐在垫子上。
        s.subject = s.add(_entity(rng))
        s.add(POSTURE[rng.randint(len(POSTURE))] + PLACES[rng.randint(len(PLACES))] + "上。")
    if rng.rand() < 0.5:
        s.chars = [TO_TRADITIONAL.get(c, c) for c in s.chars]
    return s


def encode_zh(chars):
    index = {c: i for i, c in enumerate(ZH_VOCAB)}
    return [index["<bos>"]] + [index[c] for c in chars]


def zh_batch(rng, n, max_len, want_held_out):
    """Returns ids (n, max_len) padded with <pad> (0), and the Sentence objects."""
    return sentence_batch(rng, n, max_len, want_held_out, zh_sentence, lambda s: encode_zh(s.chars))


def zh_head_metrics(weights, ids, sents):
    """weights: (B, H, L, L) of one layer.  Returns {metric: (H,) mean over the places it applies}."""
    sums = MetricSums(weights.shape[1])
    for n in range(weights.shape[0]):
        toks = [t for t in ids[n] if t != 0]
        w = weights[n]                                   # (H, L, L)
        for t in range(2, len(toks)):                    # from character 2 on, so previous != <bos>
            sums.add_position_metrics(w, t)
        s = sents[n]
        if s.kind == "pronoun":
            sums.add("comma_to_subject", w[:, s.pronoun - 1, s.subject])
            sums.add("pronoun_to_subject", w[:, s.pronoun, s.subject])
        if s.kind == "repeat":
            sums.add("then_to_object", w[:, s.connector, s.object])
    return sums.means()


# One line each on the card, in English and in both Chinese scripts.
ZH_METRIC_TEXT = {
    "previous_token": ("looks at the previous character (weight on t-1)",
                       "看前一个字（位置 t-1 上的权重）", "看前一個字（位置 t-1 上的權重）"),
    "first_token": ("rests on the first token <bos> (weight on position 0)",
                    "停在第一个词元 <bos> 上（位置 0 上的权重）", "停在第一個 token <bos> 上（位置 0 上的權重）"),
    "self": ("looks at its own character (weight on t)",
             "看自己这个字（位置 t 上的权重）", "看自己這個字（位置 t 上的權重）"),
    "comma_to_subject": ("from the comma '，', looks at the subject",
                         "从逗号“，”回看主语", "從逗號「，」回看主詞"),
    "pronoun_to_subject": ("from the pronoun (他 / 她 / 它), looks back at its subject",
                           "从代词（他 / 她 / 它）回看它指的主语", "從代名詞（他 / 她 / 它）回看它指的主詞"),
    "then_to_object": ("from '然后', looks at the object named next",
                       "从“然后”看接下来要说的宾语", "從「然後」看接下來要說的受詞"),
}

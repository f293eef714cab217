"""Training data and head measurements for the AttnViz example models.

Every task draws its examples from a numpy RandomState, so a seed fixes the
data.  An example is held out (never trained on) when held_out(ids) is true:
a fixed hash of its token ids picks one in ten, so the held-out set is disjoint
from anything the training loop can see.
"""

import numpy as np

SPECIALS = ["<pad>", "<unk>", "<bos>"]


def held_out(ids):
    h = 0
    for t in ids:
        h = (h * 1000003 + int(t) + 1) % 2147483647
    return h % 10 == 0


# ---------------------------------------------------------------- tiny-lm
FEMALE = ["alice", "mary", "anna", "emma"]
MALE = ["bob", "tom", "john", "sam"]
ANIMALS = ["cat", "dog", "bird", "fox"]
PLACES = ["mat", "rug", "box", "bed", "chair"]
ADJS = ["big", "small", "red", "old", "happy"]
TRANS = ["saw", "liked", "helped", "chased", "met"]
INTRANS = ["ran", "slept", "smiled", "left", "jumped"]
POSTURE = ["sat", "lay", "stood"]
NUMBERS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]
LM_WORDS = (FEMALE + MALE + ANIMALS + PLACES + ADJS + TRANS + INTRANS + POSTURE
            + ["the", "on", "and", "then", "she", "he", "it", "."] + NUMBERS + ["again"])
# The words a learner types first that the first vocabulary lacked ("a dog saw the cat, and it
# ran"): tiny-lm is trained on LM_VOCAB_FIRST, then its vocabulary grows by these (train.py,
# "grow") and it goes on training on sentences that use them (lm_sentence(learner=True)).
# Appended, so every earlier word keeps its id.
LEARNER_WORDS = ["a", "an", ","]
LM_VOCAB_FIRST = SPECIALS + LM_WORDS
LM_VOCAB = LM_VOCAB_FIRST + LEARNER_WORDS
# Words too common to count as "an earlier copy of the same word" (lm_head_metrics).
LM_FUNCTION_WORDS = ("the", ".", "a", "an", ",")


class Sentence:
    """Words plus the positions (in the <bos>-prefixed token list) a head metric needs."""

    def __init__(self):
        self.words = []
        self.subject = None      # position of the subject's head word (name or animal)
        self.object = None       # position of the object's head word
        self.connector = None    # position of "and" / "then"
        self.kind = ""
        self.copy_start = None   # "list" sentences: position of the first name of the second copy
        self.copy_end = None     # ... and of its last name

    def add(self, word):
        self.words.append(word)
        return len(self.words)   # position after <bos> is prepended


def _article(rng, s, at, learner):
    """With `learner`, the "the" at position `at` becomes "a" (or "an" before a vowel) two times
    in five: one more draw, taken only then, so the first vocabulary's sentences stay the same."""
    if learner and rng.rand() < 0.4:
        s.words[at - 1] = "an" if s.words[at][0] in "aeiou" else "a"


def _entity(rng, s, adj_ok, learner=False):
    """A name, or 'the [adj] animal' ('a' / 'an' for some, with `learner`).  Returns (head position, pronoun)."""
    if rng.rand() < 0.5:
        name_list = FEMALE if rng.rand() < 0.5 else MALE
        pos = s.add(name_list[rng.randint(len(name_list))])
        return pos, ("she" if name_list is FEMALE else "he")
    article = s.add("the")
    if adj_ok and rng.rand() < 0.3:
        s.add(ADJS[rng.randint(len(ADJS))])
    pos = s.add(ANIMALS[rng.randint(len(ANIMALS))])
    _article(rng, s, article, learner)
    return pos, "it"


def _comma(rng, s, learner):
    """With `learner`, a comma three times in ten (before "and" or "then")."""
    if learner and rng.rand() < 0.3:
        s.add(",")


# Each subject has one habit: the verb after "and PRONOUN" is the subject's own, so the
# pronoun must look back at its subject (the object is another entity with another habit).
HABIT = {"alice": "smiled", "mary": "slept", "anna": "ran", "emma": "left",
         "bob": "jumped", "tom": "smiled", "john": "slept", "sam": "left",
         "cat": "slept", "dog": "ran", "bird": "jumped", "fox": "left"}
NAMES = FEMALE + MALE
# How often each kind of sentence is drawn (cumulative upper bounds of rng.rand()).
KIND_SHARES = [("place", 0.07), ("pronoun", 0.20), ("repeat", 0.10), ("list", 0.20), ("counts", 0.30), ("again", 0.13)]


def two_counts(rng, numbers, extra):
    """5 to 4 + extra of `numbers` said by two counts taking turns, each one more than its
    previous (three seven four eight ...); None when both would start on the same number.
    tiny-lm and tiny-lm-zh (tasks_zh.py) draw their "counts" sentences here."""
    words = 5 + rng.randint(extra)
    longest = (words + 1) // 2                          # numbers said by the first count
    first, second = rng.randint(len(numbers) - longest + 1), rng.randint(len(numbers) - longest + 1)
    if first == second:
        return None
    return [numbers[(first if i % 2 == 0 else second) + i // 2] for i in range(words)]


def lm_sentence(rng, learner=False):
    """One sentence of a kind drawn by KIND_SHARES.  With `learner`, some animals and places
    get "a" / "an" instead of "the" and some sentences a comma (LEARNER_WORDS); without it the
    draws are exactly those the first vocabulary was trained on."""
    s = Sentence()
    r = rng.rand()
    bounds = np.cumsum([share for _, share in KIND_SHARES])
    kind = KIND_SHARES[min(int(np.searchsorted(bounds, r, side="right")), len(KIND_SHARES) - 1)][0]
    if kind == "again":
        # tom anna bob anna again sam tom again .   Names drawn at random, 5-8 of them; a name
        # said before is followed by "again".  Only an earlier copy of the same word tells
        # that "again" comes next.
        s.kind = "again"
        said = set()
        for _ in range(5 + rng.randint(4)):
            name = NAMES[rng.randint(len(NAMES))]
            s.add(name)
            if name in said:
                s.add("again")
            said.add(name)
        if len(s.words) > 14:
            return lm_sentence(rng, learner)
        s.add(".")
        return s
    if kind == "counts":
        # two eight three nine four ten .   Two counts take turns, 5-12 words: each number is one
        # more than the number two places back, so from the second word on the next word is
        # "one more than the word before this one".  Only the previous word tells it: the two
        # counts start anywhere, and the current word says nothing about the next.
        s.kind = "counts"
        counted = two_counts(rng, NUMBERS, 8)
        if counted is None:
            return lm_sentence(rng, learner)
        for word in counted:
            s.add(word)
        s.add(".")
        return s
    if kind == "place":
        # the [adj] cat sat on the [adj] mat .   ("on the" is followed by a place, "saw the" by an animal)
        s.kind = "place"
        s.subject, _ = _entity(rng, s, True, learner)
        s.add(POSTURE[rng.randint(len(POSTURE))])
        s.add("on")
        article = s.add("the")
        if rng.rand() < 0.3:
            s.add(ADJS[rng.randint(len(ADJS))])
        s.add(PLACES[rng.randint(len(PLACES))])
        _article(rng, s, article, learner)
    elif kind == "pronoun":
        # SUBJ saw OBJ and PRONOUN HABIT .   (the pronoun agrees with the subject; the verb is the subject's habit)
        s.kind = "pronoun"
        s.subject, pron = _entity(rng, s, True, learner)
        s.add(TRANS[rng.randint(len(TRANS))])
        s.object, _ = _entity(rng, s, False, learner)
        if s.words[s.object - 1] == s.words[s.subject - 1]:
            return lm_sentence(rng, learner)
        _comma(rng, s, learner)
        s.connector = s.add("and")
        s.add(pron)
        s.add(HABIT[s.words[s.subject - 1]])
    elif kind == "repeat":
        # E1 saw E2 then E2 helped E1 .   (the names come back: predictable only by copying;
        # an animal met as "a fox" comes back as "the fox")
        s.kind = "repeat"
        start = len(s.words)
        s.subject, _ = _entity(rng, s, False, learner)
        first = [w if w not in ("a", "an") else "the" for w in s.words[start:]]
        s.add(TRANS[rng.randint(len(TRANS))])
        start = len(s.words)
        s.object, _ = _entity(rng, s, False, learner)
        second = [w if w not in ("a", "an") else "the" for w in s.words[start:]]
        if first == second:
            return lm_sentence(rng, learner)
        _comma(rng, s, learner)
        s.connector = s.add("then")
        for w in second:
            s.add(w)
        s.add(TRANS[rng.randint(len(TRANS))])
        for w in first:
            s.add(w)
    else:
        # bob anna tom and sam ran . anna tom and sam left .   A list of 3-5 names, then the same
        # list again from a random name on: how far back the first copy lies varies, so the next
        # name is found by looking up the earlier copy of this name and reading the word after it
        # (induction).  With `learner`, some lists have commas ("bob , anna and sam ran .") when
        # they still fit in 15 words, the same in both copies.
        s.kind = "list"
        count = 3 + rng.randint(3)
        skip = rng.randint(count - 1)
        if 2 * count - skip > 9:                     # at most 15 words
            return lm_sentence(rng, learner)
        names = [NAMES[i] for i in rng.permutation(len(NAMES))[:count]]
        commas = learner and rng.rand() < 0.3 and 2 * count - skip + (count - 2) + (count - skip - 2) <= 9
        for part in (names, names[skip:]):
            for i, w in enumerate(part[:-1]):
                pos = s.add(w)
                if s.copy_start is None and part is not names:
                    s.copy_start = pos
                if commas and i < len(part) - 2:
                    s.add(",")
            s.add("and")
            s.copy_end = s.add(part[-1])
            s.add(INTRANS[rng.randint(len(INTRANS))])
            s.add(".")
        return s
    s.add(".")
    return s


def encode_lm(words):
    index = {w: i for i, w in enumerate(LM_VOCAB)}
    return [index["<bos>"]] + [index.get(w, index["<unk>"]) for w in words]


def sentence_batch(rng, n, max_len, want_held_out, draw, encode):
    """Returns ids (n, max_len) padded with <pad> (0), and the sentences: draw(rng) makes one,
    encode(sentence) gives its <bos>-prefixed ids; too long or on the wrong side of held_out
    is drawn again.  tiny-lm and tiny-lm-zh (tasks_zh.py) both draw their batches here."""
    ids = np.zeros((n, max_len), dtype=np.int64)
    sents = []
    while len(sents) < n:
        s = draw(rng)
        toks = encode(s)
        if len(toks) > max_len or held_out(toks) != want_held_out:
            continue
        ids[len(sents), :len(toks)] = toks
        sents.append(s)
    return ids, sents


def lm_batch(rng, n, max_len, want_held_out, learner=False):
    """With `learner`, sentences that also use LEARNER_WORDS (lm_sentence)."""
    return sentence_batch(rng, n, max_len, want_held_out, lambda r: lm_sentence(r, learner),
                          lambda s: encode_lm(s.words))


class MetricSums:
    """Per-head sums of a head metric over the places it applies; means() gives {metric: (H,)}."""

    def __init__(self, heads):
        self.heads = heads
        self.sums = {}

    def add(self, metric, vec):
        tot, cnt = self.sums.get(metric, (np.zeros(self.heads), 0))
        self.sums[metric] = (tot + vec, cnt + 1)

    def add_position_metrics(self, w, t):
        """The metrics every language model has, for token t of one sentence's weights w (H, L, L)."""
        self.add("previous_token", w[:, t, t - 1])
        self.add("first_token", w[:, t, 0])
        self.add("self", w[:, t, t])

    def means(self):
        return {k: tot / cnt for k, (tot, cnt) in self.sums.items()}


def lm_head_metrics(weights, ids, sents):
    """weights: (B, H, L, L) of one layer.  Returns {metric: (H,) mean over the places it applies}."""
    b, h = weights.shape[0], weights.shape[1]
    sums = MetricSums(h)
    add = sums.add
    for n in range(b):
        toks = [t for t in ids[n] if t != 0]
        w = weights[n]                                   # (H, L, L)
        for t in range(2, len(toks)):                    # from word 2 on, so previous != <bos>
            sums.add_position_metrics(w, t)
            earlier = [j for j in range(1, t) if toks[j] == toks[t]]
            word = LM_VOCAB[toks[t]]
            if earlier and word not in LM_FUNCTION_WORDS:
                add("same_word_earlier", w[:, t, earlier].sum(axis=1))
                add("induction", w[:, t, [j + 1 for j in earlier]].sum(axis=1))
        s = sents[n]
        if s.kind == "pronoun":
            add("and_to_subject", w[:, s.connector, s.subject])
            add("pronoun_to_subject", w[:, s.connector + 1, s.subject])
            add("verb_to_subject", w[:, s.connector + 2, s.subject])
        if s.kind == "repeat":
            add("then_to_object", w[:, s.connector, s.object])
    return sums.means()


# One line each on the model card (the window shows them under the layer slider), so short;
# the exact definitions are in lm_head_metrics above and in assets/models/README.md.
LM_METRIC_TEXT = {
    "previous_token": "looks at the previous word (weight on t-1)",
    "first_token": "rests on the first token <bos> (weight on position 0)",
    "self": "looks at its own word (weight on t)",
    "same_word_earlier": "looks at an earlier copy of the same word",
    "induction": "looks at the word after an earlier copy of this word (induction)",
    "and_to_subject": "from 'and', looks at the subject",
    "pronoun_to_subject": "from the pronoun, looks back at its subject",
    "verb_to_subject": "from the verb after the pronoun, looks at the subject",
    "then_to_object": "from 'then', looks at the object named next",
}

# The same lines in both Chinese scripts (zh-Hans, zh-Hant), for the card's per-language claims.
LM_METRIC_TEXT_ZH = {
    "previous_token": ("看前一个词（位置 t-1 上的权重）", "看前一個詞（位置 t-1 上的權重）"),
    "first_token": ("停在第一个词元 <bos> 上（位置 0 上的权重）", "停在第一個 token <bos> 上（位置 0 上的權重）"),
    "self": ("看自己这个词（位置 t 上的权重）", "看自己這個詞（位置 t 上的權重）"),
    "same_word_earlier": ("看前面出现过的同一个词", "看前面出現過的同一個詞"),
    "induction": ("看这个词前一次出现之后的那个词（归纳）", "看這個詞前一次出現之後的那個詞（歸納）"),
    "and_to_subject": ("从“and”看主语", "從「and」看主詞"),
    "pronoun_to_subject": ("从代词回看它指的主语", "從代名詞回看它指的主詞"),
    "verb_to_subject": ("从代词后面的动词看主语", "從代名詞後面的動詞看主詞"),
    "then_to_object": ("从“then”看接下来要说的宾语", "從「then」看接下來要說的受詞"),
}


# ---------------------------------------------------------------- reverse
DIGITS = [str(d) for d in range(10)]
REVERSE_VOCAB = SPECIALS + DIGITS


def reverse_batch(rng, n, length, want_held_out):
    """Inputs: `length` digits; targets: the same digits reversed (one per position)."""
    xs, ys = [], []
    while len(xs) < n:
        x = rng.randint(10, size=length) + len(SPECIALS)
        if held_out(x) != want_held_out:
            continue
        xs.append(x)
        ys.append(x[::-1].copy())
    return np.array(xs, dtype=np.int64), np.array(ys, dtype=np.int64)


def reverse_head_metrics(weights):
    """weights (B, H, L, L): mean weight from position i on position L-1-i (the anti-diagonal), and on itself."""
    l = weights.shape[-1]
    anti = weights[:, :, np.arange(l), l - 1 - np.arange(l)].mean(axis=(0, 2))
    self_w = weights[:, :, np.arange(l), np.arange(l)].mean(axis=(0, 2))
    return {"mirror_position": anti, "self": self_w}


# ---------------------------------------------------------------- sort
SORT_VOCAB = SPECIALS + DIGITS + ["|"]
SEP = SORT_VOCAB.index("|")


def sort_batch(rng, n, min_n, max_n, want_held_out):
    """Sequences 'x1 .. xk | y1 .. yk' (distinct digits, y sorted ascending), padded to 2*max_n+1.

    Returns ids (n, 2*max_n+1) and k per row."""
    total = 2 * max_n + 1
    ids = np.zeros((n, total), dtype=np.int64)
    lens = []
    while len(lens) < n:
        k = rng.randint(min_n, max_n + 1)
        x = rng.permutation(10)[:k] + len(SPECIALS)
        seq = list(x) + [SEP] + sorted(x)
        if held_out(x) != want_held_out:
            continue
        ids[len(lens), :len(seq)] = seq
        lens.append(k)
    return ids, np.array(lens)


def sort_head_metrics(weights, ids, lens):
    """From the separator and each output digit, the weight on the input position holding the next output."""
    h = weights.shape[1]
    tot_next, tot_same, cnt, cnt_same = np.zeros(h), np.zeros(h), 0, 0
    for n, k in enumerate(lens):
        seq = ids[n]
        where = {int(seq[j]): j for j in range(k)}
        for t in range(k, 2 * k):                        # the query predicts seq[t+1]
            tot_next += weights[n, :, t, where[int(seq[t + 1])]]
            if t > k:
                tot_same += weights[n, :, t, where[int(seq[t])]]
                cnt_same += 1
            cnt += 1
    return {"next_larger": tot_next / cnt, "current_in_input": tot_same / cnt_same}


# ---------------------------------------------------------------- tiny-llama
def llama_batch(rng, n, max_len, want_held_out):
    """tiny-lm's sentences (with the learner's words) one after another behind one <bos>, as
    many whole sentences as fit in max_len, padded with <pad>: long texts to generate from.
    A sentence is held out when held_out(its own ids) is true, so no held-out sentence is
    ever trained on, wherever it stands.  Returns ids (n, max_len)."""
    ids = np.zeros((n, max_len), dtype=np.int64)
    for row in range(n):
        toks = [LM_VOCAB.index("<bos>")]
        while True:
            s = lm_sentence(rng, True)
            words = encode_lm(s.words)[1:]
            if held_out(encode_lm(s.words)) != want_held_out:
                continue
            if len(toks) + len(words) > max_len:
                break
            toks += words
        ids[row, :len(toks)] = toks
    return ids


def llama_head_metrics(weights, ids):
    """weights (B, H, L, L) of one layer: {metric: (H,)} over every token from position 2 on
    (previous_token, first_token, self), and over the tokens with an earlier copy that is not
    a function word (same_word_earlier: weight on the earlier copies; induction: on the
    tokens that followed them)."""
    sums = MetricSums(weights.shape[1])
    for n in range(weights.shape[0]):
        toks = [t for t in ids[n] if t != 0]
        w = weights[n]
        for t in range(2, len(toks)):
            sums.add_position_metrics(w, t)
            earlier = [j for j in range(1, t - 1) if toks[j] == toks[t]]
            if earlier and LM_VOCAB[toks[t]] not in LM_FUNCTION_WORDS:
                sums.add("same_word_earlier", w[:, t, earlier].sum(axis=1))
                sums.add("induction", w[:, t, [j + 1 for j in earlier]].sum(axis=1))
    return sums.means()


# ---------------------------------------------------------------- induction
# <bos>, a run of random letters, then a random stretch of 4-12 distinct letters and the same
# stretch again: only copying from the first copy predicts the second. The run in front (0 to
# as many letters as fit, none of them in the stretch) moves the stretch to a different place
# in every row, so no position says where it starts: the model has to find the earlier
# occurrence of the current letter by content (an induction head), not by position.
LETTERS = [chr(ord("a") + i) for i in range(20)]
INDUCTION_VOCAB = SPECIALS + LETTERS


def induction_batch(rng, n, max_len, want_held_out, min_k=4, max_k=12):
    """Returns ids (n, max_len): <bos>, a run of r random letters not in the stretch, a stretch
    of k distinct letters, the stretch again, <pad>s; the k of each row and its start 1 + r.
    A row is held out when held_out(its stretch) is true."""
    ids = np.zeros((n, max_len), dtype=np.int64)
    lens, starts = [], []
    first = len(SPECIALS)
    while len(lens) < n:
        k = min_k + rng.randint(max_k - min_k + 1)
        order = rng.permutation(len(LETTERS))
        stretch = [first + int(i) for i in order[:k]]
        r = rng.randint(max_len - 1 - 2 * k + 1)
        run = [first + int(i) for i in rng.choice(order[k:], size=r)]
        if held_out(stretch) != want_held_out:
            continue
        toks = [INDUCTION_VOCAB.index("<bos>")] + run + stretch + stretch
        ids[len(lens), :len(toks)] = toks
        lens.append(k)
        starts.append(1 + r)
    return ids, np.array(lens), np.array(starts)


def induction_targets(ids, lens, starts):
    """The tokens of the repeated half the model can know: from the second copy's first token
    on, the next token (<pad> = 0, ignored, everywhere else)."""
    targets = np.zeros_like(ids)
    for n, (k, s) in enumerate(zip(lens, starts)):
        for t in range(s + k, s + 2 * k - 1):
            targets[n, t] = ids[n, t + 1]
    return targets


def induction_head_metrics(weights, ids, lens, starts):
    """weights (B, H, L, L) of one layer: previous_token (weight on t-1, every position from 2
    to the end of the second copy), first_token, self, and in the second copy: induction (from
    the copy of stretch token i, the weight on stretch token i + 1 of the first copy: the token
    that followed its earlier occurrence) and same_word_earlier (on the earlier occurrence)."""
    sums = MetricSums(weights.shape[1])
    for n, (k, s) in enumerate(zip(lens, starts)):
        w = weights[n]
        for t in range(2, s + 2 * k):
            sums.add_position_metrics(w, t)
        for i in range(k - 1):
            t = s + k + i              # stretch token i, second copy; first copy at s + i
            sums.add("same_word_earlier", w[:, t, s + i])
            sums.add("induction", w[:, t, s + i + 1])
    return sums.means()

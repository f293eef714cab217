#!/usr/bin/python3
"""Train AttnViz's example models and write their weights, cards and parity fixtures.

    OMP_NUM_THREADS=1 /usr/bin/python3 assets/models/train.py            # all models
    OMP_NUM_THREADS=1 /usr/bin/python3 assets/models/train.py reverse    # one model

Needs only Debian's python3-torch and python3-numpy.  Deterministic: fixed seeds,
CPU, one thread, torch.use_deterministic_algorithms(True); a rerun writes the
same bytes (the wall time in the card aside).  Writes, per model NAME:
    assets/models/NAME.safetensors        float32 weights (safetensors written by hand)
    assets/models/NAME.json               the card
    tests/fixtures/models/NAME/*.npy      every intermediate for the card's example
    tests/fixtures/models/NAME/manifest.json
    tests/fixtures/models/NAME/heldout.json  the held-out inputs the head claims were measured on
"""

import copy
import hashlib
import json
import math
import os
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import torch  # noqa: E402
from torch.nn import functional as F  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "torch_reference"))
import make_fixtures  # noqa: E402
import tasks  # noqa: E402
import tasks_zh  # noqa: E402
from model import TinyTransformer  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
FIXTURES = os.path.join(REPO, "tests", "fixtures", "models")

MODELS = {
    # Trained on tasks.LM_VOCAB_FIRST for `steps`, then the vocabulary grows by the learner's
    # words (tasks.LEARNER_WORDS: "a", "an", ",") and training goes on for grow["steps"] on
    # sentences that use them (grow_vocabulary, `grow`): the heads learned first stay where the
    # lessons point, and "a dog saw the cat, and it ran" is no longer half <unk>.
    "tiny-lm": dict(kind="language", vocab=tasks.LM_VOCAB, dim=64, heads=4, layers=2, max_len=16,
                    mlp=True, causal=True, steps=2400, batch=64, lr=3e-3, seed=11, bos=True,
                    grow=dict(first_vocab=tasks.LM_VOCAB_FIRST, steps=600, lr=1e-3, seed=111),
                    attn_entropy=[0.05, 0.02], fixture_float64=True,
                    example="the dog saw the cat and it ran",
                    output="row t of probs is the distribution of the word after token t",
                    description="word-level language model trained on generated simple English sentences",
                    zh_text={"description": ("词级语言模型，用生成的简单英文句子训练", "詞級語言模型，用產生的簡單英文句子訓練"),
                             "reading_the_output": ("probs 的第 t 行是词元 t 之后下一个词的概率分布",
                                                    "probs 的第 t 列是 token t 之後下一個詞的機率分布")},
                    zh_claims=tasks.LM_METRIC_TEXT_ZH),
    # Character-level: each character is a token (`split_chars`); the card's prose fields get a
    # Chinese copy in each script (`zh_text`: field -> (zh-Hans, zh-Hant)), its example a
    # sentence in each script (`zh_example`); add_zh_text writes them.
    "tiny-lm-zh": dict(kind="language", vocab=tasks_zh.ZH_VOCAB, dim=64, heads=4, layers=2, max_len=20,
                       mlp=True, causal=True, steps=1500, batch=64, lr=3e-3, seed=21, bos=True, split_chars=True,
                       attn_entropy=[0.05, 0.02], fixture_float64=True,
                       example="小狗看见了小猫，它跑了。",
                       output="row t of probs is the distribution of the character after token t",
                       description="character-level language model trained on generated simple Chinese sentences, "
                                   "in simplified and traditional characters",
                       zh_text={"description": ("字级语言模型，用生成的简单中文句子训练，简体和繁体都认得",
                                                "字級語言模型，用產生的簡單中文句子訓練，簡體和繁體都認得"),
                                "reading_the_output": ("probs 的第 t 行是词元 t 之后下一个字的概率分布",
                                                       "probs 的第 t 列是 token t 之後下一個字的機率分布")},
                       zh_claims={m: texts[1:] for m, texts in tasks_zh.ZH_METRIC_TEXT.items()},
                       zh_example=("小狗看见了小猫，它跑了。", "小狗看見了小貓，它跑了。")),
    "reverse": dict(kind="algorithmic", vocab=tasks.REVERSE_VOCAB, dim=64, heads=2, layers=1, max_len=8,
                    mlp=False, causal=False, steps=800, batch=64, lr=3e-3, seed=12, bos=False,
                    example="3 1 4 1 5 9 2 6",
                    output="the argmax of row i of logits is output digit i; the output is the input reversed",
                    description="reverses 8 digits: position i outputs the digit at position 7-i (encoder, no mask)",
                    zh_text={"description": ("把 8 个数字倒过来：位置 i 输出位置 7-i 上的数字（编码器，无掩码）",
                                             "把 8 個數字倒過來：位置 i 輸出位置 7-i 上的數字（編碼器，無遮罩）"),
                             "reading_the_output": ("logits 第 i 行的 argmax 是输出的第 i 个数字；输出就是倒过来的输入",
                                                    "logits 第 i 列的 argmax 是輸出的第 i 個數字；輸出就是倒過來的輸入")},
                    zh_claims={"mirror_position": ("位置 i 关注镜像位置 L-1-i（平均权重；反对角线）",
                                                   "位置 i 關注鏡像位置 L-1-i（平均權重；反對角線）")}),
    "sort": dict(kind="algorithmic", vocab=tasks.SORT_VOCAB, dim=64, heads=2, layers=1, max_len=17,
                 mlp=True, causal=True, steps=1000, batch=64, lr=3e-3, seed=13, bos=False,
                 example="7 2 9 0 5 3 | 0 2 3 5 7 9",
                 output="causal: the argmax of row t of logits is the token after t; from '|' on it spells the sorted digits",
                 description="sorts 4-8 distinct digits written before '|': each output digit predicts the next larger one",
                 zh_text={"description": ("把 '|' 前面 4 到 8 个互不相同的数字排序：每个输出的数字预测下一个更大的数字",
                                          "把「|」前面 4 到 8 個互不相同的數字排序：每個輸出的數字預測下一個更大的數字"),
                          "reading_the_output": ("因果：logits 第 t 行的 argmax 是 t 之后的词元；从 '|' 开始，它依次写出排好序的数字",
                                                 "因果：logits 第 t 列的 argmax 是 t 之後的 token；從「|」開始，它依序寫出排好序的數字")},
                 zh_claims={"next_larger": ("从 '|' 和每个输出的数字出发，关注存着下一个输出数字（即下一个更大的数字）的输入位置（平均权重）",
                                            "從「|」和每個輸出的數字出發，關注存著下一個輸出數字（即下一個更大的數字）的輸入位置（平均權重）")}),
    # The Llama article's attention in miniature: RMSNorm, RoPE (half-split pairing), 4 query
    # heads sharing 2 key/value heads, no biases; trained on tiny-lm's sentences one after
    # another (tasks.llama_batch), so there is room to generate.
    "tiny-llama": dict(kind="language", vocab=tasks.LM_VOCAB, dim=64, heads=4, kv_heads=2, layers=2, max_len=64,
                       mlp=True, causal=True, llama=True, steps=1500, batch=32, lr=3e-3, seed=31, bos=True,
                       code_recipe="llama",
                       fixture_float64=True,
                       example="the dog saw the cat and it ran . tom bob anna and sam left . bob anna and",
                       output="row t of probs is the distribution of the word after token t",
                       description="Llama-style language model (RMSNorm, RoPE, 4 query heads sharing 2 key/value heads, "
                                   "no biases) trained on tiny-lm's sentences written one after another",
                       zh_text={"description": ("Llama 风格的语言模型（RMSNorm、RoPE、4 个查询头共用 2 个键/值头、无偏置），"
                                                "用 tiny-lm 的句子首尾相接训练",
                                                "Llama 風格的語言模型（RMSNorm、RoPE、4 個查詢頭共用 2 個鍵/值頭、無偏置），"
                                                "用 tiny-lm 的句子首尾相接訓練"),
                                "reading_the_output": ("probs 的第 t 行是词元 t 之后下一个词的概率分布",
                                                       "probs 的第 t 列是 token t 之後下一個詞的機率分布")},
                       zh_claims=tasks.LM_METRIC_TEXT_ZH),
    # Two attention-only layers on random stretches that repeat (tasks.induction_batch): a
    # previous-token head in layer 0 and an induction head in layer 1 that reads it.
    # The position table starts as sinusoids (sin_pos_init): "the position before me" is then
    # a fixed linear map of my own position, so layer 0 finds its previous-token head early;
    # from a random table it copied by other means (no clean circuit after 1200 steps).
    "induction": dict(kind="language", vocab=tasks.INDUCTION_VOCAB, dim=64, heads=2, layers=2, max_len=32,
                      mlp=False, causal=True, steps=1000, batch=64, lr=3e-3, seed=41, bos=True,
                      sin_pos_init=0.5,
                      fixture_float64=True,
                      note_key="model.induction.composition",
                      example="q c h a m e q c h a m",
                      output="row t of probs is the distribution of the letter after token t; in the repeated half "
                             "the argmax is the letter that followed this one in the first copy",
                      description="two attention-only layers trained on a random stretch of 4 to 12 distinct letters "
                                  "followed by the same stretch: it copies the stretch",
                      zh_text={"description": ("两层只有注意力的模型，用随机的 4 到 12 个互不相同的字母加上同一段字母训练：它会照抄这一段",
                                               "兩層只有注意力的模型，用隨機的 4 到 12 個互不相同的字母加上同一段字母訓練：它會照抄這一段"),
                               "reading_the_output": ("probs 的第 t 行是词元 t 之后下一个字母的概率分布；在重复的那一半，argmax 就是第一遍里跟在这个字母后面的字母",
                                                      "probs 的第 t 列是 token t 之後下一個字母的機率分布；在重複的那一半，argmax 就是第一遍裡跟在這個字母後面的字母")},
                      zh_claims={"previous_token": ("看前一个词元（t-1 上的权重）", "看前一個 token（t-1 上的權重）"),
                                 "induction": ("归纳头（induction head）：看这个字母上一次出现时后面跟的那个词元",
                                               "歸納頭（induction head）：看這個字母上一次出現時後面跟的那個 token"),
                                 "same_word_earlier": ("看这个字母上一次出现的位置", "看這個字母上一次出現的位置"),
                                 "first_token": ("停在第一个词元 <bos> 上（位置 0 的权重）", "停在第一個 token <bos> 上（位置 0 的權重）"),
                                 "self": ("看自己（t 上的权重）", "看自己（t 上的權重）")}),
}
HELD_OUT_COUNT = {"tiny-lm": 400, "tiny-lm-zh": 400, "reverse": 400, "sort": 400, "tiny-llama": 200, "induction": 400}
ZH_LANGS = ("zh-Hans", "zh-Hant")


# ---------------------------------------------------------------- files
# The safetensors writer and reader are the fixture scripts' (tests/torch_reference/
# make_fixtures.py): written by hand because Debian's python has no safetensors module.
def write_safetensors(path, named, metadata):
    """named: list of (name, float32 tensor) in file order."""
    make_fixtures.write_safetensors(path, named, "F32", metadata)


read_safetensors = make_fixtures.read_safetensors


def write_json(path, obj):
    with open(path, "w") as f:
        json.dump(obj, f, indent=1)
        f.write("\n")


# ---------------------------------------------------------------- data per task
def train_batch(name, cfg, rng, learner=False):
    """Returns (ids (B, L), targets (B, L)); target 0 (<pad>) is ignored by the loss.
    learner: tiny-lm's sentences with the grown vocabulary's words (tasks.lm_sentence)."""
    if name == "tiny-lm":
        ids, _ = tasks.lm_batch(rng, cfg["batch"], cfg["max_len"], False, learner)
        targets = np.zeros_like(ids)
        targets[:, :-1] = ids[:, 1:]
        return ids, targets
    if name == "tiny-lm-zh":
        ids, _ = tasks_zh.zh_batch(rng, cfg["batch"], cfg["max_len"], False)
        targets = np.zeros_like(ids)
        targets[:, :-1] = ids[:, 1:]
        return ids, targets
    if name == "reverse":
        return tasks.reverse_batch(rng, cfg["batch"], cfg["max_len"], False)
    if name == "tiny-llama":
        ids = tasks.llama_batch(rng, cfg["batch"], cfg["max_len"], False)
        targets = np.zeros_like(ids)
        targets[:, :-1] = ids[:, 1:]
        return ids, targets
    if name == "induction":
        ids, lens, starts = tasks.induction_batch(rng, cfg["batch"], cfg["max_len"], False)
        return ids, tasks.induction_targets(ids, lens, starts)
    ids, lens = tasks.sort_batch(rng, cfg["batch"], 4, 8, False)
    targets = np.zeros_like(ids)
    targets[:, :-1] = ids[:, 1:]
    for n, k in enumerate(lens):
        targets[n, :k] = 0          # the unsorted digits cannot be predicted
    return ids, targets


def attention_entropy(all_weights, real, per_layer):
    """sum over layers of per_layer[i] x the mean entropy (nats) of layer i's attention rows
    (rows of real tokens, all heads).

    Added to the loss: a head may still look wherever it likes, but spreading its weight
    thinly costs a little.  Without it the 4 heads of layer 0 share each job (four heads
    each put ~0.3 on the previous word instead of one putting 0.8 there).
    all_weights: [(B, H, L, L)] per layer; real: (B, L) bool, False at <pad>."""
    real = torch.from_numpy(real).float()                                   # (B, L)
    total = 0.0
    for w, factor in zip(all_weights, per_layer):
        if factor:
            row_entropy = -(w * torch.log(w.clamp_min(1e-12))).sum(-1)      # (B, H, L)
            total = total + factor * (row_entropy.mean(1) * real).sum() / real.sum()
    return total


def lr_at(step, steps, lr):
    warm = 100
    if step < warm:
        return lr * (step + 1) / warm
    frac = (step - warm) / max(1, steps - warm)
    return lr * 0.5 * (1 + math.cos(math.pi * frac))


def grow_vocabulary(model, vocab, seed):
    """Appends rows to tok_emb (V, D) and lm_head (V, D) up to `vocab` words, drawn as the
    first rows were (normal, std 0.08) from their own seed; every earlier row is kept."""
    gen = torch.Generator().manual_seed(seed)
    old_emb, old_head = model.tok_emb.weight.data, model.lm_head.weight.data
    added = vocab - old_emb.shape[0]
    dim = old_emb.shape[1]
    model.tok_emb = torch.nn.Embedding(vocab, dim)
    model.lm_head = torch.nn.Linear(dim, vocab, bias=False)
    with torch.no_grad():
        model.tok_emb.weight.copy_(torch.cat([old_emb, torch.randn(added, dim, generator=gen) * 0.08]))
        model.lm_head.weight.copy_(torch.cat([old_head, torch.randn(added, dim, generator=gen) * 0.08]))


def weights_digest(model, cfg):
    """sha256 (16 hex digits) of the float32 weights in file order (tensor_names): the first
    vocabulary's model can be compared with an earlier committed .safetensors this way."""
    state = model.state_dict()
    h = hashlib.sha256()
    for n in tensor_names(cfg):
        h.update(state[n].detach().numpy().astype(np.float32).tobytes())
    return h.hexdigest()[:16]


def sinusoidal_positions(model, scale):
    """pos_emb (max_len, D) set to the Transformer paper's sinusoids x scale before training:
    column 2i is sin(p / 10000^(2i/D)), column 2i+1 its cos."""
    length, dim = model.pos_emb.weight.shape
    pos = torch.arange(length, dtype=torch.float32)[:, None]
    freq = 1.0 / (10000 ** (torch.arange(0, dim, 2, dtype=torch.float32) / dim))
    table = torch.zeros(length, dim)
    table[:, 0::2] = torch.sin(pos * freq)
    table[:, 1::2] = torch.cos(pos * freq)
    with torch.no_grad():
        model.pos_emb.weight.copy_(table * scale)


def train(name, cfg):
    """Trains `steps` steps; with `grow`, grows the vocabulary and trains grow["steps"] more.
    Returns the model and the mean training loss of the last 100 steps."""
    grow = cfg.get("grow")
    torch.manual_seed(cfg["seed"])
    rng = np.random.RandomState(cfg["seed"])
    model = TinyTransformer(len(grow["first_vocab"] if grow else cfg["vocab"]), cfg["dim"], cfg["heads"],
                            cfg["layers"], cfg["max_len"], cfg["mlp"], cfg["causal"], cfg.get("llama", False),
                            cfg.get("kv_heads"))
    if cfg.get("sin_pos_init"):
        sinusoidal_positions(model, cfg["sin_pos_init"])
    losses = train_steps(name, cfg, model, rng, cfg["steps"], cfg["lr"], False)
    if grow:
        print("  %s: first vocabulary trained, weights %s" % (name, weights_digest(model, cfg)), flush=True)
        grow_vocabulary(model, len(cfg["vocab"]), grow["seed"])
        rng = np.random.RandomState(grow["seed"])
        losses = train_steps(name, cfg, model, rng, grow["steps"], grow["lr"], True)
    model.eval()
    return model, float(np.mean(losses[-100:]))


def train_steps(name, cfg, model, rng, steps, lr, learner):
    """`steps` AdamW steps (a fresh optimizer) with warm-up and cosine decay from `lr`; the losses."""
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01)
    losses = []
    for step in range(steps):
        ids, targets = train_batch(name, cfg, rng, learner)
        for g in opt.param_groups:
            g["lr"] = lr_at(step, steps, lr)
        logits, all_weights = model(torch.from_numpy(ids))
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), torch.from_numpy(targets).reshape(-1),
                               ignore_index=0)
        if cfg.get("attn_entropy"):
            loss = loss + attention_entropy(all_weights, ids != 0, cfg["attn_entropy"])
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        losses.append(loss.item())
        if step % 500 == 0 or step == steps - 1:
            print("  %s step %4d loss %.4f%s" % (name, step, loss.item(), " (grown vocabulary)" if learner else ""),
                  flush=True)
    return losses


# ---------------------------------------------------------------- evaluation
def evaluate(name, cfg, model):
    """Held-out accuracy, per-head measurements and the held-out inputs they were measured on."""
    rng = np.random.RandomState(cfg["seed"] + 1000)
    n = HELD_OUT_COUNT[name]
    vocab = cfg["vocab"]
    with torch.no_grad():
        if name == "tiny-lm":
            ids, sents = tasks.lm_batch(rng, n, cfg["max_len"], True, "grow" in cfg)
            logits, weights = model(torch.from_numpy(ids))
            pred = logits.argmax(-1).numpy()
            targets = np.zeros_like(ids)
            targets[:, :-1] = ids[:, 1:]
            loss = F.cross_entropy(logits.reshape(-1, len(vocab)), torch.from_numpy(targets).reshape(-1),
                                   ignore_index=0).item()
            pron_ok = [pred[i, s.connector] == targets[i, s.connector] for i, s in enumerate(sents) if s.kind == "pronoun"]
            copy_ok = []
            for i, s in enumerate(sents):
                if s.kind == "repeat":
                    # positions connector .. end-2 predict the repeated entity words (skipping the second verb's slot)
                    toks = [t for t in ids[i] if t != 0]
                    for t in range(s.connector, len(toks) - 2):
                        if vocab[toks[t + 1]] not in tasks.TRANS:
                            copy_ok.append(pred[i, t] == targets[i, t])
            habit_ok = [pred[i, s.connector + 1] == targets[i, s.connector + 1] for i, s in enumerate(sents)
                        if s.kind == "pronoun"]
            list_ok = []
            for i, s in enumerate(sents):
                if s.kind == "list":
                    # in the second copy, every word after its first name ('and' included)
                    for t in range(s.copy_start, s.copy_end):
                        list_ok.append(pred[i, t] == targets[i, t])
            count_ok = []
            for i, s in enumerate(sents):
                if s.kind == "counts":
                    # from the second number on, the next number (the last one is followed by '.')
                    toks = [t for t in ids[i] if t != 0]
                    for t in range(2, len(toks) - 2):
                        count_ok.append(pred[i, t] == targets[i, t])
            again_ok = []
            again_id = vocab.index("again")
            for i, s in enumerate(sents):
                if s.kind == "again":
                    # after each name: "again" predicted exactly when the name was said before
                    toks = [t for t in ids[i] if t != 0]
                    said = set()
                    for t in range(1, len(toks)):
                        if vocab[toks[t]] in tasks.NAMES:
                            again_ok.append((pred[i, t] == again_id) == (toks[t] in said))
                            said.add(toks[t])
            acc = {"heldout_loss": round(loss, 4),
                   "pronoun_agreement_accuracy": round(float(np.mean(pron_ok)), 4),
                   "habit_verb_accuracy": round(float(np.mean(habit_ok)), 4),
                   "copied_word_accuracy": round(float(np.mean(copy_ok)), 4),
                   "repeated_list_accuracy": round(float(np.mean(list_ok)), 4),
                   "counting_accuracy": round(float(np.mean(count_ok)), 4),
                   "again_accuracy": round(float(np.mean(again_ok)), 4)}
            per_layer = [tasks.lm_head_metrics(w.numpy(), ids, sents) for w in weights]
            heldout = []
            for i, s in enumerate(sents):
                heldout.append({"tokens": [vocab[t] for t in ids[i] if t != 0], "kind": s.kind, "subject": s.subject,
                                "object": s.object, "connector": s.connector})
            texts = tasks.LM_METRIC_TEXT
        elif name == "tiny-lm-zh":
            return evaluate_zh(cfg, model, rng, n)
        elif name == "tiny-llama":
            return evaluate_llama(cfg, model, rng, n)
        elif name == "induction":
            return evaluate_induction(cfg, model, rng, n)
        elif name == "reverse":
            ids, ys = tasks.reverse_batch(rng, n, cfg["max_len"], True)
            logits, weights = model(torch.from_numpy(ids))
            pred = logits.argmax(-1).numpy()
            acc = {"exact_match": round(float((pred == ys).all(axis=1).mean()), 4),
                   "per_digit": round(float((pred == ys).mean()), 4)}
            per_layer = [tasks.reverse_head_metrics(w.numpy()) for w in weights]
            heldout = [{"tokens": [vocab[t] for t in row]} for row in ids]
            texts = {"mirror_position": "position i attends to the mirrored position L-1-i (mean weight; the anti-diagonal)",
                     "self": "attends to its own position (mean weight)"}
        else:
            ids, lens = tasks.sort_batch(rng, n, 4, 8, True)
            logits, weights = model(torch.from_numpy(ids))
            pred = logits.argmax(-1).numpy()
            forced = [all(pred[i, t] == ids[i, t + 1] for t in range(k, 2 * k)) for i, k in enumerate(lens)]
            greedy = [sort_greedy(model, ids[i, :k + 1], k) == list(ids[i, k + 1:2 * k + 1]) for i, k in enumerate(lens)]
            acc = {"exact_match_greedy": round(float(np.mean(greedy)), 4),
                   "exact_match_teacher_forced": round(float(np.mean(forced)), 4)}
            per_layer = [tasks.sort_head_metrics(w.numpy(), ids, lens) for w in weights]
            heldout = [{"tokens": [vocab[t] for t in ids[i, :2 * k + 1]], "k": int(k)} for i, k in enumerate(lens)]
            texts = {"next_larger": "from '|' and from each output digit, attends to the input position holding the next output digit, i.e. the next larger digit (mean weight)",
                     "current_in_input": "from each output digit, attends to the same digit in the input (mean weight)"}
    return acc, per_layer, heldout, texts


def evaluate_zh(cfg, model, rng, n):
    """tiny-lm-zh: held-out loss, the character predictions only the right look-back gives,
    per-head metrics (tasks_zh.zh_head_metrics) and the held-out sentences."""
    vocab = cfg["vocab"]
    ids, sents = tasks_zh.zh_batch(rng, n, cfg["max_len"], True)
    logits, weights = model(torch.from_numpy(ids))
    pred = logits.argmax(-1).numpy()
    targets = np.zeros_like(ids)
    targets[:, :-1] = ids[:, 1:]
    loss = F.cross_entropy(logits.reshape(-1, len(vocab)), torch.from_numpy(targets).reshape(-1),
                           ignore_index=0).item()

    def accuracy(kind, positions):
        """Share of the places `positions` names, in sentences of `kind`, whose next character is right."""
        ok = [pred[i, t] == targets[i, t] for i, s in enumerate(sents) if s.kind == kind for t in positions(i, s)]
        return round(float(np.mean(ok)), 4)

    def length(i):
        return int((ids[i] != 0).sum())

    acc = {"heldout_loss": round(loss, 4),
           # from the comma: the pronoun that agrees with the subject (他 / 她 / 它)
           "pronoun_agreement_accuracy": accuracy("pronoun", lambda i, s: [s.pronoun - 1]),
           # from the pronoun: the subject's habit verb
           "habit_verb_accuracy": accuracy("pronoun", lambda i, s: [s.pronoun]),
           # after 然后: the object and the subject said again (all but the verb between them)
           "copied_word_accuracy": accuracy("repeat", lambda i, s: [t for t in range(s.connector, length(i) - 2)
                                                                    if vocab[ids[i, t + 1]] not in tasks_zh.TRANS_CHARS]),
           # from the second number on, the next number
           "counting_accuracy": accuracy("counts", lambda i, s: range(2, length(i) - 2))}
    per_layer = [tasks_zh.zh_head_metrics(w.numpy(), ids, sents) for w in weights]
    heldout = [{"tokens": [vocab[t] for t in ids[i] if t != 0], "kind": s.kind, "subject": s.subject,
                "object": s.object, "pronoun": s.pronoun, "connector": s.connector} for i, s in enumerate(sents)]
    texts = {metric: english for metric, (english, _, _) in tasks_zh.ZH_METRIC_TEXT.items()}
    return acc, per_layer, heldout, texts


def evaluate_llama(cfg, model, rng, n):
    """tiny-llama: held-out loss and next-word accuracy over held-out sentences written one
    after another, the per-head metrics (tasks.llama_head_metrics) and those texts."""
    vocab = cfg["vocab"]
    ids = tasks.llama_batch(rng, n, cfg["max_len"], True)
    logits, weights = model(torch.from_numpy(ids))
    targets = np.zeros_like(ids)
    targets[:, :-1] = ids[:, 1:]
    loss = F.cross_entropy(logits.reshape(-1, len(vocab)), torch.from_numpy(targets).reshape(-1), ignore_index=0).item()
    pred = logits.argmax(-1).numpy()
    real = targets != 0
    acc = {"heldout_loss": round(loss, 4),
           "next_word_accuracy": round(float((pred == targets)[real].mean()), 4)}
    per_layer = [tasks.llama_head_metrics(w.numpy(), ids) for w in weights]
    heldout = [{"tokens": [vocab[t] for t in row if t != 0]} for row in ids]
    return acc, per_layer, heldout, tasks.LM_METRIC_TEXT


INDUCTION_METRIC_TEXT = {
    "previous_token": "looks at the previous token (weight on t-1)",
    "induction": "induction head: looks at the token that followed this letter's earlier occurrence",
    "same_word_earlier": "looks at this letter's earlier occurrence",
    "first_token": "rests on the first token <bos> (weight on position 0)",
    "self": "looks at its own token (weight on t)",
}


def evaluate_induction(cfg, model, rng, n):
    """induction: accuracy on the repeated half (every token of the second copy after its
    first), the per-head metrics (tasks.induction_head_metrics) and the held-out rows."""
    vocab = cfg["vocab"]
    ids, lens, starts = tasks.induction_batch(rng, n, cfg["max_len"], True)
    logits, weights = model(torch.from_numpy(ids))
    pred = logits.argmax(-1).numpy()
    targets = tasks.induction_targets(ids, lens, starts)
    real = targets != 0
    acc = {"repeated_half_accuracy": round(float((pred == targets)[real].mean()), 4),
           "whole_copy_exact_match": round(float(np.mean([(pred[i][real[i]] == targets[i][real[i]]).all()
                                                          for i in range(n)])), 4)}
    per_layer = [tasks.induction_head_metrics(w.numpy(), ids, lens, starts) for w in weights]
    heldout = [{"tokens": [vocab[t] for t in ids[i, :s + 2 * k]], "k": int(k), "start": int(s)}
               for i, (k, s) in enumerate(zip(lens, starts))]
    return acc, per_layer, heldout, INDUCTION_METRIC_TEXT


def sort_greedy(model, prefix, k):
    seq = [int(t) for t in prefix]
    for _ in range(k):
        logits, _ = model(torch.tensor([seq]))
        seq.append(int(logits[0, -1].argmax()))
    return seq[k + 1:]


# Thresholds the product side named: a claim on these metrics is tested against this figure
# whenever the measured mean clears it by at least 0.02 ("head 1's mean weight on the
# previous token is above 0.6").
TARGETS = {"previous_token": 0.6}


def claim_of(layer, h, metric, metrics, texts):
    """One claim: the head's measured mean and a threshold a little below it."""
    measured = float(metrics[metric][h])
    threshold = math.floor(max(0.0, measured - max(0.05, 0.1 * measured)) * 100) / 100
    if metric in TARGETS and measured >= TARGETS[metric] + 0.02:
        threshold = max(threshold, TARGETS[metric])
    return {"layer": layer, "head": h, "claim": texts[metric], "metric": metric,
            "measured": round(measured, 4), "threshold": threshold,
            "all_metrics": {m: round(float(v[h]), 4) for m, v in metrics.items()}}


# A behaviour the model card should name even where it is not its head's strongest metric
# (a head can be both the previous-token head and something stronger at a few places).
WANTED = {"tiny-lm": ["previous_token", "first_token", "pronoun_to_subject", "induction", "same_word_earlier"],
          "tiny-llama": ["previous_token", "first_token", "induction"],
          "induction": ["previous_token", "induction"],
          "tiny-lm-zh": ["previous_token", "first_token", "pronoun_to_subject"]}
WANTED_FLOOR = 0.4


def head_claims(name, per_layer, texts):
    """One claim per head (the metric it scores highest on), then, for each WANTED metric,
    a claim for the head that scores highest on it (when that head does not claim it
    already and the score is at least WANTED_FLOOR)."""
    claims = []
    for layer, metrics in enumerate(per_layer):
        heads = len(next(iter(metrics.values())))
        for h in range(heads):
            best = max(metrics, key=lambda m: metrics[m][h])
            claims.append(claim_of(layer, h, best, metrics, texts))
    for metric in WANTED.get(name, []):
        layer, h = max(((l, h) for l, m in enumerate(per_layer) for h in range(len(m[metric]))),
                       key=lambda lh: per_layer[lh[0]][metric][lh[1]])
        if any(c["metric"] == metric and (c["layer"], c["head"]) == (layer, h) for c in claims):
            continue
        if per_layer[layer][metric][h] >= WANTED_FLOOR:
            claims.append(claim_of(layer, h, metric, per_layer[layer], texts))
    return sorted(claims, key=lambda c: (c["layer"], c["head"]))


def best_heads(per_layer):
    """Per metric, the head that scores highest on it: {metric: "L1 H2 0.63"}."""
    out = {}
    for metric in per_layer[0]:
        layer, h = max(((l, h) for l, m in enumerate(per_layer) for h in range(len(m[metric]))),
                       key=lambda lh: per_layer[lh[0]][metric][lh[1]])
        out[metric] = "layer %d head %d: %.2f" % (layer, h, per_layer[layer][metric][h])
    return out


# ---------------------------------------------------------------- a sentence per claim
# A held-out mean can hide on one sentence (the previous-word heads barely show on the card's
# example), so each claim names a sentence that shows it, one click away in the window.
# Chosen by hand from generated sentences where the claim's metric is at least its measured
# figure; "places" are the positions the metric needs (as in heldout.json). A sentence is a
# text or one per language code ("en" required; tiny-lm-zh gives each script its
# characters). tests/test_model_claims.cpp recomputes each figure with AttnViz's core.
CLAIM_SENTENCES = {
    "tiny-lm": {
        (0, 0, "then_to_object"): ("tom met sam then sam helped tom .", dict(kind="repeat", subject=1, object=3, connector=4)),
        (0, 0, "pronoun_to_subject"): ("sam saw tom and he left .", dict(kind="pronoun", subject=1, object=3, connector=4)),
        (0, 1, "same_word_earlier"): ("bob anna tom anna again .", dict(kind="again")),
        (0, 2, "previous_token"): ("two eight three nine four ten", dict(kind="counts")),
        (0, 3, "previous_token"): ("two eight three nine four ten", dict(kind="counts")),
        (1, 0, "and_to_subject"): ("the dog met bob and it ran .", dict(kind="pronoun", subject=2, object=4, connector=5)),
        (1, 1, "first_token"): ("tom john emma sam mary .", dict(kind="again")),
        (1, 2, "self"): ("four nine five ten six .", dict(kind="counts")),
        (1, 3, "first_token"): ("tom john emma sam mary .", dict(kind="again")),
    },
    "tiny-lm-zh": {
        (0, 0, "pronoun_to_subject"): (("小马追了小鸟，它跳了。", "小馬追了小鳥，它跳了。"), dict(kind="pronoun", subject=2, object=6, pronoun=8)),
        (0, 0, "previous_token"): (("三一四二五三。", "三一四二五三。"), dict(kind="counts")),
        (0, 1, "first_token"): (("二五三六四七五。", "二五三六四七五。"), dict(kind="counts")),
        (0, 2, "first_token"): (("三一四二五。", "三一四二五。"), dict(kind="counts")),
        (0, 3, "previous_token"): (("四一五二六三七四八。", "四一五二六三七四八。"), dict(kind="counts")),
        (1, 0, "first_token"): (("小明帮了小鸟，他笑了。", "小明幫了小鳥，他笑了。"), dict(kind="pronoun", subject=2, object=6, pronoun=8)),
        (1, 1, "first_token"): (("八七九八十九。", "八七九八十九。"), dict(kind="counts")),
        (1, 2, "then_to_object"): (("小鸟叫了小明，然后小明帮了小鸟。", "小鳥叫了小明，然後小明幫了小鳥。"),
                                   dict(kind="repeat", subject=2, object=6, connector=9)),
        (1, 3, "pronoun_to_subject"): (("小马追了小鸟，它跳了。", "小馬追了小鳥，它跳了。"), dict(kind="pronoun", subject=2, object=6, pronoun=8)),
    },
    "reverse": {
        (0, 0, "mirror_position"): ("8 3 7 6 2 7 8 9", {}),
        (0, 1, "mirror_position"): ("8 3 7 6 2 7 8 9", {}),
    },
    "sort": {
        (0, 0, "next_larger"): ("4 9 2 6 | 2 4 6 9", dict(k=4)),
        (0, 1, "next_larger"): ("4 9 2 6 | 2 4 6 9", dict(k=4)),
    },
}


def add_claim_sentences(name, card):
    """Gives each head claim of the card its "shown_by": the sentence and the places."""
    for claim in card["head_claims"]:
        found = CLAIM_SENTENCES.get(name, {}).get((claim["layer"], claim["head"], claim["metric"]))
        if found is None:
            continue
        sentence, places = found
        if isinstance(sentence, tuple):  # (simplified, traditional): the English field is the simplified one
            sentence = {"en": sentence[0], ZH_LANGS[0]: sentence[0], ZH_LANGS[1]: sentence[1]}
        claim["shown_by"] = {"sentence": sentence, "places": places}


# ---------------------------------------------------------------- fixtures and card
def tokenize(cfg, text):
    index = {w: i for i, w in enumerate(cfg["vocab"])}
    pieces = [c for c in text if not c.isspace()] if cfg.get("split_chars") else text.split()
    ids = [index.get(w, index["<unk>"]) for w in pieces]
    return ([index["<bos>"]] if cfg["bos"] else []) + ids


FIXTURE_MEANING = {
    "token_ids": "token ids as float32, (L,)",
    "token_embedding": "rows of tok_emb.weight for the ids, (L, D)",
    "position_embedding": "rows 0..L-1 of pos_emb.weight (zeros for a RoPE model), (L, D)",
    "embedding_sum": "token_embedding + position_embedding: the input of layer 0, (L, D)",
    "ln1": "ln1 LayerNorm of the layer input, (L, D)",
    "q": "query, h Wq^T + bq split into heads, (H, L, d_h)",
    "k": "key split into heads, (H_kv, L, d_h) (H_kv = H unless grouped-query)",
    "v": "value split into heads, (H_kv, L, d_h)",
    "q_rot": "query heads turned by RoPE (half-split pairing), (H, L, d_h)",
    "k_rot": "key heads turned by RoPE, before repeat_kv: what a KV cache holds, (H_kv, L, d_h)",
    "scores": "q k^T per head (after RoPE and repeat_kv when the model has them), (H, L, L)",
    "scaled": "scores / sqrt(d_h), (H, L, L)",
    "masked": "scaled with -inf above the diagonal for causal models (same as scaled otherwise), (H, L, L)",
    "weights": "softmax of masked over the last axis, (H, L, L)",
    "context": "weights v per head, (H, L, d_h)",
    "concat": "heads side by side (head 0 in columns 0..d_h-1), (L, D)",
    "attn_out": "concat Wo^T + bo, (L, D)",
    "resid_attn": "layer input + attn_out, (L, D)",
    "ln2": "ln2 LayerNorm of resid_attn, (L, D)",
    "mlp_fc1": "ln2 fc1^T + fc1 bias, (L, 4D)",
    "mlp_gelu": "GELU (exact erf form) of mlp_fc1, (L, 4D)",
    "mlp_fc2": "mlp_gelu fc2^T + fc2 bias, (L, D)",
    "resid_mlp": "resid_attn + mlp_fc2: the layer output, (L, D)",
    "final_norm": "ln_f LayerNorm of the last layer's output, (L, D)",
    "logits": "final_norm lm_head^T, (L, V)",
    "probs": "softmax of logits over the vocabulary, (L, V)",
}


def write_fixtures(name, cfg, model, ids, heldout):
    folder = os.path.join(FIXTURES, name)
    os.makedirs(folder, exist_ok=True)
    for old in os.listdir(folder):
        os.remove(os.path.join(folder, old))
    trace = {}
    if cfg.get("fixture_float64"):
        # The reference is the exact result rounded to float32: with these weights torch's own
        # float32 sums can be 8e-6 away from it in layer 1's scores (AttnViz's 2e-6), which
        # would eat most of the parity test's 1e-5.
        model = copy.deepcopy(model).double()
    with torch.no_grad():
        model(torch.tensor([ids]), trace)
    files = [("token_ids", np.array(ids, dtype=np.float32))]
    files += [(k, v[0].detach().numpy()) for k, v in trace.items()]
    manifest = {"model": name, "tokens": [cfg["vocab"][i] for i in ids], "token_ids": ids, "files": []}
    for key, arr in files:
        arr = np.ascontiguousarray(arr.astype(np.float32))
        np.save(os.path.join(folder, key + ".npy"), arr, allow_pickle=False)
        step = key.split(".")[-1]
        meaning = FIXTURE_MEANING[step]
        if key.startswith("layer"):
            meaning = "layer %s: %s" % (key[5:key.index(".")], meaning)
        manifest["files"].append({"file": key + ".npy", "shape": list(arr.shape), "meaning": meaning})
    write_json(os.path.join(folder, "manifest.json"), manifest)
    write_json(os.path.join(folder, "heldout.json"), heldout)


def tensor_names(cfg):
    """File order. A Llama-style model (cfg["llama"]) has no pos_emb and no biases."""
    llama = cfg.get("llama", False)
    params = ("weight",) if llama else ("weight", "bias")
    names = ["tok_emb.weight"] + ([] if llama else ["pos_emb.weight"])
    for i in range(cfg["layers"]):
        p = "layers.%d." % i
        names += [p + "ln1." + x for x in params]
        for proj in ("q_proj", "k_proj", "v_proj", "o_proj"):
            names += [p + "attn.%s.%s" % (proj, x) for x in params]
        if cfg["mlp"]:
            names += [p + part + "." + x for part in ("ln2", "mlp.fc1", "mlp.fc2") for x in params]
    return names + ["ln_f." + x for x in params] + ["lm_head.weight"]


def tokenizer_text(cfg):
    """The card's one line on how text becomes tokens (core/model/tokenizer.cpp does it)."""
    if cfg.get("split_chars"):
        split = ("each Chinese character and each full-width punctuation mark is a token; Latin words and numbers "
                 "stay whole; a token not in the vocabulary becomes <unk>")
    else:
        split = "split on spaces; a word not in the vocabulary becomes <unk>"
    return split + ("; <bos> is put in front" if cfg["bos"] else "; no <bos>")


def vocabulary_facts(cfg):
    """The card's "token_unit" and, for a vocabulary in two scripts, "script_forms": what the
    window reads to word the tokens step and to show each token in the script in use."""
    if not cfg.get("split_chars"):
        return {"token_unit": "word"}
    return {"token_unit": "character", "script_forms": tasks_zh.script_forms(cfg["vocab"])}


def add_zh_text(card, cfg):
    """The card's Chinese text in the form app/io/model_card.cpp reads (assets/models/README.md,
    "The card's words in other languages"): each prose field of `zh_text` and each head claim
    becomes an object of texts by language, {"en": ..., "zh-Hans": ..., "zh-Hant": ...}; the
    example sentence in each script is a field of its own, "example_zh-Hans" / "example_zh-Hant"
    (a sentence the window types into its box, not prose)."""
    for field, texts in cfg["zh_text"].items():
        card[field] = {"en": card[field], **dict(zip(ZH_LANGS, texts))}
    for claim in card["head_claims"]:
        claim["claim"] = {"en": claim["claim"], **dict(zip(ZH_LANGS, cfg["zh_claims"][claim["metric"]]))}
    for lang, example in zip(ZH_LANGS, cfg.get("zh_example", ())):
        card["example_" + lang] = example


def architecture(cfg, names):
    """The card's "architecture": what app/io/model_card.cpp checks before it runs the model."""
    llama = cfg.get("llama", False)
    arch = {"norm": "rmsnorm" if llama else "layernorm", "norm_eps": 1e-5, "norm_placement": "pre",
            "position_embedding": "rope" if llama else "learned", "mlp": cfg["mlp"],
            "gelu": "erf" if cfg["mlp"] else None, "causal": cfg["causal"],
            "attention_scale": "1/sqrt(head_dim)", "qkv_bias": not llama, "out_bias": not llama,
            "final_norm": True, "tied_unembedding": False, "unembedding_bias": False}
    if llama:
        arch.update({"rope_base": 10000.0, "rope_pairing": "half", "kv_heads": cfg["kv_heads"],
                     "mlp_bias": False, "norm_bias": False})
    arch["tensors"] = names
    return arch


def build(name):
    cfg = MODELS[name]
    print("training %s" % name, flush=True)
    start = time.time()
    model, train_loss = train(name, cfg)
    seconds = time.time() - start
    acc, per_layer, heldout, texts = evaluate(name, cfg, model)
    claims = head_claims(name, per_layer, texts)

    state = model.state_dict()
    names = tensor_names(cfg)
    assert sorted(names) == sorted(state.keys()), sorted(set(state.keys()) ^ set(names))
    path = os.path.join(HERE, name + ".safetensors")
    write_safetensors(path, [(n, state[n]) for n in names], {"format": "pt", "model": name})
    back = read_safetensors(path)
    for n in names:
        assert np.array_equal(back[n], state[n].numpy()), n

    ids = tokenize(cfg, cfg["example"])
    write_fixtures(name, cfg, model, ids, heldout)
    card = {
        "name": name, "kind": cfg["kind"], "description": cfg["description"],
        "layers": cfg["layers"], "heads": cfg["heads"], "hidden_dim": cfg["dim"],
        "head_dim": cfg["dim"] // cfg["heads"], "mlp_dim": 4 * cfg["dim"] if cfg["mlp"] else 0,
        "vocab_size": len(cfg["vocab"]), "max_len": cfg["max_len"], "vocabulary": cfg["vocab"],
        "tokenizer": tokenizer_text(cfg),
        **vocabulary_facts(cfg),
        "prepend_bos": cfg["bos"],
        "architecture": architecture(cfg, names),
        "example": cfg["example"],
        "reading_the_output": cfg["output"],
        "example_tokens": [cfg["vocab"][i] for i in ids],
        "head_claims": claims,
        "heldout_inputs": "tests/fixtures/models/%s/heldout.json" % name,
        "training": {"steps": cfg["steps"], "batch": cfg["batch"], "seed": cfg["seed"],
                     "optimizer": "AdamW lr %g, weight decay 0.01, 100 warm-up steps then cosine" % cfg["lr"],
                     "attention_entropy_penalty": list(cfg.get("attn_entropy", [0.0] * cfg["layers"])),
                     **({"position_table_init": "sinusoidal x %g" % cfg["sin_pos_init"]} if cfg.get("sin_pos_init") else {}),
                     "final_train_loss": round(train_loss, 4), "heldout": acc,
                     "wall_time_seconds": round(seconds, 1), "threads": 1,
                     "torch": torch.__version__},
    }
    if "note_key" in cfg:
        card["note_key"] = cfg["note_key"]  # a catalogue sentence the window shows under the card
    if "code_recipe" in cfg:
        card["code_recipe"] = cfg["code_recipe"]  # the recipe whose class the code panel shows
    if "grow" in cfg:
        grow = cfg["grow"]
        card["training"]["vocabulary_growth"] = {
            "words": cfg["vocab"][len(grow["first_vocab"]):], "first_vocab_size": len(grow["first_vocab"]),
            "steps": grow["steps"], "seed": grow["seed"],
            "optimizer": "AdamW lr %g, weight decay 0.01, 100 warm-up steps then cosine" % grow["lr"]}
    if name in WANTED:
        card["best_head_per_metric"] = best_heads(per_layer)
        card["unclaimed"] = ["no head is mainly a %s head: the best is %s (below %.1f, so not claimed)"
                             % (m, card["best_head_per_metric"][m], WANTED_FLOOR)
                             for m in WANTED[name] if not any(c["metric"] == m for c in claims)]
    if "zh_text" in cfg:
        add_zh_text(card, cfg)
    add_claim_sentences(name, card)
    write_json(os.path.join(HERE, name + ".json"), card)
    print("  %s: %s (%.1f s)" % (name, acc, seconds), flush=True)
    for c in claims:
        print("    L%d H%d %-20s %.3f (>= %.2f)" % (c["layer"], c["head"], c["metric"], c["measured"], c["threshold"]))


def main():
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    names = sys.argv[1:] or list(MODELS)
    for name in names:
        if name not in MODELS:
            sys.exit("unknown model %s; known: %s" % (name, ", ".join(MODELS)))
        build(name)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Deterministic diary corpus for Diary's benchmarks (stdlib only).

    python3 bench/corpus.py --entries 100000 --out bench/work

writes into --out:

  diary.json    Diary's export format ({"format": "diary-export", "version": 1, ...})
  journal.txt   the same entries as a jrnl 4.x plain-text journal
  plain.sqlite  the same entries in one plain SQLite table with an FTS5
                (unicode61) index: the raw baseline
  stats.json    counts and sizes (read by bench/report.py)

and prints the total text size (UTF-8 bytes of titles + bodies).

Variant B (--variant B; A, the default, is the corpus as it always was, byte for byte): the
same entries, each with 1 to 3 tags (50% one, 35% two, 15% three) from a vocabulary of about 100
English and 70 Korean tags, drawn by rank (Zipf: the n-th tag of a language n times rarer than
the first), mostly in the entry's own language (1 in 10 from the other). diary.json gives them
as "tags": [...]; journal.txt ends each body with a line of them as jrnl writes tags ("@work
@가족"), so jrnl's `@tag` filters find the same entries (plain.sqlite has none: use --no-sqlite).
Titles and bodies are A's, and text_bytes counts only them. The tags
come from a random generator of their own, so A's entries do not move. stats.json also says
which tag the benchmarks filter by (the most used one) and how many entries carry it, and the
day they filter by (2015-05-03, or the first day after it with entries) with its entries.

Entries are spread over 20 years (2006-01-01 .. 2025-12-31 UTC), strictly
increasing in time; ~60% English, ~40% Korean. Body lengths are log-normal
with a median of ~1,500 UTF-8 bytes (mean ~1,740), so 100,000 entries hold
~174 MB of text, the size DESIGN.md measured its numbers on.

Marker words appear in an exact, known number of entries and nowhere else:
  "serenity" in round(0.5% * N) English entries (in the body, lower case,
  as a whole word), "일기" in round(2% * N) Korean entries (the body, as
  "일기를", "일기장에", ...). stats.json records the counts.

Nothing here depends on the clock, the locale or the machine: the same
arguments give byte-identical files.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import os
import random
import sqlite3
import sys
import uuid

SEED = 20060101
START = dt.datetime(2006, 1, 1, tzinfo=dt.timezone.utc)
END = dt.datetime(2025, 12, 31, 23, 59, 59, tzinfo=dt.timezone.utc)

MEDIAN_BODY_BYTES = 1500
SIGMA = 0.55  # log-normal spread: mean = median * exp(sigma^2 / 2) ~ 1.16 * median
MIN_BODY_BYTES = 120
MAX_BODY_BYTES = 14000

ENGLISH_SHARE = 0.60
SERENITY_SHARE = 0.005
ILGI_SHARE = 0.02

# ---------------------------------------------------------------- English

EN = {
    "time": [
        "This morning", "Early this morning", "Around noon", "In the afternoon",
        "This evening", "Late tonight", "After lunch", "Before breakfast",
        "On the way home", "At the office", "After dinner", "Just before bed",
        "At dawn", "Mid-morning", "Around five", "During the commute",
    ],
    "weather": [
        "it rained all day", "the sky was clear and blue", "it was cold and windy",
        "the sun came out at last", "a light snow fell", "it was humid and grey",
        "there was a thunderstorm", "the fog did not lift until ten",
        "it was warm enough for a t-shirt", "the wind pushed the clouds away",
        "it drizzled on and off", "the first frost covered the cars",
        "it was the hottest day of the year so far", "the air smelled of rain",
        "the leaves were turning yellow", "the cherry trees were in bloom",
        "a cold front came through", "it hailed for five minutes",
    ],
    "person": [
        "Mom", "Dad", "my sister", "my brother", "Grandma", "Grandpa", "my wife",
        "my husband", "the kids", "my daughter", "my son", "Aunt Mary",
        "Uncle Tom", "my cousin", "my boss", "a coworker", "an old friend",
        "the neighbor", "Sarah", "James", "Emily", "Daniel", "Olivia", "Michael",
        "Jessica", "David", "Hannah", "Chris", "Rachel", "Kevin", "Laura",
        "Brian", "Megan", "Eric", "Nicole", "Jason", "Amanda", "Ryan", "Sophie",
        "the new intern", "my manager", "the doctor", "our landlord", "the team",
    ],
    "food": [
        "pancakes", "oatmeal", "a bagel", "scrambled eggs", "pasta", "ramen",
        "fried rice", "a burrito", "sushi", "pizza", "tomato soup",
        "a grilled cheese", "chicken curry", "dumplings", "a big salad",
        "leftover lasagna", "tacos", "pho", "bibimbap", "a turkey sandwich",
        "fish and chips", "steak", "roast chicken", "mac and cheese",
        "banana bread", "apple pie", "ice cream", "strawberries", "toast",
        "kimchi stew", "noodle soup", "a veggie burger", "falafel", "risotto",
    ],
    "place": [
        "the park", "the office", "the library", "the grocery store", "the gym",
        "the beach", "the river", "downtown", "the coffee shop", "the station",
        "the hospital", "the school", "the mall", "the farmers market",
        "the museum", "the lake", "the hills", "the bakery", "the bookstore",
        "the airport", "the old neighborhood", "the train platform",
    ],
    "activity": [
        "went for a long walk", "cleaned the whole apartment", "did the laundry",
        "read a few chapters", "watched a movie", "fixed the leaking faucet",
        "paid the bills", "answered emails for an hour", "went for a run",
        "baked bread", "called the bank", "planted tomatoes", "repainted the fence",
        "sorted old photos", "practiced the guitar", "wrote letters",
        "cooked dinner for everyone", "took a nap", "went swimming",
        "organized the closet", "played board games", "rode my bike",
        "washed the car", "studied for the exam", "finished the puzzle",
    ],
    "work": [
        "the quarterly report", "a long meeting", "the budget review",
        "the new project", "a client call", "the presentation", "the deadline",
        "the product launch", "a job interview", "the performance review",
        "the server migration", "the hiring plan", "the team offsite",
        "a training session", "the annual audit", "the spreadsheet",
    ],
    "feeling": [
        "tired", "happy", "calm", "anxious", "grateful", "restless", "proud",
        "a little sad", "hopeful", "relieved", "overwhelmed", "content",
        "nervous", "bored", "excited", "lonely", "peaceful", "frustrated",
    ],
    "adverb": [
        "finally", "again", "quietly", "slowly", "almost", "honestly",
        "surprisingly", "probably", "really", "still", "already", "just",
    ],
}

EN_TEMPLATES = [
    "{time} {weather}.",
    "{time} I {activity}.",
    "I {adverb} {activity} with {person}.",
    "{person} and I had {food} at {place}.",
    "We had {food} for dinner and {food} for dessert.",
    "Spent most of the day on {work}.",
    "{work} went better than I expected.",
    "{work} took longer than planned, and I stayed late.",
    "I felt {feeling} all afternoon.",
    "I am {feeling} about {work}.",
    "{person} called and we talked for almost an hour.",
    "{person} came over and we {activity}.",
    "Walked to {place} because {weather}.",
    "Took the bus to {place} and back.",
    "Lunch was {food}, which was fine.",
    "Breakfast was {food} and coffee.",
    "I keep thinking about what {person} said yesterday.",
    "Tomorrow I want to {activity_base}.",
    "Note to self: remember to call {person}.",
    "Bought {food} at {place} on the way home.",
    "It was a {feeling_adj} day, all things considered.",
    "{time} {person} told me about {work}.",
    "I {adverb} went to bed early.",
    "Ran into {person} at {place}.",
    "By the evening {weather}.",
    "Spent an hour at {place} doing nothing in particular.",
    "I should write more often; the days blur together.",
    "Slept badly and woke up {feeling}.",
    "Made {food} from the recipe {person} gave me.",
    "The {number} o'clock train was late again.",
    "Walked {number} kilometers today.",
    "Paid {number} dollars for {food}, which felt like too much.",
]

EN_TITLE_WORDS = (
    "quiet rainy busy long short good strange lazy cold warm bright grey "
    "Monday Tuesday Wednesday Thursday Friday Saturday Sunday weekend morning "
    "evening night day week visit walk dinner lunch work meeting trip home "
    "family garden letter news call sunset snow rain wind spring summer autumn "
    "winter birthday holiday kitchen market river park office train road "
    "thoughts notes plans hopes worries small things another finally again"
).split()

EN_TITLE_TEMPLATES = [
    "A {adj} {noun}",
    "{noun} with {person}",
    "{time_short} at {place}",
    "Notes on {work}",
    "{adj} {noun}, {adj} {noun}",
    "What {person} said",
]

# ---------------------------------------------------------------- Korean

KO = {
    "time": [
        "오늘", "오늘 아침", "아침 일찍", "점심때", "오후에", "저녁에", "밤늦게",
        "퇴근길에", "출근길에", "주말에", "새벽에", "자기 전에", "점심 먹고",
    ],
    "weather": [
        "날씨가 맑았다", "하루 종일 비가 왔다", "바람이 많이 불었다",
        "눈이 조금 내렸다", "구름이 잔뜩 끼었다", "무척 더웠다", "꽤 쌀쌀했다",
        "미세먼지가 심했다", "하늘이 유난히 파랬다", "소나기가 쏟아졌다",
        "안개가 짙게 꼈다", "햇살이 따뜻했다", "장마가 시작됐다",
        "첫눈이 왔다", "벚꽃이 활짝 피었다", "단풍이 예쁘게 들었다",
    ],
    "person": [
        "엄마", "아빠", "언니", "오빠", "누나", "형", "동생", "할머니", "할아버지",
        "친구", "남편", "아내", "아들", "딸", "사촌", "이모", "삼촌", "팀장님",
        "부장님", "동료", "선배", "후배", "민수", "지영", "서연", "현우", "수빈",
        "지훈", "예린", "도윤", "하은", "준서", "유나", "재민", "소희", "태현",
    ],
    "food": [
        "김치찌개", "된장찌개", "비빔밥", "불고기", "떡볶이", "라면", "삼겹살",
        "냉면", "칼국수", "김밥", "순대국", "짜장면", "짬뽕", "치킨", "피자",
        "샌드위치", "떡국", "잡채", "갈비찜", "부대찌개", "만두", "파전",
        "국수", "볶음밥", "샐러드", "빵", "케이크", "아이스크림", "수박", "귤",
    ],
    "place": [
        "회사", "공원", "도서관", "카페", "시장", "마트", "병원", "학교", "헬스장",
        "한강", "바닷가", "산", "지하철역", "백화점", "서점", "영화관", "식당",
        "본가", "동네 빵집", "버스 정류장",
    ],
    "activity": [
        "산책을 했다", "청소를 했다", "빨래를 했다", "책을 읽었다",
        "영화를 봤다", "운동을 했다", "장을 봤다", "요리를 했다",
        "낮잠을 잤다", "사진을 정리했다", "기타 연습을 했다", "편지를 썼다",
        "자전거를 탔다", "수영을 했다", "방 정리를 했다", "공부를 했다",
        "화분에 물을 줬다", "설거지를 했다", "드라마를 몰아 봤다",
    ],
    "work": [
        "회의", "보고서", "발표", "프로젝트", "마감", "출장", "야근", "면접",
        "회식", "교육", "결산", "기획안", "신입 교육", "고객 미팅",
    ],
    "feeling": [
        "피곤했다", "행복했다", "마음이 편했다", "불안했다", "감사했다",
        "설렜다", "뿌듯했다", "조금 우울했다", "기분이 좋았다", "속상했다",
        "심심했다", "외로웠다", "지쳤다", "후련했다", "긴장됐다",
    ],
}

KO_TEMPLATES = [
    "{time} {weather}.",
    "{time} {activity}.",
    "{person}{wa} 같이 {food}{eul} 먹었다.",
    "점심으로 {food}{eul} 먹었다.",
    "저녁은 {food}{i}었다.",
    "{place}에 다녀왔다.",
    "{place}에서 {person}{eul} 만났다.",
    "{work} 때문에 하루 종일 바빴다.",
    "{work}{i} 생각보다 잘 끝났다.",
    "{work} 준비로 늦게까지 회사에 있었다.",
    "하루 종일 {feeling}.",
    "왠지 모르게 {feeling}.",
    "{person}{ege} 전화가 왔다.",
    "{person}{wa} 오랜만에 통화를 했다.",
    "{time} {person}{wa} {place}에 갔다.",
    "내일은 {place}에 가 봐야겠다.",
    "{weather}. 그래서 집에 있었다.",
    "{place} 가는 길에 {food}{eul} 샀다.",
    "요즘 {work} 생각만 하면 {feeling}.",
    "잠을 설쳐서 {feeling}.",
    "{person}{i} 만들어 준 {food}{i} 정말 맛있었다.",
    "오늘도 별일 없이 지나갔다.",
    "{number}시쯤 집에 들어왔다.",
    "오늘은 {number}킬로미터를 걸었다.",
    "{food} 값이 {digit}천 원이나 올랐다.",
    "{time} {activity}. {feeling}.",
]

KO_TITLE_WORDS = (
    "오늘 하루 조용한 바쁜 긴 짧은 좋은 이상한 느긋한 추운 따뜻한 흐린 월요일 "
    "화요일 수요일 목요일 금요일 토요일 일요일 주말 아침 저녁 밤 산책 저녁밥 "
    "점심 회사 회의 여행 집 가족 정원 편지 소식 전화 노을 눈 비 바람 봄 여름 "
    "가을 겨울 생일 휴일 부엌 시장 강 공원 기차 생각 계획 걱정 작은 것들 또 드디어"
).split()

# Sentences that carry the marker words (and only these do).
SERENITY_SENTENCES = [
    "There was a kind of serenity in the empty streets.",
    "I found some serenity by the water this afternoon.",
    "The serenity of the morning did not last long.",
    "For once I felt serenity instead of worry.",
]
ILGI_SENTENCES = [
    "자기 전에 일기를 썼다.",
    "오랜만에 일기장을 펼쳤다.",
    "오늘 있었던 일을 일기에 적었다.",
    "일기를 쓰다 보니 마음이 차분해졌다.",
    "예전 일기를 다시 읽어 보았다.",
]


# ---------------------------------------------------------------- tags (variant B)

# Most used first: a tag's weight is 1 / its rank (Zipf), so the first few are common and the
# rest a long tail. Words jrnl reads as one tag ([-+*#/\w]+, so a hyphen joins words) and
# without the marker words (serenity, 일기).
EN_TAGS = (
    "work family friends food health weather kids reading exercise travel "
    "gratitude cooking music movies garden money sleep running coffee weekend "
    "books school home ideas dreams mood goals walks holiday birthday "
    "meetings shopping doctor car photos hiking rain letters moving cleaning "
    "dinner-party book-club side-project new-job job-search taxes dentist bike "
    "yoga swimming podcasts tv board-games guitar piano baking camping beach "
    "road-trip parents grandparents wedding anniversary christmas thanksgiving "
    "new-year halloween vacation conference deadline interview promotion "
    "budget rent neighbors pets dog cat vet plants renovation furniture "
    "insomnia headache flu therapy meditation journaling poetry sketching "
    "museum concert theater volunteering church lunch-with-mom insurance"
).split()
KO_TAGS = (
    "일상 가족 회사 친구 날씨 건강 음식 운동 여행 감사 "
    "독서 요리 산책 카페 영화 주말 공부 육아 음악 출근 "
    "야근 회식 생일 명절 병원 장보기 청소 이사 연애 결혼 "
    "부모님 조카 동생 강아지 고양이 화분 텃밭 등산 수영 자전거 "
    "맛집 드라마 사진 편지 선물 돈 적금 월급 면접 이직 "
    "시험 자격증 다이어트 불면 두통 감기 상담 명상 글쓰기 그림 "
    "전시회 공연 봉사 제주도 부산 캠핑 바다 벚꽃 단풍 첫눈"
).split()
ON_DAY = "2015-05-03"
TAG_SHARES = ((1, 0.50), (2, 0.35), (3, 0.15))  # how many tags an entry has
OTHER_LANGUAGE_TAG = 0.10


def tags_for(rng: random.Random, english: bool) -> list[str]:
    """1 to 3 different tags for one entry, by rank in its language (now and then the other's)."""
    count = rng.choices([c for c, _ in TAG_SHARES], weights=[w for _, w in TAG_SHARES])[0]
    tags: list[str] = []
    while len(tags) < count:
        in_english = english if rng.random() >= OTHER_LANGUAGE_TAG else not english
        words, cumulative = (EN_TAGS, _EN_CUMULATIVE) if in_english else (KO_TAGS, _KO_CUMULATIVE)
        tag = rng.choices(words, cum_weights=cumulative)[0]
        if tag not in tags:
            tags.append(tag)
    return tags


def _zipf(words: list[str]) -> list[float]:
    """Cumulative weights 1, 1 + 1/2, 1 + 1/2 + 1/3, ... for `words` in rank order."""
    total, out = 0.0, []
    for rank in range(1, len(words) + 1):
        total += 1.0 / rank
        out.append(total)
    return out


_EN_CUMULATIVE = _zipf(EN_TAGS)
_KO_CUMULATIVE = _zipf(KO_TAGS)


def has_batchim(word: str) -> bool:
    c = word.rstrip()[-1]
    code = ord(c) - 0xAC00
    if 0 <= code <= 11171:
        return code % 28 != 0
    return c in "0123456789"  # good enough for this corpus


def josa(word: str, with_batchim: str, without: str) -> str:
    return with_batchim if has_batchim(word) else without


class Generator:
    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    # -- English
    def en_sentence(self) -> str:
        r = self.rng
        t = r.choice(EN_TEMPLATES)
        fill = {
            k: r.choice(v) for k, v in EN.items()
        }
        fill["activity_base"] = self._base_form(r.choice(EN["activity"]))
        fill["feeling_adj"] = r.choice(["good", "long", "strange", "quiet", "hard", "slow", "busy", "fine"])
        fill["number"] = str(r.randint(2, 12))
        # several {food} in one template get different values
        while "{food}" in t:
            t = t.replace("{food}", r.choice(EN["food"]), 1)
        s = t.format(**fill)
        return s[0].upper() + s[1:]

    @staticmethod
    def _base_form(activity: str) -> str:
        first, _, rest = activity.partition(" ")
        base = {
            "went": "go", "cleaned": "clean", "did": "do", "read": "read",
            "watched": "watch", "fixed": "fix", "paid": "pay", "answered": "answer",
            "baked": "bake", "called": "call", "planted": "plant",
            "repainted": "repaint", "sorted": "sort", "practiced": "practice",
            "wrote": "write", "cooked": "cook", "took": "take", "organized": "organize",
            "played": "play", "rode": "ride", "washed": "wash", "studied": "study",
            "finished": "finish",
        }.get(first, first)
        return f"{base} {rest}"

    def en_title(self) -> str:
        r = self.rng
        n = r.randint(2, 12)
        if r.random() < 0.5:
            words = [r.choice(EN_TITLE_WORDS) for _ in range(n)]
        else:
            t = r.choice(EN_TITLE_TEMPLATES).format(
                adj=r.choice(["quiet", "rainy", "busy", "long", "strange", "good", "cold", "bright"]),
                noun=r.choice(["day", "week", "morning", "evening", "walk", "dinner", "visit", "night"]),
                person=r.choice(EN["person"]),
                time_short=r.choice(["Morning", "Afternoon", "Evening", "Sunday", "Saturday"]),
                place=r.choice(EN["place"]),
                work=r.choice(EN["work"]),
            )
            words = t.split()
            while len(words) < 2:
                words.append(r.choice(EN_TITLE_WORDS))
            words = words[:12]
        title = " ".join(words)
        return title[0].upper() + title[1:]

    # -- Korean
    def ko_sentence(self) -> str:
        r = self.rng
        t = r.choice(KO_TEMPLATES)
        out = []
        # fill left to right so particles attach to the word just before them
        i = 0
        while i < len(t):
            if t[i] == "{":
                j = t.index("}", i)
                key = t[i + 1 : j]
                prev = "".join(out)
                if key in KO:
                    out.append(r.choice(KO[key]))
                elif key == "number":
                    out.append(str(r.randint(2, 12)))
                elif key == "digit":
                    out.append(str(r.randint(2, 9)))
                elif key == "eul":
                    out.append(josa(prev, "을", "를"))
                elif key == "i":
                    out.append(josa(prev, "이", "가"))
                elif key == "wa":
                    out.append(josa(prev, "과", "와"))
                elif key == "ege":
                    out.append("에게서")
                i = j + 1
            else:
                out.append(t[i])
                i += 1
        s = "".join(out)
        # "{food}{i}었다" -> 김치찌개였다 / 불고기였다 style; keep it readable
        s = s.replace("가었다", "였다").replace("이었다", "이었다")
        return s

    def ko_title(self) -> str:
        r = self.rng
        n = r.randint(2, 12)
        return " ".join(r.choice(KO_TITLE_WORDS) for _ in range(n))

    # -- body
    def body(self, english: bool, target_bytes: int, marker: str | None) -> str:
        r = self.rng
        sentence = self.en_sentence if english else self.ko_sentence
        paragraphs: list[str] = []
        size = 0
        marker_done = marker is None
        marker_at = r.randint(0, max(0, target_bytes - 1))
        while size < target_bytes:
            k = r.randint(2, 7)
            sents = []
            for _ in range(k):
                if not marker_done and size >= marker_at:
                    s = r.choice(SERENITY_SENTENCES if marker == "serenity" else ILGI_SENTENCES)
                    marker_done = True
                else:
                    s = sentence()
                sents.append(s)
                size += len(s.encode()) + 1
                if size >= target_bytes:
                    break
            paragraphs.append(" ".join(sents))
            size += 1
        if not marker_done:
            s = r.choice(SERENITY_SENTENCES if marker == "serenity" else ILGI_SENTENCES)
            paragraphs[-1] += " " + s
        return "\n\n".join(paragraphs)


def timestamps(rng: random.Random, n: int) -> list[int]:
    """n strictly increasing UTC Unix seconds in [START, END], evenly spread with jitter."""
    start = int(START.timestamp())
    end = int(END.timestamp())
    span = end - start + 1
    out = []
    prev = start - 1
    for i in range(n):
        lo = start + (i * span) // n
        hi = start + ((i + 1) * span) // n - 1
        t = rng.randint(lo, max(lo, hi))
        if i == 0:
            t = start + 8 * 3600 if hi >= start + 8 * 3600 else lo  # 2006-01-01 08:00:00
        t = max(t, prev + 1)
        out.append(t)
        prev = t
    return out


def iso(ts: int) -> str:
    return dt.datetime.fromtimestamp(ts, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def jrnl_date(ts: int) -> str:
    # jrnl's default timeformat '%F %r' as it writes it in the C locale
    d = dt.datetime.fromtimestamp(ts, dt.timezone.utc)
    hour12 = d.hour % 12 or 12
    ampm = "AM" if d.hour < 12 else "PM"
    return f"{d:%Y-%m-%d} {hour12:02d}:{d:%M:%S} {ampm}"


def generate(n: int, seed: int):
    gen = Generator(seed)
    rng = gen.rng
    times = timestamps(rng, n)
    english = [rng.random() < ENGLISH_SHARE for _ in range(n)]
    en_idx = [i for i in range(n) if english[i]]
    ko_idx = [i for i in range(n) if not english[i]]
    n_serenity = min(len(en_idx), round(n * SERENITY_SHARE))
    n_ilgi = min(len(ko_idx), round(n * ILGI_SHARE))
    marker = [None] * n
    for i in rng.sample(en_idx, n_serenity):
        marker[i] = "serenity"
    for i in rng.sample(ko_idx, n_ilgi):
        marker[i] = "일기"
    for i in range(n):
        target = int(math.exp(rng.gauss(math.log(MEDIAN_BODY_BYTES), SIGMA)))
        target = max(MIN_BODY_BYTES, min(MAX_BODY_BYTES, target))
        entry_id = str(uuid.UUID(int=rng.getrandbits(128), version=4))
        title = gen.en_title() if english[i] else gen.ko_title()
        body = gen.body(english[i], target, marker[i])
        yield {
            "id": entry_id,
            "title": title,
            "body": body,
            "ts": times[i],
            "english": english[i],
        }
    # counts are known up front
    generate.counts = {"serenity": n_serenity, "일기": n_ilgi}


def check_entry(e: dict) -> None:
    """Guards against text jrnl would misread (dates, tags, stars)."""
    for forbidden in ("[", "]", "@", "#", "\r"):
        assert forbidden not in e["title"] and forbidden not in e["body"], (forbidden, e["id"])
    assert "\n" not in e["title"] and not e["title"].endswith("*")
    assert e["body"].strip() == e["body"] and e["body"]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--entries", "-n", type=int, default=100_000)
    p.add_argument("--out", "-o", default="bench/work")
    p.add_argument("--seed", type=int, default=SEED)
    p.add_argument("--no-sqlite", action="store_true", help="skip plain.sqlite")
    p.add_argument("--variant", choices=("A", "B"), default="A",
                   help="A: no tags (the default, as it always was); B: 1 to 3 tags an entry")
    args = p.parse_args(argv)
    n = args.entries
    if n < 1:
        p.error("--entries must be at least 1")
    os.makedirs(args.out, exist_ok=True)

    json_path = os.path.join(args.out, "diary.json")
    jrnl_path = os.path.join(args.out, "journal.txt")
    sqlite_path = os.path.join(args.out, "plain.sqlite")
    for path in (sqlite_path, sqlite_path + "-journal", sqlite_path + "-wal"):
        if os.path.exists(path):
            os.remove(path)

    db = None
    if not args.no_sqlite:
        db = sqlite3.connect(sqlite_path)
        db.executescript(
            """
            PRAGMA journal_mode = OFF;
            PRAGMA synchronous = OFF;
            CREATE TABLE entry (
                id TEXT PRIMARY KEY NOT NULL,
                title TEXT NOT NULL,
                body TEXT NOT NULL,
                created_at TEXT NOT NULL,
                updated_at TEXT NOT NULL
            );
            CREATE INDEX entry_created_at ON entry (created_at);
            CREATE VIRTUAL TABLE entry_fts USING fts5(
                title, body, content='entry', content_rowid='rowid',
                tokenize='unicode61'
            );
            """
        )
        db.execute("BEGIN")

    text_bytes = 0
    text_chars = 0
    body_bytes = []
    body_chars = []
    found = {"serenity": 0, "일기": 0}
    n_english = 0
    tagged = args.variant == "B"
    # The tags' own generator: the entries' stays as in variant A.
    tag_rng = random.Random(f"{args.seed}/tags")
    tag_counts: dict[str, int] = {}
    tags_per_entry = {1: 0, 2: 0, 3: 0}
    days: dict[str, int] = {}  # entries a UTC day, in order (variant B's day to filter by)
    with open(json_path, "w", encoding="utf-8", newline="\n") as fj, \
            open(jrnl_path, "w", encoding="utf-8", newline="\n") as ft:
        fj.write('{"format": "diary-export", "version": 1, "entries": [\n')
        for k, e in enumerate(generate(n, args.seed)):
            check_entry(e)
            stamp = iso(e["ts"])
            record = {
                "id": e["id"],
                "title": e["title"],
                "body": e["body"],
                "createdAt": stamp,
                "updatedAt": stamp,
                "version": 1,
                "deletedAt": None,
            }
            jrnl_body = e["body"]
            if tagged:
                tags = tags_for(tag_rng, e["english"])
                record["tags"] = tags
                # jrnl keeps tags in the text: a last paragraph of them.
                jrnl_body += "\n\n" + " ".join("@" + t for t in tags)
                tags_per_entry[len(tags)] += 1
                day = iso(e["ts"])[:10]
                days[day] = days.get(day, 0) + 1
                for t in tags:
                    tag_counts[t] = tag_counts.get(t, 0) + 1
            if k:
                fj.write(",\n")
            fj.write(json.dumps(record, ensure_ascii=False))
            if k:
                ft.write("\n")
            ft.write(f"[{jrnl_date(e['ts'])}] {e['title']}\n{jrnl_body}\n")
            if db is not None:
                db.execute(
                    "INSERT INTO entry (rowid, id, title, body, created_at, updated_at)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (k + 1, e["id"], e["title"], e["body"], stamp, stamp),
                )
            tb = len(e["title"].encode()) + len(e["body"].encode())
            text_bytes += tb
            text_chars += len(e["title"]) + len(e["body"])
            body_bytes.append(len(e["body"].encode()))
            body_chars.append(len(e["body"]))
            n_english += e["english"]
            for w in found:
                if w in e["title"].lower() or w in e["body"].lower():
                    found[w] += 1
        fj.write("\n]}\n")

    expected = generate.counts
    assert found == expected, (found, expected)

    if db is not None:
        db.execute("INSERT INTO entry_fts (rowid, title, body) SELECT rowid, title, body FROM entry")
        db.execute("INSERT INTO entry_fts (entry_fts) VALUES ('optimize')")
        db.commit()
        db.execute("VACUUM")
        db.close()

    body_bytes.sort()
    body_chars.sort()
    stats = {
        "entries": n,
        "seed": args.seed,
        "english": n_english,
        "korean": n - n_english,
        "text_bytes": text_bytes,
        "text_chars": text_chars,
        "median_body_bytes": body_bytes[n // 2],
        "median_body_chars": body_chars[n // 2],
        "max_body_bytes": body_bytes[-1],
        "markers": found,
        "files": {
            name: os.path.getsize(os.path.join(args.out, name))
            for name in ("diary.json", "journal.txt", "plain.sqlite")
            if os.path.exists(os.path.join(args.out, name))
        },
    }
    if tagged:
        ranked = sorted(tag_counts.items(), key=lambda kv: (-kv[1], kv[0]))
        # The day `diary list --on` and `jrnl -on` ask for: ON_DAY, or the first day after it with
        # entries (a small corpus leaves most days empty); days are UTC, as journal.txt writes them.
        on_day = next((d for d in days if d >= ON_DAY), max(days))
        stats["variant"] = "B"
        stats["on_day"] = {"date": on_day, "entries": days[on_day]}
        stats["tags"] = {
            # What the benchmarks filter by: the most used tag (`diary list --tag`, `jrnl @tag`).
            "benchmark": ranked[0][0],
            "benchmark_entries": ranked[0][1],
            "distinct": len(ranked),
            "rows": sum(tag_counts.values()),
            "entries_with": {str(c): n for c, n in tags_per_entry.items()},
            "most_used": [[t, c] for t, c in ranked[:10]],
            "least_used": [[t, c] for t, c in ranked[-5:]],
        }
    with open(os.path.join(args.out, "stats.json"), "w", encoding="utf-8") as f:
        json.dump(stats, f, ensure_ascii=False, indent=2)
        f.write("\n")
    print(text_bytes)
    print(
        f"{n} entries ({n_english} English, {n - n_english} Korean), "
        f"{text_bytes:,} bytes / {text_chars:,} characters of text, "
        f"median body {stats['median_body_bytes']:,} bytes / {stats['median_body_chars']:,} characters; "
        f"'serenity' in {found['serenity']}, '일기' in {found['일기']}"
        + (f"; {stats['tags']['rows']:,} tags ({stats['tags']['distinct']} different), "
           f"'{stats['tags']['benchmark']}' on {stats['tags']['benchmark_entries']:,} entries" if tagged else ""),
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

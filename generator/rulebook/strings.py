"""The rulebook's own words (headings, table labels), per language.

Game texts come from the data; these are the few fixed labels the typesetter adds. A language
without an entry falls back to English, so a new translation still gets a usable book.
"""
from __future__ import annotations

from typing import Any

LABELS: dict[str, dict[str, str]] = {
    "contents": {"ja": "目次", "en": "Contents"},
    "components": {"ja": "内容物", "en": "Components"},
    "component": {"ja": "コンポーネント", "en": "Component"},
    "count": {"ja": "数", "en": "Count"},
    "proposed_note": {"ja": "*は原典に記載がなく、ルールを満たすようソルバーが提案した数です。",
                      "en": "* not stated by the sources: a count the solver proposes so that every rule holds."},
    "setup_table": {"ja": "人数別のセットアップ", "en": "Setup by player count"},
    "setup_table_intro": {"ja": "下の表はルールのデータから自動で計算したものです(pnp check)。",
                          "en": "Computed from the rules data by the checker (pnp check)."},
    "players_col": {"ja": "プレイ人数", "en": "Players"},
    "n_players": {"ja": "{n}人", "en": "{n}"},
    "row_in_play": {"ja": "{name}(使用)", "en": "{name} in play"},
    "row_returned": {"ja": "{name}(箱に戻す)", "en": "{name} back in the box"},
    "row_dealt": {"ja": "{name}(配る)", "en": "{name} dealt"},
    "row_hand": {"ja": "手札の枚数", "en": "Hand size"},
    "row_draw_pile": {"ja": "山札の枚数", "en": "Draw pile"},
    "glossary": {"ja": "用語集", "en": "Glossary"},
    "note": {"ja": "注", "en": "Note"},
    "note_mark": {"ja": "※", "en": "Note:"},
    "example_mark": {"ja": "例:", "en": "Example:"},
    "players": {"ja": "{lo}〜{hi}人", "en": "{lo}–{hi} players"},
    "players1": {"ja": "{n}人", "en": "{n} players"},
    "minutes": {"ja": "{lo}〜{hi}分", "en": "{lo}–{hi} minutes"},
    "minutes1": {"ja": "約{n}分", "en": "about {n} minutes"},
    "age": {"ja": "{n}歳以上", "en": "ages {n}+"},
    "designer": {"ja": "デザイン:", "en": "Design:"},
    "publisher": {"ja": "発行:", "en": "Published by:"},
    "rulebook": {"ja": "ルールブック", "en": "Rulebook"},
    "lang_name": {"ja": "{code}", "en": "{code}"},
    "page": {"ja": "{n}", "en": "{n}"},
    "untranslated": {"ja": "未翻訳の項目は原文で表示しています。", "en": "Untranslated entries are shown in the source language."},
    "colophon": {"ja": "このルールブックはゲームのデータから pnp-forge で組版しました。",
                 "en": "Typeset from the game's data by pnp-forge."},
}
LANG_NAMES = {"ja": {"ja": "日本語", "en": "英語"}, "en": {"ja": "Japanese", "en": "English"}}


def label(key: str, lang: str, **kw: Any) -> str:
    forms = LABELS[key]
    text = forms.get(lang) or forms["en"]
    if key == "lang_name":
        return LANG_NAMES.get(lang, LANG_NAMES["en"]).get(kw["code"], kw["code"])
    return text.format(**kw)

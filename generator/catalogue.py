"""The program's own printed words, in every language it prints: one catalogue.

Everything a player reads comes from the game's data (names, card texts, map names, legends)
or from here: the rulebook's headings and table labels, the duplex calibration page, the map's
assembly page and tile headers, the map legend's heading. Keys are grouped by where they print
(`rulebook.`, `calibration.`, `tiles.`, `map.`); values are str.format templates.

A language a game is built in must have every key (generator/languages.py counts the missing
ones and skips the language with one warning), so a translated face never falls back to
another language. `text` itself falls back to English, for `pnp rulebook --lang xx` drafts.
"""
from __future__ import annotations

from typing import Any

from .text.typography import typeset

MESSAGES: dict[str, dict[str, str]] = {
    # ---- rulebook (generator/rulebook/)
    "rulebook.contents": {"ja": "目次", "en": "Contents"},
    "rulebook.components": {"ja": "内容物", "en": "Components"},
    "rulebook.component": {"ja": "コンポーネント", "en": "Component"},
    "rulebook.count": {"ja": "数", "en": "Count"},
    "rulebook.proposed_note": {"ja": "*は原典に記載がなく、ルールを満たすようソルバーが提案した数です。",
                               "en": "* not stated by the sources: a count the solver proposes so that every rule holds."},
    "rulebook.setup_table": {"ja": "人数別のセットアップ", "en": "Setup by player count"},
    "rulebook.setup_table_intro": {"ja": "下の表はルールのデータから自動で計算したものです(pnp check)。",
                                   "en": "Computed from the rules data by the checker (pnp check)."},
    "rulebook.players_col": {"ja": "プレイ人数", "en": "Players"},
    "rulebook.n_players": {"ja": "{n}人", "en": "{n}"},
    "rulebook.row_in_play": {"ja": "{name}(使用)", "en": "{name} in play"},
    "rulebook.row_returned": {"ja": "{name}(箱に戻す)", "en": "{name} back in the box"},
    "rulebook.row_dealt": {"ja": "{name}(配る)", "en": "{name} dealt"},
    "rulebook.row_hand": {"ja": "手札の枚数", "en": "Hand size"},
    "rulebook.row_draw_pile": {"ja": "山札の枚数", "en": "Draw pile"},
    "rulebook.glossary": {"ja": "用語集", "en": "Glossary"},
    "rulebook.note": {"ja": "注", "en": "Note"},
    "rulebook.note_mark": {"ja": "※", "en": "Note:"},
    "rulebook.bullet": {"ja": "・", "en": "•"},
    "rulebook.example_mark": {"ja": "例:", "en": "Example:"},
    "rulebook.from_mark": {"ja": "出典:", "en": "Source:"},
    "rulebook.clarification_mark": {"ja": "◆補足:", "en": "◆ Clarification:"},
    "rulebook.ruling_mark": {"ja": "裁定:", "en": "Ruling:"},
    "rulebook.clarifications": {"ja": "補足ルール一覧", "en": "Clarifications"},
    "rulebook.clarifications_intro": {
        "ja": "元のルールが答えていない場面と、その場面での遊び方です。これらは元のルールの文章ではなく、この版で補ったものです。各項目は該当する条項の横にも「◆補足」として載っています。",
        "en": "Situations the original rules leave open, and how to play them. These rulings are not the original "
              "rules' words: this edition adds them. Each is also printed beside its clause, marked ◆ Clarification."},
    "rulebook.clause": {"ja": "条項", "en": "Rule"},
    "rulebook.left_open": {"ja": "元のルールが答えていないこと", "en": "What the original rules leave open"},
    "rulebook.ruling": {"ja": "遊び方", "en": "How to play it"},
    "rulebook.players": {"ja": "{lo}〜{hi}人", "en": "{lo}–{hi} players"},
    "rulebook.players1": {"ja": "{n}人", "en": "{n} players"},
    "rulebook.minutes": {"ja": "{lo}〜{hi}分", "en": "{lo}–{hi} minutes"},
    "rulebook.minutes1": {"ja": "約{n}分", "en": "about {n} minutes"},
    "rulebook.age": {"ja": "{n}歳以上", "en": "ages {n}+"},
    "rulebook.designer": {"ja": "デザイン:", "en": "Design:"},
    "rulebook.publisher": {"ja": "発行:", "en": "Published by:"},
    "rulebook.rulebook": {"ja": "ルールブック", "en": "Rulebook"},
    "rulebook.page": {"ja": "{n}", "en": "{n}"},
    "rulebook.untranslated": {"ja": "未翻訳の項目は原文で表示しています。", "en": "Untranslated entries are shown in the source language."},
    "rulebook.colophon": {"ja": "このルールブックはゲームのデータから pnp-forge で組版しました。",
                          "en": "Typeset from the game's data by pnp-forge."},
    # ---- names of languages (the glossary's column heads)
    "language.ja": {"ja": "日本語", "en": "Japanese"},
    "language.en": {"ja": "英語", "en": "English"},
    # ---- the duplex calibration page (generator/cards/calibration.py)
    "calibration.title": {"ja": "両面印刷の較正(表)", "en": "Duplex calibration (front)"},
    "calibration.print": {"ja": "両面印刷、{flip}、拡大縮小なし(100%)で印刷してください。",
                          "en": "Print both sides with flip: {flip}, scale 100%."},
    "calibration.flip.long": {"ja": "長辺とじ", "en": "long edge"},
    "calibration.flip.short": {"ja": "短辺とじ", "en": "short edge"},
    "calibration.hold": {"ja": "紙を光に透かし、表の十字が裏の目盛りと交わる値を読みます。",
                         "en": "Hold the sheet against the light: where the cross meets each ruler of"},
    "calibration.add": {"ja": "その値を現在のオフセット({x:+.1f}, {y:+.1f} mm)に足し、",
                        "en": "the back is the correction. Add it to the current offset"},
    "calibration.build": {"ja": "--back-offset x,y に指定してビルドし直します。",
                          "en": "(now {x:+.1f}, {y:+.1f} mm) and build with --back-offset x,y."},
    "calibration.axes": {"ja": "オフセットはこのページの向きで測ります。横向きのシートには向きを変えて適用します。",
                         "en": "The offset is in this page's axes; landscape sheets get it turned to theirs."},
    "calibration.rulers": {"ja": "x: 横の目盛り、y: 縦の目盛り(mm、裏面)",
                           "en": "x: horizontal ruler, y: vertical ruler (mm, back side)"},
    "calibration.pdf_title": {"ja": "両面印刷の較正", "en": "Duplex calibration"},
    # ---- the map tiled on small paper (generator/hexmap/tiles.py)
    "tiles.head": {"ja": "タイル {name}  ({row}/{rows} 行 × {col}/{cols} 列)  重ね幅 {overlap:g} mm",
                   "en": "Tile {name}  (row {row}/{rows}, column {col}/{cols})  overlap {overlap:g} mm"},
    "tiles.assembly": {"ja": "組み立て図: {title}", "en": "Assembly: {title}"},
    "tiles.count": {"ja": "{n} 枚 ({rows} 行 × {cols} 列)、隣り合うタイルは {overlap:g} mm 重なる。",
                    "en": "{n} sheets ({rows} rows x {cols} columns); neighbours overlap by {overlap:g} mm."},
    "tiles.step1": {"ja": "1. 各タイルの上と左の余白を点線で切り落とす(A列・1行目は除く)。",
                    "en": "1. Trim each sheet's top and left margin at the dashed line (not for column 1 / row A)."},
    "tiles.step2": {"ja": "2. A1 から右へ、次に下の行へ、左/上の隣に重ねて貼る。",
                    "en": "2. Starting at A1, lay each sheet over its left and upper neighbour, row by row."},
    "tiles.step3": {"ja": "3. 重なりの中心にある十字の合わせマークを重ねる。次のタイルで隠れる帯に下のタイル名があり、貼り終えると見えなくなる。",
                    "en": "3. Line up the crosshair marks in each overlap; each strip the next sheet covers names the sheet beneath, hidden once glued."},
    # ---- the map (generator/hexmap/draw.py)
    "map.legend": {"ja": "凡例", "en": "Legend"},
    "map.river.minor": {"ja": "小河川", "en": "minor river"},
    "map.river.major": {"ja": "大河川", "en": "major river"},
    "map.river_dot": {"ja": "川のドット", "en": "river dot"},
    "map.road": {"ja": "街道", "en": "road"},
    "map.crossing.crossing": {"ja": "渡河点", "en": "crossing"},
    "map.crossing.bridge": {"ja": "橋", "en": "bridge"},
    "map.crossing.ford": {"ja": "浅瀬", "en": "ford"},
    "map.edge.north": {"ja": "→ 北端", "en": "→ north edge"},
    "map.edge.south": {"ja": "→ 南端", "en": "→ south edge"},
    "map.edge.east": {"ja": "→ 東端", "en": "→ east edge"},
    "map.edge.west": {"ja": "→ 西端", "en": "→ west edge"},
    "map.place_of_side": {"ja": "{side}の{kind}", "en": "{kind} ({side})"},
}
FALLBACK = "en"


def text(key: str, lang: str, **kw: Any) -> str:
    """The message `key` in `lang` (English when the catalogue lacks it), filled with `kw`: the
    message with the language's printed punctuation (quotes, apostrophes, dashes: typography.py),
    the values (numbers, names, file names) as given."""
    forms = MESSAGES[key]
    return typeset(forms.get(lang) or forms.get(lang.split("-")[0]) or forms[FALLBACK], lang).format(**kw)


def missing(lang: str) -> list[str]:
    """The keys without a `lang` text."""
    base = lang.split("-")[0]
    return [k for k, forms in MESSAGES.items() if lang not in forms and base not in forms]

"""The program's own printed words, in every language it prints: one catalogue.

Everything a player reads comes from the game's data (names, card texts, map names, legends)
or from here: the rulebook's headings and table labels, the duplex calibration page, the map's
assembly page and tile headers, the map legend's heading. Keys are grouped by where they print
(`rulebook.`, `pieces.`, `calibration.`, `tiles.`, `map.`); values are str.format templates.

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
    "rulebook.proposed_note": {"ja": "*は元のルールに数の記載がなく、すべてのルールが成り立つようこの版で決めた数です。",
                               "en": "* The original rules give no number here: this edition chose one with which every rule holds."},
    "rulebook.setup_table": {"ja": "人数別のセットアップ", "en": "Setup by player count"},
    "rulebook.setup_table_intro": {"ja": "プレイ人数ごとに、使うもの・配るもの・箱に戻すものをルールに従って数えた表です。",
                                   "en": "What each number of players uses, deals and puts back in the box, counted from the rules."},
    "rulebook.players_col": {"ja": "プレイ人数", "en": "Players"},
    "rulebook.n_players": {"ja": "{n}人", "en": "{n}"},
    "rulebook.row_in_play": {"ja": "{name}(使用)", "en": "{name} in play"},
    "rulebook.row_returned": {"ja": "{name}(箱に戻す)", "en": "{name} back in the box"},
    "rulebook.row_dealt": {"ja": "{name}(配る)", "en": "{name} dealt"},
    "rulebook.row_dealt_to": {"ja": "{name}({side}に配る)", "en": "{name} dealt to {side}"},
    "rulebook.row_chosen": {"ja": "{name}({side}が選ぶ)", "en": "{name} chosen by {side}"},
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
    # ---- what the sources do not give (generator/missing.py: the rulebook's list, missing-<lang>.pdf, pnp serve)
    "missing.title": {"ja": "原典にないもの", "en": "What the sources do not give"},
    "missing.intro": {"ja": "このゲームの元になった資料には、次のものが書かれていません。遊ぶ前に、原作で確かめるか、自分で用意してください。",
                      "en": "The texts this game was made from do not give what follows: check it against the published game, "
                            "or make it yourself, before you play."},
    "missing.none": {"ja": "ありません。資料はすべての部品、数、文面を示しています。",
                     "en": "Nothing: the sources give every piece, count and text."},
    "missing.rules": {"ja": "ルール {where}", "en": "rules {where}"},
    "missing.source": {"ja": "({source})", "en": "({source})"},
    "missing.placeholder": {"ja": "{name}: 文面が資料になく、「{line}」と印刷しています({n}枚)。",
                            "en": "{name}: the rules do not give its text; it prints “{line}” ({n} printed)."},
    "missing.unknown": {"ja": "{name}: 数が資料になく、提案もないため印刷していません。",
                        "en": "{name}: no count in the rules and none proposed, so it is not printed."},
    "missing.unbounded": {"ja": "{name}: 資料に数がなく、数を決めるルールもありません。遊ぶのに必要なだけ用意してください(提案は最少の{n}個)。",
                          "en": "{name}: the rules give no count and none bounds it: make as many as play needs (the proposal, {n}, is only the least)."},
    "missing.not_described": {"ja": "{name}: 全{stated}個のうち、資料が内容を示すのは{described}個です。残りの{rest}個は内容が分からないため印刷していません(白紙の予備は {printed} 個)。",
                              "en": "{name}: the rules describe {described} of the {stated}; the other {rest} are unknown and "
                                    "are not printed ({printed} blank spares)."},
    "missing.proposed": {"ja": "{name}: 数が資料になく、ルールを満たすよう提案した数です: {items}。",
                         "en": "{name}: counts the rules do not state, proposed so that every rule holds: {items}."},
    "missing.unbounded_note": {"ja": "?は資料に数がなく、数を決めるルールもないもの(原典にないもの、を参照)。",
                               "en": "? no count in the sources and no rule bounds one (see What the sources do not give)."},
    "missing.described_row": {"ja": "うち資料が内容を示すもの(印刷 {printed})", "en": "of which the rules describe (printed: {printed})"},
    "missing.rest_row": {"ja": "{name}(印刷しない)", "en": "{name} (not printed)"},
    # ---- how to print (generator/rulebook/guide.py): the book's last section and print-guide-<lang>.pdf
    "rulebook.guide": {"ja": "印刷のしかた", "en": "How to print"},
    "rulebook.guide_title": {"ja": "{title}:印刷のしかた", "en": "{title}: how to print"},
    "rulebook.guide_scale": {
        "ja": "すべてのページを{paper}の用紙に、拡大縮小なし(100%、「実際のサイズ」)で印刷します。「用紙に合わせる」は使いません。カードやコマは実寸で描かれています。",
        "en": "Print every page on {paper} paper at 100% scale (“actual size”), never “fit to page”: every piece is drawn to its exact size."},
    "rulebook.guide_duplex": {
        "ja": "カードとカウンターのシートは、表面のページの次にその裏面のページが続きます。両面印刷({flip})で印刷します。先に{calibration}を印刷して光に透かし、プリンターが裏面をずらさないか確かめます。",
        "en": "Card and counter sheets are a page of fronts followed by a page of their backs: print them on both sides, flipping on the {flip}. Print {calibration} first: held against the light, it shows whether your printer shifts the back side."},
    "rulebook.guide_stock": {
        "ja": "用紙:カードとカウンターは厚紙(200〜300 g/m²、プリンターが通せる最も厚いもの)、ルールブックと地図のタイルは普通紙。",
        "en": "Paper: card stock of 200–300 g/m² (the heaviest your printer takes) for cards and counters; plain paper for this book and the map tiles."},
    "rulebook.guide_cut": {
        "ja": "切り方:トンボに沿って、まずシート全体を横切る長い線、次に短い線の順に切ります。色は切り線の外へ{bleed} mmはみ出しているので、少しずれても白い縁は出ません。",
        "en": "Cutting: cut along the crop marks, first the long cuts across the whole sheet, then the short ones. Each piece’s colour runs {bleed} mm past its cut line, so a cut slightly off leaves no white edge."},
    "rulebook.guide_map": {
        "ja": "地図「{name}」:{file}は地図全体を{size}判1枚に収めたもので、コピーショップや大判プリンター向けです。{tiles}は{paper}用紙{n}枚({rows}行×{cols}列)に分けたもので、各シートの点線で余白を切り、切った縁を隣のシートの黒い線に合わせて貼り合わせます。貼る順番は最初のページにあります。",
        "en": "The map “{name}”: {file} is the whole map on one {size} sheet, for a copy shop or a large-format printer. {tiles} prints it on {n} {paper} sheets ({rows} rows of {cols}): trim each sheet at its dashed line, lay its cut edge on the black guide line of the sheet beneath, and glue; its first page shows the order."},
    "rulebook.guide_map_whole": {
        "ja": "地図「{name}」:{file}は地図全体を{size}判1枚に収めたものです。",
        "en": "The map “{name}”: {file} is the whole map on one {size} sheet."},
    "rulebook.guide_book": {
        "ja": "このルールブック:{rulebook}は{paper}用紙用です。{booklet}は同じ内容のA5の小冊子で、両面印刷({flip})し、重ねたまま半分に折って折り目をホチキスで留めます。",
        "en": "This book: {rulebook} is for {paper} paper; {booklet} is the same book as an A5 booklet: print it on both sides (flip on the {flip}), fold the stack of sheets in half and staple along the fold."},
    # ---- names of languages (the glossary's column heads)
    "language.ja": {"ja": "日本語", "en": "Japanese"},
    "language.en": {"ja": "英語", "en": "English"},
    # ---- why a component is not printed (manifest.json `left_out`; generator/coverage.py)
    "left_out.print_as_none": {"ja": "{name}は印刷しない(layouts.yaml の print_as: none)。",
                               "en": "{name}: not printed (print_as: none in layouts.yaml)."},
    "left_out.standard_die": {"ja": "{name}は普通の6面ダイス。手持ちのものを使う。",
                              "en": "{name}: a standard six-sided die; use any."},
    "left_out.not_paper": {"ja": "{name}は紙で作る部品ではない。手持ちのものを使う。",
                           "en": "{name}: not a paper piece; use one of your own."},
    "left_out.no_map": {"ja": "{name}を描く map.yaml がない。", "en": "{name}: no map.yaml describes it."},
    "left_out.no_rules": {"ja": "{name}の条文(rules/clauses.yaml)がない。", "en": "{name}: the game has no rules/clauses.yaml."},
    "left_out.count_unknown": {"ja": "{name}の数が分からない(原典に記載がなく、proposed.yaml の提案もない)。",
                               "en": "{name}: count unknown (the sources state none and proposed.yaml proposes none)."},
    "left_out.skipped": {"ja": "{name}はすべての項目が layouts.yaml で skip されている。",
                         "en": "{name}: layouts.yaml skips every item."},
    # ---- a clause a piece's text cites with {ref:clause-id} (generator/cards/face.py)
    "pieces.clause_ref": {"ja": "{number}「{heading}」", "en": "{number} \"{heading}\""},
    "pieces.clause_ref_untitled": {"ja": "{number}", "en": "{number}"},
    # ---- the duplex calibration page (generator/cards/calibration.py)
    "calibration.title": {"ja": "両面印刷の較正(表)", "en": "Duplex calibration (front)"},
    "calibration.print": {"ja": "両面印刷、{flip}、拡大縮小なし(100%、「実際のサイズ」)で印刷してください。",
                          "en": "Print both sides with flip: {flip}, scale 100% (“actual size”, not “fit to page”)."},
    "calibration.flip.long": {"ja": "長辺とじ", "en": "long edge"},
    "calibration.flip.short": {"ja": "短辺とじ", "en": "short edge"},
    "calibration.hold": {"ja": "紙を光に透かし、表の十字が裏の目盛りと交わる値を読みます。",
                         "en": "Hold the sheet against the light: where the cross meets each ruler of"},
    "calibration.add": {"ja": "その値が、このプリンターが裏面をずらす量(mm)です。",
                        "en": "the back is how far your printer shifts the back side, in mm."},
    "calibration.build": {"ja": "1 mmを超えるときは、プリンターの設定(「裏面の印刷位置調整」など)で補正して印刷し直します。",
                          "en": "Over 1 mm? Correct it in your printer's settings (“back side position”) and print again."},
    "calibration.axes": {"ja": "その設定がないプリンターでも、裏面は裁ち落とし分大きいので1〜2 mmのずれは目立ちません。",
                         "en": "No such setting? Backs bleed past the cut, so a shift of 1–2 mm hardly shows."},
    "calibration.rulers": {"ja": "x: 横の目盛り、y: 縦の目盛り(mm、裏面)",
                           "en": "x: horizontal ruler, y: vertical ruler (mm, back side)"},
    "calibration.pdf_title": {"ja": "両面印刷の較正", "en": "Duplex calibration"},
    # ---- the map tiled on small paper (generator/hexmap/tiles.py)
    "tiles.head": {"ja": "シート {n}/{total}({row}行目・{col}列目)  重ね幅 {overlap:g} mm",
                   "en": "Sheet {n} of {total}  (row {row}, column {col})  overlap {overlap:g} mm"},
    "tiles.sheet": {"ja": "シート{n}", "en": "Sheet {n}"},
    "tiles.assembly": {"ja": "組み立て図: {title}", "en": "Assembly: {title}"},
    "tiles.count": {"ja": "{n} 枚 ({rows} 行 × {cols} 列)、隣り合うシートは {overlap:g} mm 重なる。",
                    "en": "{n} sheets ({rows} rows x {cols} columns); neighbours overlap by {overlap:g} mm."},
    "tiles.step1": {"ja": "1. 各シートの上と左の余白を点線で切り落とす(1行目の上と1列目の左は残す)。",
                    "en": "1. Trim each sheet's top and left margin at the dashed line (keep the top of row 1 and the left of column 1)."},
    "tiles.step2": {"ja": "2. シート1から番号順に、左と上の隣に重ねて貼る。",
                    "en": "2. Starting at sheet 1, in number order, lay each sheet over its left and upper neighbour."},
    "tiles.step3": {"ja": "3. 切った縁を、下のシートの重なりにある黒い線に合わせる。重なりの帯には下のシートの番号があり、貼り終えると見えなくなる。",
                    "en": "3. Lay each cut edge on the black guide line in the strip beneath it; the strip shows the number of the sheet beneath and is hidden once glued."},
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

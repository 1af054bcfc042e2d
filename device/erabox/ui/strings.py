"""Every word the OLED shows, in English and Japanese: one catalogue per language, same keys.

The Japanese strings use the rulebook's own terms (時代, 学者の任命, 入門の時代, ラウンド,
スタートプレイヤー, 得点計算フェイズ, 新たなゲーム, 次ラウンド, ゲームの再開, 銅鑼), so a table that
reads the rulebook reads the box the same way. Button names stay NEXT / ERA in both languages:
they are printed on the box.

A zero-width space (\u200b) marks where a Japanese line should break if it must; it is not
drawn. Placeholders are `str.format` fields; `SAMPLE_VALUES` holds one value for each, so tests can
render every string of both catalogues.
"""

from __future__ import annotations

from collections.abc import Mapping

from erabox.core import rules
from erabox.core.config import LANGUAGES as LANGUAGES  # the box speaks these: a catalogue each

STRINGS: dict[str, dict[str, str]] = {
    "en": {
        "era": "Era {numeral}",
        "setup": "Setup",
        "new_game": "New game",
        "mode_realtime": "Real-time {length}",
        "mode_intro": "Intro {rounds} rounds",
        "hint_toggle_mode": "NEXT: change mode",
        "hint_start_era": "ERA: start {era}",
        "lead_in": "Start gong in",
        "hint_back": "hold ERA: back",
        "action_phase": "Action phase",
        "paused": "Paused",
        "hint_resume": "NEXT: resume",
        "hint_hall_held": "Waiting for the hall",  # paused by a hall: it resumes there
        "round": "Round",
        "start_player": "Start player: {colour}",
        "start_player_short": "{colour} starts",  # beside big digits on a 128x32 panel
        "hint_next_round": "NEXT: next round",
        "hint_next_round_undo": "NEXT: next round  hold: undo",
        "hint_end_era": "NEXT: end era",
        "hint_end_era_undo": "NEXT: end era  hold: undo",
        "prompt_undone": "Back to round {round}",
        "hold_new_game": "New game? {bar}",
        "selftest_title": "Self-test",
        "selftest_found": "Self-test: found",
        "selftest_pins": "Pins: {name}",
        "selftest_oled": "Screen: {where}",
        "selftest_sound": "Sound: {state}",
        "selftest_ok": "ok",
        "selftest_none": "none",
        "selftest_led": "Cue LED: {state}",
        "selftest_flashing": "flashing",
        "selftest_playing": "Playing {sound} at {percent}%",
        "selftest_not_played": "Not played: {sound}",
        "selftest_buttons": "Buttons (hold NEXT+ERA: end)",
        "selftest_down": "DOWN",
        "selftest_up": "up",
        "selftest_done": "Self-test done",
        "sound_gong": "the gong",
        "sound_cry": "the baby's cry",
        "sound_tick": "the tick",
        "scoring_done": "Checklist done",
        "scholars_title": "Appoint scholars",
        "scholars_pass": "pass the box left:",
        "scholars_next": "{colour} starts",
        "hint_resume_game": "NEXT: resume game",
        "scoring_title": "{era} complete - scoring",
        "scoring_step": "{step}/{steps} {text}",
        "scoring_1": "Destruction",
        "scoring_2": "Construction bonus",
        "scoring_3": "Leader cards",
        "scoring_4": "Wonders, remove scholars",
        "scoring_5": "Cultural influence",
        "scoring_6": "City sieges",
        "hint_next_step": "NEXT: next step",
        "hint_prepare_era": "ERA: prepare {era}",
        "hint_final_scoring": "ERA: end of the game",
        "game_over": "Game over - add up the VP",
        "hint_new_game": "hold ERA: new game",
        "question_restart_era": "Restart this era?",
        "question_new_game": "New game?",
        "confirm_answers": "ERA: yes / NEXT: no",
        "prompt_scholars": "Appoint scholars!",
        "prompt_resumed": "Resumed",
        "prompt_pause_hint": "hold NEXT to pause",
        "volume": "Vol {percent}%",
        "settings": "Settings",
        "hint_open_settings": "hold ERA: settings",
        "hint_menu": "NEXT: next item / ERA: change",
        "hint_menu_done": "NEXT: next item / ERA: back",
        "hint_menu_defaults": "NEXT: next item / ERA: restore",
        "hint_menu_defaults_ask": "NEXT: keep them / ERA: restore",
        "note_swapped": "swapped with seat {n}",
        "set_players": "Players",
        "set_seat": "Seat {n} (passes left)",
        "set_oldest": "Oldest player",
        "set_language": "Language",
        "set_mode": "{era} mode",
        "set_volume": "Volume",
        "set_music_level": "Music level",
        "set_final_ticks": "Final 10 s ticks",
        "set_lead_in": "Lead-in before gong",
        "set_brightness": "Screen brightness",
        "set_cue_led": "Cue LED",
        "set_defaults": "Back to defaults",
        "set_done": "Done",
        "value_players": "{n} players",
        "value_on": "on",
        "value_off": "off",
        "value_seconds": "{n} s",
        "value_percent": "{n}%",
        "value_level": "{n} of 4",
        "value_restore": "ERA: restore",
        "value_back": "ERA: back",
        "value_realtime": "Real-time",
        "value_intro": "Intro",
        "note_players": "only before the game starts",
        "note_oldest": "starts Era I",
        "note_volume": "lowest step 10%",
        "note_music_level": "of the volume; cues stay",
        "note_final_ticks": "before the end gong",
        "note_defaults": "as in the config file",
        "note_defaults_done": "Defaults restored",
        "note_defaults_ask": "ERA again: restore all",
        "set_guide": "Preparation guide",
        "set_game": "Game",
        "value_time_of_empires": "Time of Empires",
        "note_game": "starts when the menu closes",
        "note_game_players": "for {n} players only",
        "note_game_players_named": "{game}: for {n} players",
        "hint_game_players": "change Players or Game",
        "note_game_broken": "broken: {file}",
        "hint_game_broken": "fix it or choose another game",
        "players_span": "{a}-{b}",
        "guide_status": "{era} prep {step}/{steps}",
        "hint_guide": "NEXT: next  ERA: start {era}",
        "game_setup_status": "Game setup {step}/{steps}",
        "guide_start": "ERA: start {era}, {mode}",
        "hint_guide_skip": "NEXT: next  hold: skip",
        "setup_players": "Time of Empires, {n} players. hold ERA: settings (game, players, "
                         "language, modes)",
        "setup_wonders": "Wonder board; the 12 wonder cards by era, each era shuffled into "
                         "its own face-down deck (I, II, III)",
        "setup_terrain": "{n}-player central board: each player's 3 terrain tiles, "
                         "face up, turned at random, as pictured",
        "setup_technology": "2 technology boards; the 72 technology cards by era, each era "
                            "shuffled into a face-down deck of 24",
        "setup_leader_decks": "Leader board; leader cards by era in 3 decks of 6 (not "
                              "shuffled)",
        "setup_extra_effect": "4 players only: the matching leader effect tile under the "
                              "rightmost column too",
        "setup_player_board": "Each player: player board, 20 buildings on it, 20 "
                              "population tokens, 2 hourglasses (2 caps each)",
        "setup_player_cards": "Each player: their 4 starting technology cards in hand, "
                              "hidden; the 3 bonus tokens (1, 2, 3 VP)",
        "setup_birth": "Birth of the empire: each player, 1 population token on a "
                       "clan space of their capital tile",
        "setup_effect_tiles": "Under each of the 3 left columns: its leader effect tile, "
                              "random side up",
        "setup_resources": "Each player: 1 knowledge and 1 brick on their stock spaces, the "
                           "other 5 of each in reserve",
        "prep_hourglasses_intro": "Introductory era: each player puts their 2 hourglasses "
                                  "beside their player board (they mark actions, no timing)",
        "prep_oldest_holds_box": "The oldest player holds the box: the start player",
        "prep_remove_cards": "Technology boards: remove the previous era's cards",
        "prep_tech_decks": "Split the new era's 24 technology cards into 4 decks of 6: "
                           "2 decks on each technology board",
        "prep_wonder": "Wonder board: add 1 random wonder card of the new era "
                       "({n} on the board); its other wonder cards go back in the box",
        "prep_remove_leaders": "Leader board: remove the previous era's leaders",
        "prep_leaders": "Leader board: 1 random leader face up for each speciality "
                        "(brown/green, yellow, blue)",
        "prep_extra_leader": "4 players: 1 random leftover leader face up in the extra "
                             "(rightmost) space",
        "prep_hourglasses": "Each player takes their 2 hourglasses (bodies may be swapped, "
                            "caps stay)",
        "prep_scholars": "Appoint scholars: as many as scholar symbols are visible in the "
                         "culture (blue) section",
        "prep_bonus_token": "Construction bonus: each player places the {n} VP token on "
                            "an empty space",
        "hint_undo": "hold ERA: undo",
        "hint_points": "NEXT+1 hold+5 both-1",
        "hint_ramp": "let go: +{n}",
        "hint_confirm_undo": "ERA:ok hold:undo",
        "era_total_title": "Points for {era}",
        "destruction_title": "{step} x{k} = {n} VP",
        "era_over": "{era} complete",
        "score_on_paper": "score kept on paper",
        "set_keep_score": "Keep score",
        "note_keep_score": "off: on paper",
        "set_points_entry": "Points entry",
        "note_points_entry": "totals: fastest",
        "value_totals": "Era totals",
        "value_steps": "Per step",
        "set_score_variant": "Music version",
        "note_score_variant": "of the era scores",
        "value_each_game": "next each game",
        "value_version1": "version 1",
        "value_version2": "version 2",
        "value_version3": "version 3",
        "hint_go_on": "ERA: go on",
        "no_points": "no victory points",
        "standings_title": "{era} standings",
        "place_line": "{place}. {colour} {total}",
        "place_buildings": "{place}. {colour} {total} ({n} bldg)",
        "hint_final_ranking": "ERA: final ranking",
        "tie_title": "Tied: buildings on central board",
        "final_ranking": "Final ranking",
        "winner": "{colour} wins!",
        "shared_victory": "Shared victory!",
    },
    "ja": {
        "era": "時代{numeral}",
        "setup": "準備フェイズ",
        "new_game": "新たなゲーム",
        "mode_realtime": "リアルタイム {length}",
        "mode_intro": "入門の時代 {rounds}ラウンド",
        "hint_toggle_mode": "NEXT: モード切替",
        "hint_start_era": "ERA: {era}の開始",
        "lead_in": "開始の銅鑼まで",
        "hint_back": "ERA長押し: 戻る",
        "action_phase": "アクションフェイズ",
        "paused": "一時停止",
        "hint_resume": "NEXT: 再開",
        "hint_hall_held": "会場の再開待ち",
        "round": "ラウンド",
        "start_player": "スタートプレイヤー: {colour}",
        "start_player_short": "スタート: {colour}",
        "hint_next_round": "NEXT: 次ラウンド",
        "hint_next_round_undo": "NEXT: 次ラウンド 長押し: 戻す",
        "hint_end_era": "NEXT: 時代の終了",
        "hint_end_era_undo": "NEXT: 時代の終了 長押し: 戻す",
        "prompt_undone": "ラウンド{round}に戻しました",
        "hold_new_game": "新たなゲーム？ {bar}",
        "selftest_title": "セルフテスト",
        "selftest_found": "セルフテスト: 検出結果",
        "selftest_pins": "ピン: {name}",
        "selftest_oled": "画面: {where}",
        "selftest_sound": "音: {state}",
        "selftest_ok": "OK",
        "selftest_none": "なし",
        "selftest_led": "合図のLED: {state}",
        "selftest_flashing": "点滅中",
        "selftest_playing": "{sound}を音量{percent}%で再生",
        "selftest_not_played": "{sound}: 音が出ません",
        "selftest_buttons": "ボタン（NEXT+ERA長押し: 終了）",
        "selftest_down": "押下",
        "selftest_up": "－",
        "selftest_done": "セルフテスト終了",
        "sound_gong": "銅鑼",
        "sound_cry": "赤ん坊の泣き声",
        "sound_tick": "秒読み",
        "scoring_done": "得点計算の手順 完了",
        "scholars_title": "学者の任命",
        "scholars_pass": "ボックスを左隣へ渡す",
        "scholars_next": "新たなスタートプレイヤー: {colour}",
        "hint_resume_game": "NEXT: ゲームの再開",
        "scoring_title": "{era}終了 - 得点計算フェイズ",
        "scoring_step": "{step}/{steps} {text}",
        "scoring_1": "破壊",
        "scoring_2": "建設ボーナス",
        "scoring_3": "指導者カードの割り当て",
        "scoring_4": "驚異カード、学者を戻す",
        "scoring_5": "文化的影響力",
        "scoring_6": "都市の包囲",
        "hint_next_step": "NEXT: 次の手順",
        "hint_prepare_era": "ERA: {era}の準備",
        "hint_final_scoring": "ERA: ゲーム終了",
        "game_over": "ゲーム終了 - 勝利点を合計",
        "hint_new_game": "ERA長押し: 新たなゲーム",
        "question_restart_era": "この時代を\u200bやり直す？",  # \u200b: break here
        "question_new_game": "新たなゲーム？",
        "confirm_answers": "ERA: はい / NEXT: いいえ",
        "prompt_scholars": "学者の任命！",
        "prompt_resumed": "再開しました",
        "prompt_pause_hint": "NEXT長押しで一時停止",
        "volume": "音量{percent}%",
        "settings": "設定",
        "hint_open_settings": "ERA長押し: 設定",
        "hint_menu": "NEXT: 次の項目 / ERA: 変更",
        "hint_menu_done": "NEXT: 次の項目 / ERA: 戻る",
        "hint_menu_defaults": "NEXT: 次の項目 / ERA: 戻す",
        "hint_menu_defaults_ask": "NEXT: 戻さない / ERA: 戻す",
        "note_swapped": "席{n}と色を交換",
        "set_players": "プレイヤー人数",
        "set_seat": "席{n}（左隣へ渡す）",
        "set_oldest": "最年長のプレイヤー",
        "set_language": "言語",
        "set_mode": "{era}のモード",
        "set_volume": "音量",
        "set_music_level": "音楽の音量",
        "set_final_ticks": "最後の10秒の秒読み",
        "set_lead_in": "銅鑼までの秒読み",
        "set_brightness": "画面の明るさ",
        "set_cue_led": "合図のLED",
        "set_defaults": "初期設定に戻す",
        "set_done": "終了",
        "value_players": "{n}人",
        "value_on": "オン",
        "value_off": "オフ",
        "value_seconds": "{n}秒",
        "value_percent": "{n}%",
        "value_level": "{n}/4",
        "value_restore": "ERA: 戻す",
        "value_back": "ERA: 戻る",
        "value_realtime": "リアルタイム",
        "value_intro": "入門の時代",
        "note_players": "ゲーム開始前だけ変更できます",
        "note_oldest": "時代Ⅰのスタートプレイヤー",
        "note_volume": "最小は10%",
        "note_music_level": "合図の音はそのまま",
        "note_final_ticks": "終了の銅鑼の前の秒読み",
        "note_defaults": "設定ファイルの値に戻す",
        "note_defaults_done": "初期設定に戻しました",
        "note_defaults_ask": "もう一度ERAですべて戻す",
        "set_guide": "準備フェイズの案内",
        "set_game": "ゲーム",
        "value_time_of_empires": "タイム・オブ・エンパイア",
        "note_game": "メニューを閉じると始まる",
        "note_game_players": "{n}人用のゲーム",
        "note_game_players_named": "{game}は{n}人用",
        "hint_game_players": "プレイヤー人数かゲームを変更",
        "note_game_broken": "誤り: {file}",
        "hint_game_broken": "直すか別のゲームを選ぶ",
        "players_span": "{a}〜{b}",
        "guide_status": "{era} 準備 {step}/{steps}",
        "hint_guide": "NEXT: 次へ ERA: {era}の開始",
        "game_setup_status": "ゲームの準備 {step}/{steps}",
        "guide_start": "ERA: {era}開始 {mode}",
        "hint_guide_skip": "NEXT: 次へ 長押し: 飛ばす",
        "setup_players": "タイム・オブ・エンパイア、{n}人。"
                         "ERA長押し：設定（ゲーム・人数・言語・モード）",
        "setup_wonders": "驚異ボード。驚異カード12枚を時代ごとに分けて個別によく混ぜ、"
                         "裏向きの3つのデッキ（I、II、III）を作る",
        "setup_terrain": "{n}人プレイ時の中央ボード：各自の地形タイル3枚を図のとおり表向き・ランダ"
                         "ムな向きで置く",
        "setup_technology": "技術ボード2枚。技術カード72枚を時代ごとに分けて個別によく混ぜ、"
                            "裏向きのカード24枚のデッキを3つ作る",
        "setup_leader_decks": "指導者ボード。指導者カード18枚を時代ごとに6枚ずつ3つのデッキに分け"
                              "る（混ぜない）",
        "setup_extra_effect": "4人ゲームでのみ、右端の列の下側にも対応する指導者効果タイルを置く",
        "setup_player_board": "各プレイヤー：プレイヤーボードと建物駒20個、人口トークン20個、キャ"
                              "ップを2個ずつつけた砂時計2個",
        "setup_player_cards": "各プレイヤー：初期技術カード4枚を手札に（他プレイヤーに見せない）。"
                              "建設ボーナストークン3枚",
        "setup_birth": "帝国の誕生：各プレイヤーは首都タイル（自分の色で囲まれたタイル）の氏族スペ"
                       "ースに人口トークンを1個置く",
        "setup_effect_tiles": "左側3列の下に、同じ色の指導者効果タイルをランダムな面を表向きにして"
                              "置く",
        "setup_resources": "各プレイヤー：知識駒とレンガ駒を1個ずつストックスペースに、"
                           "残り5個ずつをリザーブに",
        "prep_hourglasses_intro": "入門の時代：各プレイヤーは自分の砂時計2個を取り、"
                                  "プレイヤーボードの横に置く",
        "prep_oldest_holds_box": "最年長プレイヤーがこの箱を持つ：スタートプレイヤー",
        "prep_remove_cards": "技術ボードから以前の時代の技術カードをすべて取り除く",
        "prep_tech_decks": "新たな時代の技術カード24枚を6枚ずつ4つのデッキに分け、"
                           "技術ボードに2デッキずつ置く",
        "prep_wonder": "新たな時代の驚異カードをランダムに1枚、驚異ボードに置く（計{n}枚）。"
                       "残りは箱に戻す",
        "prep_remove_leaders": "指導者ボードから以前の時代の指導者カードをすべて取り除く",
        "prep_leaders": "専門分野（茶／緑、黄、青）ごとに指導者カードを1枚ランダムに"
                        "表向きで置く",
        "prep_extra_leader": "4人ゲーム：残りの指導者カード1枚をランダムに追加指導者スペース"
                             "（右端）に表向きで置く",
        "prep_hourglasses": "各プレイヤーは自分の砂時計2個を取る（本体は交換してよい）",
        "prep_scholars": "学者の任命：文化（青）区画で見えている学者シンボルの数だけ",
        "prep_bonus_token": "各プレイヤーは{n}勝利点の建設ボーナストークンを空いている"
                            "スペースに置く",
        "hint_undo": "ERA長押し: 戻す",
        "hint_points": "NEXT+1 長押し+5 両方-1",
        "hint_ramp": "離す: +{n}",
        "hint_confirm_undo": "ERA:決定 長押し:戻す",
        "era_total_title": "{era}の勝利点",
        "destruction_title": "{step} ×{k}＝{n}勝利点",
        "era_over": "{era}終了",
        "score_on_paper": "得点は紙で記録",
        "set_keep_score": "得点の記録",
        "note_keep_score": "オフ：紙で記録",
        "set_points_entry": "勝利点の入力",
        "note_points_entry": "時代合計が最速",
        "value_totals": "時代の合計",
        "value_steps": "手順ごと",
        "set_score_variant": "音楽のバージョン",
        "note_score_variant": "時代の音楽",
        "value_each_game": "ゲームごとに次",
        "value_version1": "バージョン1",
        "value_version2": "バージョン2",
        "value_version3": "バージョン3",
        "hint_go_on": "ERA: 次へ",
        "no_points": "勝利点なし",
        "standings_title": "{era}終了時の順位",
        "place_line": "{place}位 {colour} {total}点",
        "place_buildings": "{place}位 {colour} {total}点 建物{n}",
        "hint_final_ranking": "ERA: 最終順位",
        "tie_title": "同数：中央ボード上の建物駒の数",
        "final_ranking": "最終順位",
        "winner": "{colour}の勝利！",
        "shared_victory": "勝利を分かち合います！",
    },
}

# Each language's name in itself: whoever reads only one of them finds theirs in the menu.
LANGUAGE_NAMES = {"en": "English", "ja": "日本語"}

# The scoring checklist of docs/game.md, in order: keys of its short step texts.
SCORING_STEPS = tuple(f"scoring_{n}" for n in range(1, rules.SCORING_STEPS + 1))

# Colour names a player list may use, as the Japanese rulebook writes them. Names not listed
# here are shown as given (a table may well call its colours something else).
COLOUR_NAMES_JA: dict[str, str] = {
    "red": "赤",
    "blue": "青",
    "green": "緑",
    "yellow": "黄",
    "black": "黒",
    "white": "白",
    "purple": "紫",
    "orange": "橙",
    "pink": "ピンク",
    "brown": "茶",
    "grey": "灰",
    "gray": "灰",
}

_ERA_NUMERALS = {
    "en": dict(enumerate(("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"), 1)),
    # The rulebook writes 時代Ⅰ/Ⅱ/Ⅲ with the Roman numeral characters (a game's profile may
    # have up to nine eras: Ⅳ..Ⅸ are in the font too).
    "ja": dict(enumerate("ⅠⅡⅢⅣⅤⅥⅦⅧⅨ", 1)),
}

# One value per placeholder, for tests and the gallery: long on purpose (the widest era
# numeral, two-digit numbers, the longest clock) so "it fits" means it fits for real values.
SAMPLE_VALUES: dict[str, str] = {
    "numeral": "III",
    "length": "10:00",
    "rounds": "15",
    "era": "Era III",
    "colour": "yellow",
    "step": "6",
    "steps": "6",
    "text": "Cultural influence",
    "percent": "100",
    "n": "10",
    "k": "3",
    "round": "15",
    "bar": "■■■□□□",
    "mode": "Real-time",
    "name": "MockFactory",
    "where": "0x3C",
    "state": "flashing",
    "sound": "gong",
    "place": "4",
    "total": "123",
    "file": "hadrians-wall.toml:123",  # a profile file and line
    "a": "3",
    "b": "5",
    "game": "Lords of Xidit",
}


def check_language(language: str) -> str:
    """Return `language` if a catalogue exists for it, else raise a `ValueError` naming both."""
    if language not in STRINGS:
        raise ValueError(f"unknown language {language!r}: expected one of {', '.join(LANGUAGES)}")
    return language


def say(language: str, key: str, **values: object) -> str:
    """The string `key` in `language`, with its placeholders filled from `values`."""
    template = STRINGS[check_language(language)][key]
    return template.format(**values) if values else template


def era_name(era: int, language: str) -> str:
    """"Era II" / "時代Ⅱ"; an era outside I..IX shows its number."""
    numeral = _ERA_NUMERALS[check_language(language)].get(era, str(era))
    return say(language, "era", numeral=numeral)


def colour_name(colour: str, language: str) -> str:
    """A player colour in `language`: known colours translated, unknown ones shown as given."""
    if check_language(language) == "ja":
        return COLOUR_NAMES_JA.get(colour.strip().lower(), colour)
    return colour


def clock_text(seconds: float | None) -> str:
    """Whole seconds as m:ss ("9:00", "10:00"); unknown time as "-:--"."""
    if seconds is None:
        return "-:--"
    whole = max(0, int(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def filled(template: str, values: Mapping[str, str] = SAMPLE_VALUES) -> str:
    """`template` with every placeholder filled from `values` (tests and the gallery)."""
    return template.format(**values)
